"""Who plays best: the seat reviews stored when a table game ends (`tracker.services.skill`),
kept in step with undo and corrections, recomputed by `flask --app tracker advisor recompute`,
and shown by the statistics pages and the API („Kto gra najlepiej”).

Games are played turn by turn through the services with fixed dice. The sheets (13 turns on
the Polish table, one player each) differ in one choice:

- `best`: every turn the best field (0 expected points given away), 308 points;
- `careless`: 66666 written in Szansa while Generał is free, 65432 crossed out in Generał;
- `swapped`: 44456 in Szóstki and 66612 in the three of a kind.

The expected figures are the advisor's own judgement of the same turns (`review_seat`): what
these tests check is that the game end stores exactly that, and that the statistics add it up
per player and variant, for the right account and games.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select, update
from stats_builders import new_account, play_table_game, standard_sheet, triple_sheet

from tracker import advisor, rules
from tracker.extensions import db
from tracker.models import Account, Game, SeatReview
from tracker.services import accounts, corrections, games, players, skill, stats
from tracker.stats.charts import count, decimal, signed
from tracker.store import skill as skill_store

from .test_game_pages import sign_up, text_of

STANDARD = rules.TABLE_VARIANTS["standard"]
Turns = list[tuple[str, str]]


def careless() -> Turns:
    sheet = [t for t in standard_sheet() if t[1] not in ("five_of_a_kind", "chance")]
    return [*sheet, ("66666", "chance"), ("65432", "five_of_a_kind")]


def swapped() -> Turns:
    swap = {"sixes": ("44456", "sixes"), "three_of_a_kind": ("66612", "three_of_a_kind")}
    return [swap.get(field, (dice, field)) for dice, field in standard_sheet()]


def judged(sheet: Turns) -> advisor.SeatReview:
    """The advisor's review of one player's sheet on the Polish table."""
    return advisor.review_seat(
        STANDARD, None, [(rules.parse_dice(dice), field, 0) for dice, field in sheet]
    )


def stored(game_id: int) -> list[skill_store.ReviewRow]:
    return skill_store.reviews_of(game_id)


def review_count() -> int:
    return db.session.scalar(select(func.count()).select_from(SeatReview)) or 0


def play_alone(account_id: int, sheet: Turns, name: str = "Ala") -> int:
    game = games.create_game(account_id, "standard", [name])
    for dice, field in sheet:
        games.record_turn(account_id, game.id, dice, field)
    return game.id


def test_the_sheets_cost_what_the_tests_expect():
    assert judged(standard_sheet()).loss == 0
    assert judged(careless()).loss > judged(swapped()).loss > 1


# --- stored when the game ends -----------------------------------------------------------


def test_the_turn_that_ends_a_game_stores_its_review(app: Flask):
    sheet = careless()
    with app.app_context():
        account = new_account("Kowalscy")
        game = games.create_game(account, "standard", ["Ala"])
        for dice, field in sheet[:-1]:
            games.record_turn(account, game.id, dice, field)
        assert review_count() == 0  # the turns before the last pay nothing

        games.record_turn(account, game.id, *sheet[-1])

        (row,) = stored(game.id)
        expected = judged(sheet)
        ala = stats.find_player_id(account, "Ala")
    assert (row.seat, row.player_id, row.turns, row.total, row.exact) == (0, ala, 13, 268, True)
    assert row.loss == pytest.approx(expected.loss, abs=1e-9)
    assert row.luck == pytest.approx(expected.luck, abs=1e-9)
    assert row.expected_start == pytest.approx(expected.expected_start, abs=1e-9)
    assert row.loss > 40  # Szansa for a Generał
    # total = expected start + luck − loss, once the sheet is full
    assert row.total == pytest.approx(row.expected_start + row.luck - row.loss, abs=1e-6)


def test_a_review_that_cannot_be_stored_leaves_the_last_turn_written(
    app: Flask, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
):
    """The review is stored after the turn's own transaction: a failure there (the database
    refusing the write) loses no turn, is logged, and `serve` completes it later."""
    from sqlalchemy.exc import OperationalError

    def refuse(*_args: Any) -> None:
        raise OperationalError("INSERT INTO seat_reviews", {}, Exception("disk I/O error"))

    with app.app_context():
        account = new_account("Kowalscy")
        with monkeypatch.context() as patched, caplog.at_level(logging.ERROR):
            patched.setattr(skill_store, "replace_reviews", refuse)
            game_id = play_alone(account, standard_sheet())
        assert games.load(account, game_id).finished
        assert review_count() == 0
        assert "were not stored" in caplog.text
        assert skill_store.unreviewed_game_ids() == [game_id]  # what `serve` completes


def test_a_game_reopened_before_its_review_is_stored_gets_none(
    app: Flask, monkeypatch: pytest.MonkeyPatch
):
    """Between the last turn's commit and the review's store, another phone takes the turn
    back: the review's transaction sees the game changed, judges it again under the lock,
    and stores nothing for a game that is no longer finished."""
    sheet = standard_sheet()
    judge = skill._reviewed

    with app.app_context():
        account = new_account("Kowalscy")
        game = games.create_game(account, "standard", ["Ala"])
        for dice, field in sheet[:-1]:
            games.record_turn(account, game.id, dice, field)

        def undo_meanwhile(*args: Any) -> Any:
            rows = judge(*args)
            monkeypatch.setattr(skill, "_reviewed", judge)
            games.undo_last_turn(account, game.id)  # the other phone, between the two
            return rows

        monkeypatch.setattr(skill, "_reviewed", undo_meanwhile)
        games.record_turn(account, game.id, *sheet[-1])

        assert not games.load(account, game.id).finished
        assert review_count() == 0


def test_every_seat_of_a_game_gets_its_own_review(app: Flask):
    with app.app_context():
        account = new_account("Kowalscy")
        game_id = play_table_game(
            account, "standard", {"Ala": standard_sheet(), "Ola": swapped()}, "2025-03-01 18:00"
        )
        rows = stored(game_id)
    assert [(r.seat, r.total) for r in rows] == [(0, 308), (1, 259)]
    assert rows[0].loss == 0
    assert rows[1].loss == pytest.approx(judged(swapped()).loss, abs=1e-9)


def test_undoing_the_last_turn_removes_the_review_and_replaying_it_restores_it(app: Flask):
    sheet = swapped()
    with app.app_context():
        account = new_account("Kowalscy")
        game_id = play_alone(account, sheet)
        before = stored(game_id)

        games.undo_last_turn(account, game_id)

        assert stored(game_id) == []
        games.record_turn(account, game_id, *sheet[-1])
        after = stored(game_id)
    assert len(before) == len(after) == 1
    assert (after[0].loss, after[0].luck) == (before[0].loss, before[0].luck)


def test_a_correction_of_a_finished_game_recomputes_its_review(app: Flask):
    sheet = standard_sheet()
    with app.app_context():
        account = new_account("Kowalscy")
        game_id = play_alone(account, sheet)
        (before,) = stored(game_id)

        # Szóstki written with 44456 instead of 66612, and nothing later changes.
        corrections.correct_turn(account, game_id, 6, "44456", "sixes", 0)

        (after,) = stored(game_id)
    corrected = [("44456", "sixes") if f == "sixes" else (d, f) for d, f in sheet]
    expected = judged(corrected)
    assert before.loss == 0
    assert after.loss == pytest.approx(expected.loss, abs=1e-9)
    assert after.luck == pytest.approx(expected.luck, abs=1e-9)
    assert after.total == expected.total == 261  # 6 in Szóstki, and no upper bonus
    assert after.luck != before.luck


def test_a_correction_of_a_game_still_being_played_stores_nothing(app: Flask):
    with app.app_context():
        account = new_account("Kowalscy")
        game = games.create_game(account, "standard", ["Ala"])
        games.record_turn(account, game.id, "11123", "ones")
        corrections.correct_turn(account, game.id, 1, "11124", "ones", 0)
        assert review_count() == 0


def test_dice_poker_has_no_review(app: Flask):
    with app.app_context():
        account = new_account("Kowalscy")
        game = games.create_game(account, rules.POKER, ["Ala", "Ola"], {"target_wins": 1})
        games.record_turn(account, game.id, "66666")
        games.record_turn(account, game.id, "11234")
        assert games.load(account, game.id).finished
        assert review_count() == 0


def test_without_the_advisor_the_last_turn_is_written_and_the_review_waits(
    app: Flask, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
):
    def unavailable(*_args: Any) -> Any:
        raise advisor.AdvisorUnavailable("The advisor table standard-63 is not built.")

    with app.app_context():
        account = new_account("Kowalscy")
        with monkeypatch.context() as patched:
            patched.setattr(advisor, "summarise_game", unavailable)
            with caplog.at_level(logging.WARNING, logger="tracker.services.skill"):
                game_id = play_alone(account, standard_sheet())

        assert games.load(account, game_id).finished
        assert review_count() == 0
        assert "No review of game" in caplog.text
        assert skill.recompute_all() == skill.Recomputed(reviewed=1, unavailable=0, removed=0)
        assert len(stored(game_id)) == 1


def test_merging_players_moves_their_reviews(app: Flask):
    with app.app_context():
        account = new_account("Kowalscy")
        game_id = play_alone(account, swapped(), name="Ala K.")
        play_alone(account, standard_sheet(), name="Ala")
        source = stats.find_player_id(account, "Ala K.")
        target = stats.find_player_id(account, "Ala")
        assert source is not None
        assert target is not None

        players.merge_players(account, source, target)

        assert [r.player_id for r in stored(game_id)] == [target]


# --- the command -------------------------------------------------------------------------


def fresh_reviews(game_id: int) -> list[tuple[int, int, float, float, float, int, bool]]:
    """The reviews of a game as recomputed from its turns, right now."""
    view = games.load(db.session.scalar(select(Game.account_id).where(Game.id == game_id)), game_id)
    assert isinstance(view.variant, rules.Variant)
    reviews = skill.review_turns(view.variant, view.options, len(view.seats), view.turns)
    return [
        (i, len(r.turns), r.loss, r.luck, r.expected_start, r.total, r.exact)
        for i, r in enumerate(reviews)
    ]


def as_stored(game_id: int) -> list[tuple[int, int, float, float, float, int, bool]]:
    return [
        (r.seat, r.turns, r.loss, r.luck, r.expected_start, r.total, r.exact)
        for r in stored(game_id)
    ]


def test_advisor_recompute_rewrites_every_finished_table_game_from_its_turns(app: Flask):
    runner = app.test_cli_runner()
    with app.app_context():
        kowalscy = new_account("Kowalscy")
        nowakowie = new_account("Nowakowie")
        finished = [
            play_table_game(
                kowalscy, "standard", {"Ala": careless(), "Ola": swapped()}, "2025-03-01 18:00"
            ),
            play_alone(nowakowie, swapped(), name="Zenon"),
            play_alone(kowalscy, standard_sheet()),
        ]
        open_game = play_table_game(kowalscy, "standard", {"Ala": careless()}, finished=None)
        # Figures gone wrong: one game without any, one changed by hand, one left on a game
        # that is not finished.
        skill_store.delete_reviews(finished[0])
        db.session.execute(
            update(SeatReview).where(SeatReview.game_id == finished[1]).values(loss=99.0)
        )
        db.session.execute(
            SeatReview.__table__.insert().values(
                game_id=open_game, seat=0, player_id=stats.find_player_id(kowalscy, "Ala"),
                turns=1, loss=1.0, luck=1.0, expected_start=1.0, total=1, exact=True,
            )
        )  # fmt: skip
        db.session.commit()

    first = runner.invoke(args=["advisor", "recompute"])
    second = runner.invoke(args=["advisor", "recompute"])

    assert first.exit_code == 0, first.output
    assert "Ocenione gry: 3." in first.output
    assert "Usunięte nieaktualne oceny miejsc: 1." in first.output
    assert second.exit_code == 0, second.output
    assert "Ocenione gry: 3." in second.output
    assert "Usunięte" not in second.output  # idempotent: nothing stale is left
    with app.app_context():
        for game_id in finished:
            assert as_stored(game_id) == fresh_reviews(game_id)
        assert as_stored(finished[0])[0][2] == pytest.approx(judged(careless()).loss, abs=1e-9)
        assert stored(open_game) == []


# --- the pages and the API -----------------------------------------------------------------


@pytest.fixture
def seeded(app: Flask, client: FlaskClient) -> dict[str, Any]:
    """Kowalscy signed in: Ala and Ola at one table (Ala 0 given away, Ola careless), Ola alone
    (swapped), and a game Ala played with the hint. Nowakowie: their own Ola (all best) and
    Zenon (careless), none of which may appear."""
    assert sign_up(client, "Kowalscy").status_code == 302
    with app.app_context():
        account = db.session.scalar(select(Account.id).where(Account.name == "Kowalscy"))
        assert account is not None
        together = play_table_game(
            account, "standard", {"Ala": standard_sheet(), "Ola": careless()}, "2025-03-01 18:00"
        )
        alone = play_table_game(account, "standard", {"Ola": swapped()}, "2025-04-02 18:00")
        hinted = play_table_game(account, "standard", {"Ala": careless()}, "2025-04-03 18:00")
        db.session.execute(update(Game).where(Game.id == hinted).values(hints=True))
        db.session.commit()
        other = new_account("Nowakowie")
        play_table_game(
            other, "standard", {"Ola": standard_sheet(), "Zenon": careless()}, "2025-03-05 18:00"
        )
        _, token = accounts.create_token(account, "test")
        _, other_token = accounts.create_token(other, "test")
        ids = {n: stats.find_player_id(account, n) for n in ("Ala", "Ola")}
    return {
        "account": account,
        "games": {"together": together, "alone": alone, "hinted": hinted},
        "players": ids,
        "token": token,
        "other_token": other_token,
    }


def expected_figures() -> dict[str, stats.Skill]:
    best, lost, swap = judged(standard_sheet()), judged(careless()), judged(swapped())
    return {
        "Ala": stats.Skill(1, 13, best.loss, best.luck, True),
        "Ola": stats.Skill(2, 26, lost.loss + swap.loss, lost.luck + swap.luck, True),
    }


def section(html: str, heading_id: str) -> str:
    match = re.search(rf'<section aria-labelledby="{heading_id}">(.*?)</section>', html, re.S)
    assert match is not None, f"no section {heading_id}"
    return match.group(1)


def skill_rows(html: str) -> list[list[str]]:
    """The rows of the skill tables in this HTML, as their cells' text."""
    body = re.findall(r"<tbody>(.*?)</tbody>", html, re.S)
    return [
        [text_of(cell).strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
        for tbody in body
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", tbody, re.S)
    ]


def cells(s: stats.Skill, approx: str = "") -> list[str]:
    """A skill table's two figure cells as read: each with what it is based on under it."""
    return [
        f"{approx}{decimal(s.loss_per_turn)} {count(s.turns, 'ruch', 'ruchy', 'ruchów')}",
        f"{approx}{signed(s.luck_per_game)} {count(s.games, 'gra', 'gry', 'gier')}",
    ]


def test_the_service_adds_up_each_players_figures_per_variant(app: Flask, seeded: dict):
    with app.app_context():
        (standard,) = stats.who_plays_best(seeded["account"], stats.GameFilter())
    expected = expected_figures()
    assert standard.variant == "standard"
    assert standard.exact
    assert [p.name for p in standard.players] == ["Ala", "Ola"]  # fewest given away first
    for p in standard.players:
        want = expected[p.name]
        assert (p.skill.games, p.skill.turns, p.skill.exact) == (want.games, want.turns, True)
        assert p.skill.loss == pytest.approx(want.loss, abs=1e-9)
        assert p.skill.luck == pytest.approx(want.luck, abs=1e-9)


def test_the_statistics_page_shows_who_plays_best(client: FlaskClient, seeded: dict):
    html = client.get("/statystyki").get_data(as_text=True)

    part = section(html, "najlepiej")
    expected = expected_figures()
    assert "Kto gra najlepiej" in part
    assert "Kości (tabela polska)" in text_of(part)
    assert skill_rows(part) == [[name, *cells(s)] for name, s in expected.items()]
    given_away = judged(careless()).loss + judged(swapped()).loss
    assert skill_rows(part)[1][1] == f"{decimal(given_away / 26)} 26 ruchów"
    assert "oczekiwanych punktów" in text_of(part)
    assert "błąd" not in text_of(part).lower()
    assert 'href="#najlepiej"' in html


def test_the_statistics_filter_applies_to_who_plays_best(client: FlaskClient, seeded: dict):
    html = client.get("/statystyki?od=2025-04-01").get_data(as_text=True)

    swap = judged(swapped())
    assert skill_rows(section(html, "najlepiej")) == [
        ["Ola", f"{decimal(swap.loss / 13)} 13 ruchów", f"{signed(swap.luck)} 1 gra"]
    ]


def test_the_player_page_shows_the_figures_and_the_chart_over_time(
    client: FlaskClient, seeded: dict
):
    ola = seeded["players"]["Ola"]
    html = client.get(f"/gracze/{ola}/statystyki").get_data(as_text=True)

    part = section(html, "wybory")
    want = expected_figures()["Ola"]
    rows = skill_rows(part)
    assert rows[0] == ["Kości (tabela polska)", *cells(want)]
    assert 'id="chart-skill"' in part
    lost, swap = judged(careless()), judged(swapped())
    # The chart's data table: one row per game, oldest first.
    assert [r[1] for r in rows[1:]] == [
        f"{decimal(lost.loss / 13)} (szczęście {signed(lost.luck)})",
        f"{decimal(swap.loss / 13)} (szczęście {signed(swap.luck)})",
    ]


def test_games_played_with_the_hint_are_left_out(client: FlaskClient, seeded: dict):
    ala = seeded["players"]["Ala"]
    html = client.get(f"/gracze/{ala}/statystyki").get_data(as_text=True)

    rows = skill_rows(section(html, "wybory"))
    assert rows[0][1] == "0 13 ruchów"  # the careless game with the hint is not among them


def test_triple_figures_are_marked_approximate(app: Flask, client: FlaskClient, seeded: dict):
    with app.app_context():
        game_id = play_table_game(
            seeded["account"], "triple", {"Ala": triple_sheet()}, "2025-05-01 18:00"
        )
        # Whether or not the triple table is built yet, the game's review is this one.
        skill_store.replace_reviews(
            game_id,
            [skill_store.ReviewRow(0, seeded["players"]["Ala"], 39, 39.0, 123.4, 1.0, 308, False)],
        )
        db.session.commit()

    overview = client.get("/statystyki").get_data(as_text=True)
    player = client.get(f"/gracze/{seeded['players']['Ala']}/statystyki?wariant=triple")

    part = section(overview, "najlepiej")
    assert "Kości potrójne (w przybliżeniu)" in text_of(part)
    assert ["Ala", "≈1 39 ruchów", "≈+123,4 1 gra"] in skill_rows(part)
    assert ["Kości potrójne", "≈1 39 ruchów", "≈+123,4 1 gra"] in skill_rows(
        section(player.get_data(as_text=True), "wybory")
    )


def test_in_gra_po_kolei_the_zeros_given_away_are_explained(
    app: Flask, client: FlaskClient, seeded: dict
):
    # In Gra po kolei the order chooses the field, not the player: everyone gives away 0, and a
    # "who plays best" table of zeros, unexplained, reads as a family of perfect players.
    note = "W grze po kolei pole wyznacza kolejność, nie gracz"
    ala = seeded["players"]["Ala"]
    assert note not in client.get("/statystyki").get_data(as_text=True)
    with app.app_context():
        play_table_game(
            seeded["account"], "ordered", {"Ala": standard_sheet(), "Ola": careless()}, None
        )
        game_id = play_table_game(
            seeded["account"], "ordered", {"Ala": standard_sheet()}, "2025-05-02 18:00"
        )
        assert stored(game_id)  # the ordered game was reviewed

    overview = section(client.get("/statystyki").get_data(as_text=True), "najlepiej")
    player = client.get(f"/gracze/{ala}/statystyki").get_data(as_text=True)

    assert skill_rows(overview)[-1][:2] == ["Ala", "0 13 ruchów"]
    assert note in text_of(overview)
    assert note in text_of(section(player, "wybory"))


def test_another_accounts_figures_never_appear(client: FlaskClient, seeded: dict):
    html = client.get("/statystyki").get_data(as_text=True)

    names = [row[0] for row in skill_rows(section(html, "najlepiej"))]
    assert names == ["Ala", "Ola"]
    assert "Zenon" not in html


def test_the_api_gives_each_players_figures_per_variant(client: FlaskClient, seeded: dict):
    body = client.get(
        "/api/v1/stats", headers={"Authorization": f"Bearer {seeded['token']}"}
    ).get_json()

    expected = expected_figures()
    got = {p["name"]: p["skill"] for p in body["players"]}
    assert set(got) == {"Ala", "Ola"}
    for name, want in expected.items():
        assert got[name] == {
            "standard": {
                "games": want.games,
                "turns": want.turns,
                "loss_per_turn": round(want.loss / want.turns, 2),
                "luck_per_game": round(want.luck / want.games, 2),
                "exact": True,
            }
        }


def test_the_api_of_another_account_gives_its_own_figures(client: FlaskClient, seeded: dict):
    body = client.get(
        "/api/v1/stats", headers={"Authorization": f"Bearer {seeded['other_token']}"}
    ).get_json()

    got = {p["name"]: p["skill"]["standard"]["loss_per_turn"] for p in body["players"]}
    assert got == {"Ola": 0.0, "Zenon": round(judged(careless()).loss / 13, 2)}
