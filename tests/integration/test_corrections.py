"""Correcting an earlier turn through the service, the pages and the API, on a real database.

What only these layers can show: the old turn stays in the log (taken back at the moment its
correction was written), later points are rewritten in the rows, the seats' cached results and
the game's version follow, the process's cached state is dropped, another account's game is a
404, forms need their CSRF token, and a stale phone gets a 409. What a correction may change is
the rules' (tests/unit/test_corrections.py).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from tracker.extensions import db
from tracker.models import Account, Game, GameSeat, Turn, name_key
from tracker.services import Conflict, NotFound, corrections, games, results, transfer
from tracker.services.corrections import CorrectionRefused, NothingToCorrect
from tracker.store import cache

from .test_api_games import GAMES, Api, account_with_token
from .test_game_pages import Table, sign_up, text_of

# Ala and Ola. Ala's Generał of 50 earns her later five 6s +100; her turn 3 is a typo.
GENERALS = [
    ("66666", "five_of_a_kind"),  # 1 Ala: 50
    ("12345", "large_straight"),  # 2 Ola: 40
    ("22334", "full_house"),  # 3 Ala: 0, meant 2-2-3-3-3
    ("11112", "ones"),  # 4 Ola: 4
    ("66666", "sixes"),  # 5 Ala: 30 +100
    ("23456", "small_straight"),  # 6 Ola: 30
]


def new_account(app: Flask, name: str) -> int:
    with app.app_context():
        account = Account(name=name, name_key=name_key(name), password_hash="!")
        db.session.add(account)
        db.session.commit()
        return account.id


def played_game(
    app: Flask,
    account_id: int,
    turns: Sequence[tuple[str, str | None]] = GENERALS,
    variant: str = "standard",
    names: Sequence[str] = ("Ala", "Ola"),
    options: dict[str, int] | None = None,
) -> int:
    with app.app_context():
        game = games.create_game(account_id, variant, list(names), options)
        for dice, field in turns:
            games.record_turn(account_id, game.id, dice, field, None if field is None else 0)
        return game.id


def rows(app: Flask, game_id: int) -> list[tuple[int, str, str | None, int | None, int, bool]]:
    """The game's turns as stored, in order of writing: seq, dice, field, points, extra bonus,
    whether in force."""
    with app.app_context():
        turns = db.session.scalars(
            select(Turn).where(Turn.game_id == game_id).order_by(Turn.id)
        ).all()
        return [
            (t.seq, t.dice, t.field, t.points, t.extra_bonus, t.undone_at is None) for t in turns
        ]


def stored(app: Flask, game_id: int) -> tuple[int, list[tuple[int, int]]]:
    """The game's version and its seats' cached (total, extra bonuses)."""
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None
        seats = db.session.scalars(
            select(GameSeat).where(GameSeat.game_id == game_id).order_by(GameSeat.seat)
        ).all()
        return game.version, [(s.total, s.extra_bonuses) for s in seats]


# --- the service ---------------------------------------------------------------------------


def test_a_dice_typo_is_corrected_in_place_and_the_old_turn_stays_in_the_log(app: Flask):
    account = new_account(app, "Kowalscy")
    game_id = played_game(app, account)
    version, (ala, ola) = stored(app, game_id)

    with app.app_context():
        done = corrections.correct_turn(account, game_id, 3, "22333", "full_house", 0)
        assert (done.before.dice, done.after.dice, done.after.points) == ("22334", "22333", 25)
        assert done.rescored == ()
        assert done.view.table.scores[0] == ala[0] + 25

    written = rows(app, game_id)
    assert written[:6] == [
        (1, "66666", "five_of_a_kind", 50, 0, True),
        (2, "12345", "large_straight", 40, 0, True),
        (3, "22334", "full_house", 0, 0, False),  # taken back, kept
        (4, "11112", "ones", 4, 0, True),
        (5, "66666", "sixes", 30, 100, True),
        (6, "23456", "small_straight", 30, 0, True),
    ]
    assert written[6:] == [(3, "22333", "full_house", 25, 0, True)]
    new_version, seats = stored(app, game_id)
    assert new_version > version
    assert seats == [(ala[0] + 25, 1), ola]
    with app.app_context():
        log = games.load(account, game_id).log
        corrected, corrections_ = corrections.corrected_turn_ids(log)
        assert [t.seq for t in log if t.id in corrected] == [3]
        assert [(t.seq, t.dice) for t in log if t.id in corrections_] == [(3, "22333")]


def test_a_correction_rewrites_the_later_points_the_rules_tie_to_it(app: Flask):
    """Ala's Generał corrected to 6-6-6-6-5 (0): her later five 6s loses its +100."""
    account = new_account(app, "Kowalscy")
    game_id = played_game(app, account)
    _, (ala, ola) = stored(app, game_id)

    with app.app_context():
        done = corrections.correct_turn(account, game_id, 1, "66665", "five_of_a_kind", 0)
        [change] = done.rescored
        assert (change.turn.seq, change.before_extra_bonus, change.turn.extra_bonus) == (5, 100, 0)

    assert rows(app, game_id)[4] == (5, "66666", "sixes", 30, 0, True)
    assert stored(app, game_id)[1] == [(ala[0] - 150, 0), ola]
    # What is stored is what the rules give: recomputing everything changes nothing.
    version = stored(app, game_id)[0]
    with app.app_context():
        results.recompute_all()
    assert stored(app, game_id) == (version, [(ala[0] - 150, 0), ola])


