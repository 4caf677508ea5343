"""The review of a game: `GET /api/v1/games/<id>/review` (bearer token) and the page
`/gry/<id>/przeglad`, for games played through the services. Each turn's choice against optimal
solitaire play (the advisor's tables), the sums, accounts kept apart (404), dice poker refused,
guests of the game let in like on its other pages, and the links to the page."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from tracker.advisor import MoveAdvice
from tracker.extensions import db
from tracker.games import review as review_page
from tracker.models import Account
from tracker.rules import TABLE_VARIANTS
from tracker.services import accounts, games, reviews

from .test_accounts import sign_up

pytestmark = pytest.mark.one_backend(
    "the review is computed from a game's turns in memory; stored reviews are test_skill's, on both"
)

EMPTY_STANDARD = 254.59
STANDARD = TABLE_VARIANTS["standard"]
# Ala and Ola, a standard game: 13 turns each, every one worth points. Ala's first roll is a
# straight she writes as a small one (the large straight is worth ~14.98 expected points more);
# Ola's first is the same straight, written as the large one.
ALA = [
    ("12345", "small_straight"),
    ("11123", "ones"),
    ("22234", "twos"),
    ("33345", "threes"),
    ("44456", "fours"),
    ("55561", "fives"),
    ("66612", "sixes"),
    ("44412", "three_of_a_kind"),
    ("55551", "four_of_a_kind"),
    ("22333", "full_house"),
    ("23456", "large_straight"),
    ("11111", "five_of_a_kind"),
    ("65433", "chance"),
]
OLA = [("12345", "large_straight"), *(turn for turn in ALA[1:] if turn[1] != "large_straight")]
OLA.insert(9, ("12346", "small_straight"))


@dataclass
class Family:
    app: Flask
    browser: FlaskClient  # signed in
    account_id: int
    token: str

    @property
    def api(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def game(self, variant: str = "standard", names: tuple[str, ...] = ("Ala", "Ola"), **options):
        with self.app.app_context():
            return games.create_game(self.account_id, variant, list(names), options or None).id

    def play(self, game_id: int, *per_seat: list[tuple[str, str]], rounds: int = 13) -> None:
        with self.app.app_context():
            for round_turns in list(zip(*per_seat, strict=True))[:rounds]:
                for dice, field_id in round_turns:
                    games.record_turn(self.account_id, game_id, dice, field_id, 0)

    def review(self, game_id: int, status: int = 200) -> dict[str, Any]:
        response = self.browser.get(f"/api/v1/games/{game_id}/review", headers=self.api)
        assert response.status_code == status, response.get_json()
        return response.get_json()

    def page(self, game_id: int, status: int = 200) -> str:
        response = self.browser.get(f"/gry/{game_id}/przeglad")
        assert response.status_code == status
        return response.get_data(as_text=True)


def new_family(app: Flask, client: FlaskClient, name: str = "Kowalscy") -> Family:
    assert sign_up(client, name).status_code == 302
    with app.app_context():
        account_id = db.session.scalar(select(Account.id).where(Account.name == name))
        _, token = accounts.create_token(account_id, "tests")
    return Family(app, client, account_id, token)


@pytest.fixture
def family(app: Flask, client: FlaskClient) -> Family:
    return new_family(app, client)


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def row_of(html: str, seat_anchor: str, seq: int) -> str:
    """The table row of turn `seq` in one player's section of the page."""
    section = html.split(f'id="{seat_anchor}"', 1)[1].split("</section>", 1)[0]
    match = re.search(rf'<tr[^>]*data-seq="{seq}"[^>]*>(.*?)</tr>', section, re.S)
    assert match, f"no row for turn {seq}"
    return match.group(0)


# --- the API -------------------------------------------------------------------------------


