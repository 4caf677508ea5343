"""„Podpowiedzi”, the hint (issue 11, point 5): an option agreed when a game starts, stored with
the game, and on its turn screen the best field for the dice entered (tracker.advisor) with each
field's expected final total on request. Off by default; never shown, nor computed, without it;
not for dice poker."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from tracker import advisor
from tracker.extensions import db
from tracker.models import Game
from tracker.rules import TABLE_VARIANTS, parse_dice
from tracker.rules.sheet import empty_sheet

from .test_api_games import GAMES, Api, account_with_token, bad_request
from .test_game_pages import FULL_SHEET, Table, sign_up, text_of

pytestmark = pytest.mark.one_backend(
    "the hint comes from the advisor's tables; the game stores it as one column,"
    " written by the services that run on both elsewhere"
)

BADGE = re.compile(r'value="(\w+)"[^>]*data-hint-best')  # a field button the hint marks


@pytest.fixture
def table(app: Flask, client: FlaskClient) -> Table:
    assert sign_up(client, "Kowalscy").status_code == 302
    return Table(app, client, "Kowalscy")


@pytest.fixture
def api(app: Flask, client: FlaskClient) -> Api:
    return Api(client, account_with_token(app, "Nowakowie"))


def stored_hints(app: Flask, game_id: int) -> bool:
    with app.app_context():
        value = db.session.scalar(select(Game.hints).where(Game.id == game_id))
    assert value is not None
    return value


def turn_page(table: Table, game_id: int, dice: str, *, fragment: bool = False) -> str:
    """The turn screen with these dice pencilled in (as the dice form sends them), or only the
    fields, as turn.js asks for them after the fifth die."""
    seq = table.view(game_id).next_seq
    extra = "&fragment=fields" if fragment else ""
    response = table.client.get(f"/gry/{game_id}?dice={dice}&seq={seq}{extra}")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def marked(html: str) -> list[str]:
    return BADGE.findall(html)


def expected_list(html: str) -> list[tuple[str, str]]:
    """(field name, expected total) as the „Pokaż oczekiwane punkty” list shows them."""
    hint = html.split("data-hint>", 1)[1].split("</details>", 1)[0]
    return re.findall(
        r'<th scope="row" class="hint-name">([^<]+)</th>\s*<td class="hint-expected">([^<]+)</td>',
        hint,
    )


def forbid_the_advisor(monkeypatch: pytest.MonkeyPatch) -> None:
    def advise(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the advisor was asked in a game without „Podpowiedzi”")

    monkeypatch.setattr(advisor, "advise", advise)


# --- starting a game -----------------------------------------------------------------------


def test_the_new_game_form_offers_the_hint_off_by_default(table: Table):
    html = table.client.get("/gry/nowa").get_data(as_text=True)

    box = re.search(r'<input[^>]*name="hints"[^>]*>', html)
    assert box is not None
    assert 'type="checkbox"' in box.group(0)
    assert "checked" not in box.group(0)
    assert "Podpowiedzi (najlepsze pole według optymalnej gry)" in html
    assert 'id="hints-hint"' in html  # the one-line explanation, read with the box
    # Dice poker has no field to choose: the box goes with the poker card (no script needed).
    css = (Path(table.app.static_folder or "") / "css" / "app.css").read_text(encoding="utf-8")
    assert ".new-game:has(#variant-poker:checked) [data-hints-option] { display: none; }" in css


def test_the_hint_chosen_on_the_form_is_stored_with_the_game(app: Flask, table: Table):
    with_hints = table.new_game(["Ala", "Ola"], hints="y")
    without = table.new_game(["Ala", "Ola"])

    assert stored_hints(app, with_hints) is True
    assert stored_hints(app, without) is False
    assert table.view(with_hints).game.hints is True


def test_a_hint_box_left_ticked_for_dice_poker_is_ignored(app: Flask, table: Table):
    game_id = table.new_game(["Ala", "Ola"], "poker", target_wins="3", hints="y")

    assert stored_hints(app, game_id) is False
    html = table.client.get(f"/gry/{game_id}").get_data(as_text=True)
    assert "Podpowiedzi" not in html


def test_the_rematch_keeps_the_hint(app: Flask, table: Table):
    hinted = table.new_game(["Ala"], hints="y")
    plain = table.new_game(["Ala"])
    for game_id in (hinted, plain):
        table.play_through(game_id, [FULL_SHEET])

    rematches = []
    for game_id in (hinted, plain):
        response = table.post(f"/gry/{game_id}/rewanz")
        assert response.status_code == 303
        rematches.append(int(response.headers["Location"].rsplit("/", 1)[1]))

    assert [stored_hints(app, g) for g in rematches] == [True, False]


# --- the JSON API ----------------------------------------------------------------------------


def test_the_api_creates_a_game_with_the_hint_and_reports_it(api: Api):
    game = api.post(GAMES, {"variant": "standard", "players": ["Ala"], "hints": True})

    assert game.status_code == 201
    assert game.get_json()["hints"] is True
    assert api.game(game.get_json()["id"])["hints"] is True
    off = api.post(GAMES, {"variant": "ordered", "players": ["Ala"], "hints": False})
    assert off.get_json()["hints"] is False
    assert api.new_game("triple", ["Ala"])["hints"] is False  # off by default


@pytest.mark.parametrize("value", ["true", 1, 0, None, "tak", [True], {}], ids=repr)
def test_the_api_takes_only_true_or_false_for_the_hint(api: Api, value: object):
    before = len(api.get(GAMES).get_json()["games"])

    message = bad_request(
        api.post(GAMES, {"variant": "standard", "players": ["Ala"], "hints": value})
    )

    assert message == "Pole hints musi mieć wartość true albo false."
    assert len(api.get(GAMES).get_json()["games"]) == before


def test_the_api_refuses_the_hint_for_dice_poker(api: Api):
    body = {"variant": "poker", "players": ["Ala", "Ola"], "hints": True}

    refused = api.post(GAMES, body)

    assert "Podpowiedzi są tylko w grach z tabelą" in bad_request(refused)
    assert refused.get_json()["code"] == "no_hints_in_poker"
    assert api.get(GAMES).get_json()["games"] == []
    poker = api.post(GAMES, {**body, "hints": False})
    assert poker.status_code == 201
    assert poker.get_json()["hints"] is False


# --- the turn screen -------------------------------------------------------------------------


def test_a_large_straight_on_an_empty_standard_sheet_marks_duzy_strit(table: Table):
    game_id = table.new_game(["Ala", "Ola"], hints="y")

    for html in (
        turn_page(table, game_id, "12345"),
        turn_page(table, game_id, "12345", fragment=True),
    ):
        assert marked(html) == ["large_straight"]
        text = text_of(html)
        assert "najlepsze" in text
        assert "Pokaż oczekiwane punkty" in text
        shown = expected_list(html)
        # Every field the roll may go to, best first, one decimal with a decimal comma: the
        # published 254,59 of an empty sheet; 261,5 after a large straight.
        assert len(shown) == 13
        assert shown[0] == ("Duży strit", "261,5")
        assert all(re.fullmatch(r"\d+,\d", value) for _, value in shown)
        assert "Przed tym rzutem: 254,6." in text
    page = text_of(turn_page(table, game_id, "12345"))
    assert "Podpowiedzi włączone" in page


def test_every_phone_sees_that_the_game_has_the_hint_even_before_the_dice(table: Table):
    game_id = table.new_game(["Ala", "Ola"], hints="y")

    html = table.client.get(f"/gry/{game_id}").get_data(as_text=True)

    assert "Podpowiedzi włączone" in text_of(html)
    assert marked(html) == []  # nothing to mark without dice


def test_fields_equally_good_are_all_marked(table: Table, monkeypatch: pytest.MonkeyPatch):
    """Differences under 0.05 expected points count as equal (advisor.EQUAL_WITHIN)."""
    game_id = table.new_game(["Ala"], hints="y")
    real = advisor.advise

    def close_call(*args: Any, **kwargs: Any) -> advisor.Advice:
        advice = real(*args, **kwargs)
        first, *rest = advice.moves
        tie = rest[0]._replace(expected=first.expected - 0.04, loss=0.04)
        return advisor.Advice(
            advice.variant, advice.exact, advice.expected, (first, tie, *rest[1:])
        )

    monkeypatch.setattr(advisor, "advise", close_call)

    html = turn_page(table, game_id, "12345")

    assert marked(html) == ["small_straight", "large_straight"]  # in table order on the screen


def test_without_the_option_nothing_shows_and_the_advisor_is_not_asked(
    table: Table, monkeypatch: pytest.MonkeyPatch
):
    forbid_the_advisor(monkeypatch)
    for variant, extra in (
        ("standard", {}),
        ("ordered", {"bonus_threshold": "42"}),
        ("triple", {}),
    ):
        game_id = table.new_game(["Ala", "Ola"], variant, **extra)
        for fragment in (False, True):
            html = turn_page(table, game_id, "11123", fragment=fragment)
            assert 'name="field"' in html  # the pencil marks are there
            assert "data-hint" not in html
            assert "hint-badge" not in html
            assert "Pokaż oczekiwane punkty" not in html
            assert "Podpowiedzi" not in html
        # Writing the turn and the next screen do not ask it either.
        assert table.write(game_id, "11123", "ones").status_code == 303
        assert "Podpowiedzi" not in table.client.get(f"/gry/{game_id}").get_data(as_text=True)


def test_ordered_marks_the_one_field_it_allows(table: Table):
    game_id = table.new_game(["Ala"], "ordered", bonus_threshold="42", hints="y")
    variant = TABLE_VARIANTS["ordered"]
    options = table.view(game_id).options
    best = advisor.advise(variant, empty_sheet(variant), parse_dice("11123"), options)

    html = turn_page(table, game_id, "11123")

    assert marked(html) == ["ones"]
    ((name, value),) = expected_list(html)
    assert name == "Jedynki"
    assert value == f"{best.moves[0].expected:.1f}".replace(".", ",")


def test_triple_marks_the_best_cell_and_says_its_figures_are_approximate(table: Table):
    game_id = table.new_game(["Ala", "Ola"], "triple", hints="y")
    variant = TABLE_VARIANTS["triple"]
    advice = advisor.advise(variant, empty_sheet(variant), parse_dice("33322"), None)
    best = [(m.field, m.column) for m in advice.moves if m.best]

    html = turn_page(table, game_id, "33322")

    cells = re.findall(r'form="w(\d)" name="field" value="(\w+)"[^>]*data-hint-best', html)
    assert sorted((field, int(column)) for column, field in cells) == sorted(best)
    shown = expected_list(html)
    assert len(shown) == len(advice.moves)
    assert all(value.startswith("≈") for _, value in shown)
    assert "w przybliżeniu" in text_of(html)