def test_a_refused_correction_writes_nothing_and_says_why_with_a_code(app: Flask):
    account = new_account(app, "Kowalscy")
    game_id = played_game(app, account)
    before = (rows(app, game_id), stored(app, game_id))

    with app.app_context(), pytest.raises(CorrectionRefused) as refused:
        corrections.correct_turn(account, game_id, 3, "22333", "sixes", 0)

    assert refused.value.code == "field_taken_later"
    assert refused.value.field == "field"
    assert refused.value.status == 409
    assert "ruch nr 5" in refused.value.message
    assert (rows(app, game_id), stored(app, game_id)) == before


@pytest.mark.parametrize(
    ("seq", "dice", "field", "expected_seq", "error"),
    [
        (3, "22333", "full_house", 6, Conflict),  # the phone saw the game 1 turn shorter
        (7, "22333", "full_house", None, NotFound),  # no turn 7 yet
        (0, "22333", "full_house", None, NotFound),
        (3, "22334", "full_house", None, NothingToCorrect),
        (3, "2233", "full_house", None, games.InvalidInput),
        (3, "22333", "yahtzee", None, games.InvalidInput),
        (3, "22333", None, None, games.InvalidInput),
    ],
    ids=[
        "stale expected_seq",
        "a turn not written",
        "turn 0",
        "the turn as it is",
        "four dice",
        "a field the table lacks",
        "no field",
    ],
)
def test_what_the_service_refuses_before_writing(app, seq, dice, field, expected_seq, error):
    account = new_account(app, "Kowalscy")
    game_id = played_game(app, account)
    before = (rows(app, game_id), stored(app, game_id))

    with app.app_context(), pytest.raises(error):
        corrections.correct_turn(account, game_id, seq, dice, field, expected_seq=expected_seq)

    assert (rows(app, game_id), stored(app, game_id)) == before


def test_another_accounts_game_cannot_be_corrected(app: Flask):
    owner = new_account(app, "Kowalscy")
    stranger = new_account(app, "Nowakowie")
    game_id = played_game(app, owner)
    before = (rows(app, game_id), stored(app, game_id))

    with app.app_context(), pytest.raises(NotFound):
        corrections.correct_turn(stranger, game_id, 3, "22333", "full_house")

    assert (rows(app, game_id), stored(app, game_id)) == before


def test_the_next_turn_is_decided_on_the_corrected_sheet(app: Flask):
    """The process keeps the state of a game it wrote (`store.cache`): a correction drops it,
    so the field the correction freed is free for the next turn, and the one it took is not."""
    account = new_account(app, "Kowalscy")
    game_id = played_game(app, account)
    assert cache.holds(game_id)
    with app.app_context():
        corrections.correct_turn(account, game_id, 3, "22334", "chance", 0)
        assert not cache.holds(game_id)
        with pytest.raises(Conflict, match="Szansa"):
            games.record_turn(account, game_id, "23456", "chance", 0)
        view = games.record_turn(account, game_id, "33322", "full_house", 0)
    assert view.turns[-1].points == 25