def test_the_review_of_a_finished_game(family: Family):
    game_id = family.game()
    family.play(game_id, ALA, OLA)

    data = family.review(game_id)

    assert data["id"] == game_id
    assert data["variant"] == "standard"
    assert data["exact"] is True
    assert data["finished"] is True
    ala, ola = data["players"]
    assert (ala["name"], ola["name"]) == ("Ala", "Ola")
    assert ala["expected_start"] == ola["expected_start"] == EMPTY_STANDARD
    first = ala["turns"][0]
    assert first["seq"] == 1
    assert first["dice"] == [1, 2, 3, 4, 5]
    assert (first["field"], first["column"]) == ("small_straight", 0)
    assert first["best"] == [{"column": 0, "field": "large_straight"}]
    assert first["loss"] == pytest.approx(14.98, abs=0.01)
    assert first["expected_before"] == EMPTY_STANDARD
    assert first["expected_after"] == pytest.approx(
        EMPTY_STANDARD + first["luck"] - 14.98, abs=0.02
    )
    assert first["luck"] == pytest.approx(261.53 - EMPTY_STANDARD, abs=0.01)
    assert first["total"] == 30
    ola_first = ola["turns"][0]
    assert ola_first["seq"] == 2  # the game's own turn numbers
    assert ola_first["field"] == "large_straight"
    assert ola_first["loss"] == 0.0
    assert [t["seq"] for t in ala["turns"]] == list(range(1, 27, 2))


def test_a_full_sheets_total_is_its_start_plus_luck_minus_what_the_choices_gave(family: Family):
    game_id = family.game()
    family.play(game_id, ALA, OLA)

    for player in family.review(game_id)["players"]:
        turns = player["turns"]
        assert len(turns) == 13
        assert player["total"] == turns[-1]["total"] == turns[-1]["expected_after"]
        assert player["total"] == pytest.approx(
            player["expected_start"] + player["luck"] - player["loss"], abs=0.03
        )
        assert player["loss"] == pytest.approx(sum(t["loss"] for t in turns), abs=0.06)
        assert player["loss_per_turn"] == pytest.approx(player["loss"] / 13, abs=0.01)
        assert all(t["loss"] >= 0 for t in turns)
        # a choice counted as the best has no loss; a turn with a loss chose none of the best
        for t in turns:
            chosen = {"column": t["column"], "field": t["field"]}
            assert (chosen in t["best"]) == (t["loss"] == 0)


def test_an_unfinished_game_reviews_the_turns_so_far(family: Family):
    game_id = family.game()
    family.play(game_id, ALA, OLA, rounds=3)

    data = family.review(game_id)

    assert data["finished"] is False
    assert [len(p["turns"]) for p in data["players"]] == [3, 3]


def test_the_page_follows_the_game_like_its_other_screens(family: Family):
    """live.js polls the game's state with the page's ETag: a turn written on another phone
    brings the review up to date without a reload."""
    game_id = family.game()
    family.play(game_id, ALA, OLA, rounds=1)
    before = family.page(game_id)
    state = family.browser.get(f"/gry/{game_id}/stan")
    etag = state.headers["ETag"].strip('"')

    assert f'name="kosci-live" content="/gry/{game_id}/stan" data-etag="{etag}"' in before
    family.play(game_id, ALA[1:], OLA[1:], rounds=1)
    after = family.page(game_id)
    assert f'data-etag="{etag}"' not in after  # the version moved on with the turns


def test_a_game_without_turns_reviews_fine(family: Family):
    game_id = family.game(names=("Ala",))

    (ala,) = family.review(game_id)["players"]

    assert ala == {
        "name": "Ala",
        "exact": True,
        "expected_start": EMPTY_STANDARD,
        "total": 0,
        "loss": 0.0,
        "loss_per_turn": 0.0,
        "luck": 0.0,
        "turns": [],
    }


def test_ordered_with_threshold_42_is_reviewed_with_its_table(family: Family):
    game_id = family.game("ordered", ("Ala",), bonus_threshold=42)
    with family.app.app_context():
        games.record_turn(family.account_id, game_id, "11123", "ones", 0)

    data = family.review(game_id)

    assert data["options"] == {"bonus_threshold": 42}
    (ala,) = data["players"]
    assert ala["expected_start"] == pytest.approx(149.65, abs=0.01)
    assert ala["turns"][0]["best"] == [{"column": 0, "field": "ones"}]  # the only move
    assert ala["turns"][0]["loss"] == 0.0