def test_a_poker_hand_is_corrected_while_its_round_is_open(app: Flask):
    account = new_account(app, "Kowalscy")
    hands: list[tuple[str, str | None]] = [("55522", None), ("66221", None), ("33312", None)]
    game_id = played_game(app, account, hands, "poker", ("Ala", "Ola"))
    with app.app_context():
        done = corrections.correct_turn(account, game_id, 3, "33311")
        assert done.after.dice == "33311"
        assert (done.after.field, done.after.points) == (None, None)
        with pytest.raises(CorrectionRefused) as refused:
            corrections.correct_turn(account, game_id, 2, "66666")
        assert refused.value.code == "round_result_changes"
        assert refused.value.field == "dice"


# --- the pages -----------------------------------------------------------------------------


@pytest.fixture
def table(app: Flask, client: FlaskClient) -> Table:
    assert sign_up(client, "Kowalscy").status_code == 302
    return Table(app, client, "Kowalscy")


def correction_url(game_id: int, seq: int) -> str:
    return f"/gry/{game_id}/ruchy/{seq}/popraw"


def test_the_correction_page_shows_the_turn_and_where_it_could_go(table: Table):
    game_id = played_game(table.app, table.account_id)

    html = table.client.get(correction_url(game_id, 3)).get_data(as_text=True)

    assert "<h1>Popraw ruch 3</h1>" in html
    # The dice keep to one line: non-breaking hyphens.
    assert "Zapisano: <strong>Ful 0 (2\u20112\u20113\u20113\u20114)</strong>" in html
    assert re.search(r'<input id="dice" name="dice" value="22334"', html)
    assert re.search(r'<option value="0:full_house" selected>\s*Ful \(teraz\)', html)
    assert re.search(r'<option value="0:sixes" disabled>\s*Szóstki – zajęte w ruchu 5', html)
    assert 'value="0:five_of_a_kind"' not in html  # written before turn 3
    assert 'name="seq" value="7"' in html


def test_a_correction_through_the_page_goes_back_to_the_game_and_shows_in_the_log(table: Table):
    game_id = played_game(table.app, table.account_id)
    version = stored(table.app, game_id)[0]

    corrected = {"dice": "66665", "where": "0:five_of_a_kind", "seq": "7"}
    asked = table.post(correction_url(game_id, 1), corrected)  # a 0 where Szansa gives 29
    assert stored(table.app, game_id)[0] == version  # asked first, nothing written
    assert "Wpisać 0 w polu Generał? Najwięcej teraz:" in text_of(asked.get_data(as_text=True))

    response = table.post(
        correction_url(game_id, 1), {**corrected, "confirm": "1", "asked": "66665|0:five_of_a_kind"}
    )

    assert response.status_code == 303
    assert response.headers["Location"] == f"/gry/{game_id}"
    page = text_of(table.client.get(f"/gry/{game_id}").get_data(as_text=True))
    assert (
        "Poprawiono ruch 1: Ala – Generał 50 (6-6-6-6-6) → Generał 0 (6-6-6-6-5). "
        "Zmieniły się też punkty: ruch 5 (Ala – Szóstki): 30 (+100) → 30." in page
    )
    assert stored(table.app, game_id)[0] > version
    sheet = table.client.get(f"/gry/{game_id}/tabela").get_data(as_text=True)
    log = sheet.split('class="log"', 1)[1]
    items = re.findall(r"<li[^>]*>.*?</li>", log, re.S)
    newest, oldest = text_of(items[0]), text_of(items[-1])
    assert re.match(
        r" ?1\. Ala – Generał 0 poprawka kolejka 1 · 6-6-6-6-5 · \d\d:\d\d Popraw ruch 1", newest
    )
    assert re.match(
        r" ?1\. Ala – Generał 50 poprawiony kolejka 1 · 6-6-6-6-6 · \d\d:\d\d, poprawiono o", oldest
    )
    assert "Popraw ruch" not in oldest  # a turn taken back is corrected no more
    # Every turn in force links its correction page.
    links = re.findall(r'href="/gry/\d+/ruchy/(\d+)/popraw"', sheet)
    assert sorted(map(int, links)) == [1, 2, 3, 4, 5, 6]


def test_a_correction_to_a_needless_zero_is_asked_first_as_a_turn_is(table: Table):
    """Turn 3 (2-2-3-3-4, Ful 0) moved to Jedynki with 6-6-6-5-3: 0 there, where Trzy
    jednakowe would give 26. Asked, as a turn is, with nothing written; „Tak, wpisz 0” writes
    it; a confirmation for other dice or another field than the question's is asked again."""
    game_id = played_game(table.app, table.account_id)
    before = rows(table.app, game_id)
    moved = {"dice": "66653", "where": "0:ones", "seq": "7"}

    asked = table.post(correction_url(game_id, 3), moved)

    assert asked.status_code == 200
    html = asked.get_data(as_text=True)
    question = re.search(r'<p class="confirm-question">([^<]*)</p>', html)
    assert question is not None
    assert question.group(1).startswith("Wpisać 0 w polu Jedynki? Najwięcej teraz: ")
    assert 'name="asked" value="66653|0:ones"' in html
    assert re.search(r'<input id="dice" name="dice" value="66653"', html)
    assert rows(table.app, game_id) == before
    # Confirmed for other dice than asked about: asked again.
    other = {**moved, "dice": "66654", "confirm": "1", "asked": "66653|0:ones"}
    assert "confirm-question" in table.post(correction_url(game_id, 3), other).get_data(
        as_text=True
    )
    assert rows(table.app, game_id) == before

    # The page's version is the game's as stored: asking wrote nothing, raised nothing.
    shown = re.search(r'name="version" value="(\d+)"', html)
    assert shown is not None
    assert int(shown.group(1)) == stored(table.app, game_id)[0]
    done = table.post(
        correction_url(game_id, 3),
        {**moved, "confirm": "1", "asked": "66653|0:ones", "version": shown.group(1)},
    )

    assert done.status_code == 303
    page = text_of(table.client.get(f"/gry/{game_id}").get_data(as_text=True))
    assert "→ Jedynki 0 (6-6-6-5-3)" in page


def test_a_correction_that_scores_or_has_nothing_better_is_not_asked(table: Table):
    game_id = played_game(table.app, table.account_id)

    scores = table.post(
        correction_url(game_id, 3), {"dice": "22333", "where": "0:full_house", "seq": "7"}
    )

    assert scores.status_code == 303  # Ful 25: no question


def test_a_refused_correction_shows_the_reason_next_to_the_field_and_keeps_the_dice(
    table: Table,
):
    game_id = played_game(table.app, table.account_id)
    before = rows(table.app, game_id)

    response = table.post(
        correction_url(game_id, 3), {"dice": "22333", "where": "0:sixes", "seq": "7"}
    )

    assert response.status_code == 409
    html = response.get_data(as_text=True)
    error = re.search(r'<p class="error" id="where-error">([^<]*)</p>', html)
    assert error is not None
    assert error.group(1) == (
        "Pole Szóstki jest zajęte przez późniejszy ruch nr 5: poprawka nie może go zabrać."
    )
    assert 'aria-invalid="true" aria-describedby="where-error"' in html
    assert re.search(r'<input id="dice" name="dice" value="22333"', html)
    assert rows(table.app, game_id) == before


def test_bad_dice_are_shown_next_to_the_dice(table: Table):
    game_id = played_game(table.app, table.account_id)
    response = table.post(
        correction_url(game_id, 3), {"dice": "2233", "where": "0:full_house", "seq": "7"}
    )
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert '<p class="error" id="dice-error">Potrzeba dokładnie pięciu kości, podano 4.</p>' in html
    assert 'value="2233"' in html


def test_a_stale_page_gets_the_game_as_it_is_now(table: Table):
    game_id = played_game(table.app, table.account_id)
    before = rows(table.app, game_id)

    response = table.post(
        correction_url(game_id, 3), {"dice": "22333", "where": "0:full_house", "seq": "6"}
    )

    assert response.status_code == 409
    html = response.get_data(as_text=True)
    assert re.search(r'<p class="error correction-error" role="alert">Stan gry zmienił się', html)
    assert 'name="seq" value="7"' in html  # sent again, it is written
    assert 'value="22333"' in html
    assert rows(table.app, game_id) == before


def test_two_phones_correcting_the_same_turn_the_second_is_told_and_writes_nothing(
    table: Table,
):
    """Both phones opened the correction page of turn 3; the first writes its correction. The
    second, sent from a page that showed the turn as it was, must not silently replace it: a
    409 with the turn as it is now, and what was typed kept."""
    game_id = played_game(table.app, table.account_id)
    page = table.client.get(correction_url(game_id, 3)).get_data(as_text=True)
    version = re.search(r'name="version" value="(\d+)"', page)
    assert version is not None
    seen = {"seq": "7", "version": version.group(1)}

    first = table.post(
        correction_url(game_id, 3), {"dice": "22333", "where": "0:full_house", **seen}
    )
    written = rows(table.app, game_id)
    second = table.post(
        correction_url(game_id, 3), {"dice": "22444", "where": "0:full_house", **seen}
    )

    assert first.status_code == 303
    assert second.status_code == 409
    html = second.get_data(as_text=True)
    assert re.search(r'<p class="error correction-error" role="alert">Stan gry zmienił się', html)
    assert "Zapisano: <strong>Ful 25 (2\u20112\u20113\u20113\u20113)</strong>" in html
    assert 'value="22444"' in html  # as typed
    assert f'name="version" value="{int(version.group(1)) + 1}"' in html  # sent again, written
    assert rows(table.app, game_id) == written