def test_another_accounts_game_is_a_404_like_a_missing_one(
    app: Flask, client: FlaskClient, family: Family
):
    game_id = family.game()
    other = new_family(app, app.test_client(), "Nowakowie")

    assert "error" in other.review(game_id, status=404)
    assert "error" in other.review(game_id + 100, status=404)
    other.page(game_id, status=404)


def test_without_a_token_the_api_is_a_401(family: Family):
    game_id = family.game()

    response = family.app.test_client().get(f"/api/v1/games/{game_id}/review")

    assert response.status_code == 401


def test_dice_poker_has_no_review(family: Family):
    game_id = family.game("poker")

    data = family.review(game_id, status=409)

    assert data["code"] == "no_table_in_poker"
    family.page(game_id, status=404)
    with family.app.app_context(), pytest.raises(reviews.NoReviewInPoker):
        reviews.review_of(family.account_id, game_id)


def test_a_corrected_turn_changes_the_review_at_once(family: Family):
    """Nothing is stored: the review is derived from the turns in force."""
    game_id = family.game(names=("Ala",))
    family.play(game_id, ALA, rounds=1)
    assert family.review(game_id)["players"][0]["turns"][0]["loss"] > 0

    with family.app.app_context():
        games.undo_last_turn(family.account_id, game_id)
        games.record_turn(family.account_id, game_id, "12345", "large_straight", 0)

    assert family.review(game_id)["players"][0]["turns"][0]["loss"] == 0.0


# --- the page ------------------------------------------------------------------------------


def test_the_page_shows_each_players_turns_best_fields_and_chart(family: Family):
    game_id = family.game()
    family.play(game_id, ALA, OLA)

    html = family.page(game_id)
    words = text_of(html)

    assert "Przegląd gry" in words
    ala_first = row_of(html, "gracz-1", 1)
    assert "1-2-3-4-5" in ala_first
    assert "Mały strit 30" in ala_first
    assert re.search(r"data-best>\s*Duży strit 40\s*<", ala_first)
    assert "15,0" in ala_first  # 14.98 expected points, one decimal, a Polish comma
    ola_first = row_of(html, "gracz-2", 2)
    assert 'class="is-best"' in ola_first
    assert "najlepszy wybór" in ola_first
    # The sums, and a chart per player: the expected line and the real total, inline SVG.
    assert "Oddane oczekiwane punkty" in words
    assert "Szczęście" in words
    assert "254,6" in words
    assert html.count("<svg") == 2
    assert html.count('data-series="expected"') == html.count('data-series="total"') == 2
    assert "<script" not in html.split("<main", 1)[1]  # the chart needs no script
    # Careful words: expected points given away, never an error.
    assert "błąd" not in words.lower()
    assert "najwięcej punktów średnio" in words  # what "optimal" means
    assert "≈" not in words  # standard is exact


def test_the_chart_spans_the_whole_game_and_ends_at_the_real_total(family: Family):
    game_id = family.game(names=("Ala",))
    family.play(game_id, ALA)

    html = family.page(game_id)

    points = re.search(r'<polyline class="chart-line" points="([^"]+)"', html)
    totals = re.search(r'<polyline class="review-line-total" points="([^"]+)"', html)
    assert points
    assert totals
    expected_line = points.group(1).split()
    total_line = totals.group(1).split()
    assert len(expected_line) == len(total_line) == 14  # the empty sheet and 13 turns
    assert expected_line[-1] == total_line[-1]  # a full sheet expects exactly its total
    assert expected_line[0] != total_line[0]  # 254.6 expected at the start, 0 points


def test_a_game_without_turns_has_a_page_without_charts(family: Family):
    game_id = family.game()

    html = family.page(game_id)

    assert "Jeszcze bez ruchów" in html
    assert "<svg" not in html.split("<main", 1)[1]