def test_the_correction_form_needs_its_csrf_token(table: Table):
    game_id = played_game(table.app, table.account_id)
    before = rows(table.app, game_id)

    response = table.client.post(
        correction_url(game_id, 3), data={"dice": "22333", "where": "0:full_house", "seq": "7"}
    )

    assert response.status_code == 400
    assert rows(table.app, game_id) == before


def test_another_accounts_game_is_a_404_on_the_pages(app: Flask, table: Table):
    other = new_account(app, "Nowakowie")
    game_id = played_game(app, other)
    before = rows(app, game_id)

    assert table.client.get(correction_url(game_id, 3)).status_code == 404
    response = table.post(
        correction_url(game_id, 3), {"dice": "22333", "where": "0:full_house", "seq": "7"}
    )
    assert response.status_code == 404
    assert rows(app, game_id) == before


def test_a_turn_not_in_force_has_no_correction_page(table: Table):
    game_id = played_game(table.app, table.account_id)
    assert table.client.get(correction_url(game_id, 7)).status_code == 404


def test_a_poker_hand_page_has_dice_only(table: Table):
    hands: list[tuple[str, str | None]] = [("55522", None), ("66221", None), ("33312", None)]
    game_id = played_game(table.app, table.account_id, hands, "poker")
    html = table.client.get(correction_url(game_id, 3)).get_data(as_text=True)
    assert "<select" not in html
    assert "Zapisano: <strong>Trzy jednakowe 3\u20113\u20113\u20112\u20111</strong>" in html

    assert "<h1>Popraw układ 3</h1>" in html
    assert re.search(
        r'href="/gry/\d+/ruchy/3/popraw">Popraw<span class="visually-hidden"> układ 3<',
        table.client.get(f"/gry/{game_id}/tabela").get_data(as_text=True),
    )

    response = table.post(correction_url(game_id, 2), {"dice": "66666", "seq": "4"})

    assert response.status_code == 409
    assert 'id="dice-error">Poprawka zmieniłaby wynik rozstrzygniętej rundy 1' in (
        response.get_data(as_text=True)
    )
    response = table.post(correction_url(game_id, 3), {"dice": "33311", "seq": "4"})
    assert response.status_code == 303
    page = text_of(table.client.get(f"/gry/{game_id}").get_data(as_text=True))
    assert "Poprawiono układ 3: Ala – Trzy jednakowe 3-3-3-2-1 → Ful 3-3-3-1-1." in page


def test_signed_out_the_correction_page_asks_to_sign_in(client: FlaskClient):
    response = client.get(correction_url(1, 1))
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/logowanie?next=")


# --- the API -------------------------------------------------------------------------------


@pytest.fixture
def api(app: Flask, client: FlaskClient) -> Api:
    return Api(client, account_with_token(app, "Kowalscy"))


def put(api: Api, url: str, body: Any):
    return api.client.put(
        url, data=json.dumps(body), content_type="application/json", headers=api.headers
    )


def api_game(api: Api) -> dict[str, Any]:
    game = api.new_game("standard", ["Ala", "Ola"])
    for dice, field in GENERALS:
        api.turn(game["id"], [int(d) for d in dice], field)
    return api.game(game["id"])


def test_put_a_turn_corrects_it_and_answers_the_game(api: Api):
    game = api_game(api)
    url = f"{GAMES}/{game['id']}/turns/3"

    response = put(api, url, {"dice": [2, 2, 3, 3, 3], "field": "full_house", "expected_seq": 7})

    assert response.status_code == 200, response.get_json()
    data = response.get_json()
    assert data["version"] > game["version"]
    assert data["turns"][2] == {
        "player": "Ala",
        "dice": [2, 2, 3, 3, 3],
        "field": "full_house",
        "column": 0,
        "points": 25,
        "extra_bonus": 0,
    }
    assert data["turns"][3:] == game["turns"][3:]
    assert data["players"][0]["total"] == game["players"][0]["total"] + 25
    assert data == api.game(game["id"])
    # The same PUT again changes nothing and says so with the game (a retry is harmless).
    again = put(api, url, {"dice": [2, 2, 3, 3, 3], "field": "full_house", "expected_seq": 7})
    assert (again.status_code, again.get_json()) == (200, data)


def test_a_put_from_a_stale_version_is_409_and_a_retry_stays_harmless(api: Api):
    """Two clients correct turn 3 from the same version of the game: the second is a 409, not
    a silent overwrite of the first; the first one sent again still answers the game."""
    game = api_game(api)
    url = f"{GAMES}/{game['id']}/turns/3"
    basis = {"field": "full_house", "expected_seq": 7, "expected_version": game["version"]}

    first = put(api, url, {"dice": [2, 2, 3, 3, 3], **basis})
    second = put(api, url, {"dice": [2, 2, 4, 4, 4], **basis})
    again = put(api, url, {"dice": [2, 2, 3, 3, 3], **basis})

    assert first.status_code == 200, first.get_json()
    assert second.status_code == 409, second.get_json()
    assert second.get_json()["error"].startswith("Stan gry zmienił się na innym telefonie.")
    assert second.get_json()["code"] == "game_changed"
    assert (again.status_code, again.get_json()) == (200, first.get_json())
    assert api.game(game["id"]) == first.get_json()
    assert api.game(game["id"])["turns"][2]["dice"] == [2, 2, 3, 3, 3]


@pytest.mark.parametrize(
    ("seq", "body", "status", "code"),
    [
        (3, {"dice": [2, 2, 3, 3, 3], "field": "sixes"}, 409, "field_taken_later"),
        (
            3,
            {"dice": [2, 2, 3, 3, 3], "field": "full_house", "expected_seq": 6},
            409,
            "game_changed",
        ),
        (9, {"dice": [2, 2, 3, 3, 3], "field": "full_house"}, 404, None),
        (3, {"dice": "22333", "field": "full_house"}, 400, None),
        (3, {"field": "full_house"}, 400, None),
        (3, {"dice": [2, 2, 3, 3, 3], "field": "full_house", "player": "Ala"}, 400, None),
        (3, {"dice": [2, 2, 3, 3, 3], "field": "full_house", "expected_seq": "7"}, 400, None),
        (3, {"dice": [2, 2, 3, 3, 3], "field": "full_house", "column": 1}, 400, None),
        (
            3,
            {"dice": [2, 2, 3, 3, 3], "field": "full_house", "expected_version": 0},
            409,
            "game_changed",
        ),
        (3, {"dice": [2, 2, 3, 3, 3], "field": "full_house", "expected_version": "1"}, 400, None),
        (3, {"dice": [2, 2, 3, 3, 3], "field": "full_house", "expected_version": -1}, 400, None),
    ],
    ids=[
        "a field a later turn wrote",
        "stale expected_seq",
        "no such turn",
        "dice as text",
        "no dice",
        "an unknown key",
        "expected_seq as text",
        "a column the table lacks",
        "stale expected_version",
        "expected_version as text",
        "a negative expected_version",
    ],
)
def test_put_a_turn_refuses_with_nothing_written(api: Api, seq, body, status, code):
    game = api_game(api)

    response = put(api, f"{GAMES}/{game['id']}/turns/{seq}", body)

    assert response.status_code == status, response.get_json()
    assert response.get_json()["error"]
    if code is not None:
        assert response.get_json()["code"] == code
    assert api.game(game["id"]) == game


def test_put_a_turn_of_another_account_is_a_404(app: Flask, api: Api, client: FlaskClient):
    game = api_game(api)
    stranger = Api(client, account_with_token(app, "Nowakowie"))

    response = put(stranger, f"{GAMES}/{game['id']}/turns/3", {"dice": [2, 2, 3, 3, 3]})

    assert response.status_code == 404
    assert api.game(game["id"]) == game
    unsigned = client.put(f"{GAMES}/{game['id']}/turns/3", json={"dice": [2, 2, 3, 3, 3]})
    assert unsigned.status_code == 401