def test_triple_marks_every_expected_figure_approximate(family: Family):
    game_id = family.game("triple", ("Ala",))
    with family.app.app_context():
        games.record_turn(family.account_id, game_id, "66666", "five_of_a_kind", 2)

    html = family.page(game_id)
    words = text_of(html)

    assert "Kości potrójne są wyceniane w przybliżeniu" in words
    row = row_of(html, "gracz-1", 1)
    assert "Generał ×3: 150\u00a0(50\u00a0×\u00a03)" in row
    tiles = html.split('class="tiles review-tiles"', 1)[1].split("</dl>", 1)[0]
    assert re.search(r"data-loss>≈", tiles)
    assert re.search(r"data-luck>≈", tiles)
    assert family.review(game_id)["exact"] is False


def test_signed_out_the_page_asks_to_sign_in(family: Family):
    game_id = family.game()

    response = family.app.test_client().get(f"/gry/{game_id}/przeglad")

    assert response.status_code == 302
    assert "/logowanie" in response.headers["Location"]


def test_the_finished_screen_and_the_sheet_link_to_the_review(family: Family):
    game_id = family.game(names=("Ala",))
    family.play(game_id, ALA, rounds=2)
    link = f'href="/gry/{game_id}/przeglad"'

    assert link in family.browser.get(f"/gry/{game_id}/tabela").get_data(as_text=True)
    with family.app.app_context():
        for dice, field_id in ALA[2:]:
            games.record_turn(family.account_id, game_id, dice, field_id, 0)
    finished = family.browser.get(f"/gry/{game_id}").get_data(as_text=True)
    assert "Koniec gry" in finished
    assert link in finished
    assert "Przegląd gry" in text_of(finished)


def test_a_guest_of_the_game_may_read_its_review_and_no_other(app: Flask, family: Family):
    game_id = family.game()
    other_id = family.game()
    family.play(game_id, ALA, OLA, rounds=2)
    invited = family.browser.post(
        f"/api/v1/games/{game_id}/invitations", json={"mode": "watch"}, headers=family.api
    )
    assert invited.status_code == 201
    phone = app.test_client()
    joined = phone.get(invited.get_json()["url"].removeprefix("http://localhost"))
    assert joined.status_code == 303

    assert phone.get(f"/gry/{game_id}/przeglad").status_code == 200
    assert phone.get(f"/gry/{other_id}/przeglad").status_code == 404
    assert phone.get(f"/api/v1/games/{game_id}/review").status_code == 404  # the API: tokens only


# --- how the page says it ------------------------------------------------------------------


def _move(field_id: str, points: int, expected: float, loss: float = 0.0) -> MoveAdvice:
    return MoveAdvice(0, field_id, field_id, points, 0, expected, loss)


def _turn(field_id: str, points: int, best: tuple[MoveAdvice, ...], loss: float):
    return reviews.ReviewedTurn(
        seq=5, number=3, dice=(2, 2, 3, 3, 3), field=field_id, column=0, points=points,
        expected_before=200.0, expected_after=210.0, best=best, loss=loss, luck=1.0, total=40,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("chosen", "points", "loss", "note", "shown", "loss_text"),
    [
        pytest.param("full_house", 25, 0.0, None, "", "", id="the one best field"),
        pytest.param("full_house", 25, 0.0, "równie dobre:", "Szansa 13", "", id="one of two"),
        pytest.param("threes", 9, 3.26, "najlepsze:", "Ful 25, Szansa 13", "3,3", id="not best"),
    ],
)
def test_a_turns_row_names_the_best_fields_it_did_not_choose(
    chosen: str, points: int, loss: float, note: str | None, shown: str, loss_text: str
):
    full_house = _move("full_house", 25, 210.0)
    chance = _move("chance", 13, 209.98, 0.02)
    best = (full_house,) if note is None else (full_house, chance)

    line = review_page.turn_line(STANDARD, _turn(chosen, points, best, loss), exact=True)

    assert (line.best_note, line.best_shown, line.loss) == (note, shown, loss_text)
    assert line.chose_best is (loss == 0)
    assert line.dice == "2-2-3-3-3"