def test_the_rules_page_says_when_a_turn_may_be_corrected(client: FlaskClient):
    html = client.get("/zasady").get_data(as_text=True)
    section = text_of(
        html.split('<section aria-labelledby="poprawka">', 1)[1].split("</section>")[0]
    )
    assert "Nasz wybór: poprawka wcześniejszego ruchu jest dozwolona, gdy:" in section
    assert "każdy późniejszy ruch zostaje w swoim polu i kolumnie i nadal jest dozwolony" in section
    assert "premia +100 za kolejnego generała" in section
    assert "nie zmienia wyniku żadnej rozstrzygniętej rundy" in section
    assert 'href="#poprawka"' in html


# --- export and import -------------------------------------------------------------------


def game_log(app: Flask, account_id: int) -> list[tuple[Any, ...]]:
    """Every turn of the account's game as written: what an import must bring along."""
    with app.app_context():
        (game_id,) = db.session.scalars(select(Game.id).where(Game.account_id == account_id)).all()
        view = games.load(account_id, game_id)
        log = [(t.seq, t.dice, t.field, t.points, t.extra_bonus, t.undone_at) for t in view.log]
        return [*log, view.state.scores, corrections.corrected_turn_ids(view.log)[0] != set()]


@pytest.mark.parametrize(
    ("seq", "dice", "field"),
    [(3, "22333", "full_house"), (1, "66665", "five_of_a_kind"), (6, "23451", "small_straight")],
    ids=["a dice typo", "a Generał whose +100 later goes", "the last turn"],
)
def test_a_corrected_game_is_exported_and_imported_as_it_is(app: Flask, seq, dice, field):
    """The import reads the log in the order it was written: a correction there is a turn taken
    back while later ones stayed, and the later points it rewrote are the rules' points."""
    source = new_account(app, "Kowalscy")
    target = new_account(app, "Nowakowie")
    played_game(app, source)
    with app.app_context():
        game_id = db.session.scalars(select(Game.id)).one()
        corrections.correct_turn(source, game_id, seq, dice, field, 0)
        corrections.correct_turn(source, game_id, 3, "22335", "chance", 0)  # and another one
        document = transfer.export_account(source)
        result = transfer.import_account(target, document)
    assert result.games == 1
    assert game_log(app, target) == game_log(app, source)


def test_an_import_refuses_a_correction_the_rules_refuse(app: Flask):
    """A file whose correction would take a field a later turn wrote is not a game that was
    played: refused, said where."""
    source = new_account(app, "Kowalscy")
    target = new_account(app, "Nowakowie")
    played_game(app, source)
    with app.app_context():
        game_id = db.session.scalars(select(Game.id)).one()
        corrections.correct_turn(source, game_id, 3, "22333", "full_house", 0)
        document = transfer.export_account(source)
        turns = document["games"][0]["turns"]
        assert turns[-1]["seq"] == 3
        turns[-1]["field"] = "sixes"
        with pytest.raises(games.InvalidInput, match="ruch nr 3 .*ruch nr 5"):
            transfer.import_account(target, document)


def test_a_triple_turn_may_move_to_another_column_on_the_page(table: Table):
    turns: list[tuple[str, str | None]] = [("66666", "five_of_a_kind"), ("12345", "chance")]
    game_id = played_game(table.app, table.account_id, turns, "triple", ("Ala",))
    html = table.client.get(correction_url(game_id, 2)).get_data(as_text=True)
    assert re.findall(r'<optgroup label="([^"]+)">', html) == [
        "Kolumna ×1",
        "Kolumna ×2",
        "Kolumna ×3",
    ]
    assert re.search(r'<option value="0:chance" selected>\s*Szansa ×1 \(teraz\)', html)

    response = table.post(
        correction_url(game_id, 2), {"dice": "12345", "where": "2:large_straight", "seq": "3"}
    )

    assert response.status_code == 303
    assert rows(table.app, game_id)[-1] == (2, "12345", "large_straight", 40, 0, True)
    with table.app.app_context():
        assert games.load(table.account_id, game_id).turns[1].column == 2


def test_gra_po_kolei_offers_only_the_turns_own_field(table: Table):
    turns: list[tuple[str, str | None]] = [("11123", "ones"), ("22245", "twos")]
    game_id = played_game(table.app, table.account_id, turns, "ordered", ("Ala",))
    html = table.client.get(correction_url(game_id, 2)).get_data(as_text=True)
    assert re.findall(r'<option value="([^"]+)"', html) == ["0:twos"]
    assert "W grze po kolei ruch zostaje w swoim polu" in html