@pytest.mark.parametrize(
    ("value", "exact", "as_decimal", "as_signed"),
    [
        (254.588, True, "254,6", "+254,6"),
        (-3.71, True, "−3,7", "−3,7"),
        (-0.04, True, "0,0", "0,0"),  # no „−0,0”
        (0.05, True, "0,1", "+0,1"),
        (1419.44, False, "≈1419,4", "≈+1419,4"),
    ],
)
def test_numbers_have_one_decimal_a_polish_comma_and_approximate_marks(
    value: float, exact: bool, as_decimal: str, as_signed: str
):
    assert review_page.decimal(value, exact=exact) == as_decimal
    assert review_page.signed(value, exact=exact) == as_signed


def test_ordered_review_shows_no_points_given_away_beside_the_luck(family: Family):
    """What the rules page says of Gra po kolei: no field is chosen, so each move is the best
    choice and the review shows 0 given away, beside the luck."""
    game_id = family.game("ordered", ("Ala",))
    family.play(game_id, [("11123", "ones"), ("22256", "twos")], rounds=2)

    html = family.page(game_id)

    tiles = html.split('class="tiles review-tiles"', 1)[1].split("</dl>", 1)[0]
    assert re.search(r"data-loss>0,0<", tiles)
    assert re.search(r"data-luck>[+−]?\d", tiles)
    assert "Najlepszy wybór w 2 z 2 ruchów" in text_of(html)


def test_triple_says_what_a_choice_counts_in_its_column(family: Family):
    """DECISIONS.md: each column is totalled, then multiplied: 17 written in Szansa ×2 counts 34.
    A row says so ("Szansa ×2: 34 (17 × 2)"), not "Szansa ×2 17", which hides the doubling
    beside a best field in another column; the best fields are said the same way."""
    game_id = family.game("triple", ("Ala",))
    with family.app.app_context():
        games.record_turn(family.account_id, game_id, "35621", "chance", 1)
        games.record_turn(family.account_id, game_id, "11234", "ones", 0)

    html = family.page(game_id)

    chance = row_of(html, "gracz-1", 1)
    assert "Szansa ×2: 34\u00a0(17\u00a0×\u00a02)" in chance  # one figure, never broken
    assert not re.search(r"×[23] \d", text_of(chance)), text_of(chance)
    ones = row_of(html, "gracz-1", 2)
    assert "Jedynki ×1: 2" in ones
    assert not re.search(r"×[123] \d", text_of(ones)), text_of(ones)


def test_a_row_counts_the_extra_generals_bonus_the_turn_earned(family: Family):
    """A Generał rolled while Generał holds 50 earns +100 where it is written (DECISIONS.md).
    The turn log says „Szansa 30 (+100)”; the review's row says the same, not a bare
    „Szansa 30” that leaves 100 of the turn's points out. In Kości potrójne the bonus is
    multiplied with its column: (40 + 100) × 3 = 420."""
    game_id = family.game("standard", ("Ala",))
    family.play(game_id, [("66666", "five_of_a_kind"), ("66666", "chance")], rounds=2)

    chance = row_of(family.page(game_id), "gracz-1", 2)
    assert "Szansa 30 (+100)" in text_of(chance), text_of(chance)

    game_id = family.game("triple", ("Ala",))
    turns = [("66666", "five_of_a_kind", 0), ("66666", "five_of_a_kind", 1)]
    turns += [("66666", "five_of_a_kind", 2), ("66612", "sixes", 0), ("66612", "sixes", 1)]
    turns += [("66612", "sixes", 2), ("66666", "large_straight", 2)]
    with family.app.app_context():
        for dice, field_id, column in turns:
            games.record_turn(family.account_id, game_id, dice, field_id, column)

    straight = row_of(family.page(game_id), "gracz-1", 7)
    assert "Duży strit ×3: 420\u00a0((40\u00a0+\u00a0100)\u00a0×\u00a03)" in straight, straight
