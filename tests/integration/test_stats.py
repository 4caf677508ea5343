"""Statistics on a hand-built family of games with known answers (`stats_builders` describes
the games: who played, the totals, the winners, when each finished).

The totals of the sheets are checked against `tracker.rules` once
(`test_the_sheets_score_what_the_tests_expect`) and written out as numbers everywhere else.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from flask import Flask
from flask.testing import FlaskClient
from stats_builders import (
    EXPECTED_TOTALS,
    SHEETS,
    at,
    build_family,
    new_account,
    play_table_game,
    scandinavian_sheet,
    triple_sheet,
)

from tracker import rules
from tracker.extensions import db
from tracker.models import Account, Player
from tracker.services import InvalidInput, accounts, games, stats
from tracker.services.filters import GameFilter, InvalidFilter, parse_day, read_filter
from tracker.stats import charts

from .apps import built_once
from .test_game_pages import sign_up, text_of


@pytest.fixture
def family(app: Flask) -> dict[str, Any]:
    def build() -> dict[str, Any]:
        with app.app_context():
            account_id = new_account("Kowalscy")
            ids = build_family(account_id)
            # Another household with its own Ala: none of this may leak either way.
            other = new_account("Nowakowie")
            play_table_game(other, "triple", {"Ala": triple_sheet()}, "2025-03-10 12:00")
            people = {
                p.name: p.id
                for p in db.session.scalars(
                    db.select(Player).where(Player.account_id == account_id)
                )
            }
            _, token = accounts.create_token(account_id, "test")
            _, other_token = accounts.create_token(other, "test")
        return {
            "account": account_id,
            "other": other,
            "games": ids,
            "players": people,
            "token": token,
            "other_token": other_token,
        }

    return built_once(app, "test_stats.family", build)


def filters(**kwargs: Any) -> GameFilter:
    return read_filter(**kwargs)


def by_name(rows: list[stats.PlayerStats]) -> dict[str, stats.PlayerStats]:
    return {p.name: p for p in rows}


# --- the sheets --------------------------------------------------------------------------


@pytest.mark.parametrize(("sheet", "total"), EXPECTED_TOTALS.items(), ids=list(EXPECTED_TOTALS))
def test_the_sheets_score_what_the_tests_expect(sheet: str, total: int):
    variant = rules.TABLE_VARIANTS["standard"]
    game = rules.TableGame.replay(
        variant, 1, ((rules.parse_dice(d), f, 0) for d, f in SHEETS[sheet])
    )
    assert game.scores == (total,)


@pytest.mark.parametrize(("general", "total"), [(True, 297), (False, 247)])
def test_the_scandinavian_sheets_score_what_the_tests_expect(general: bool, total: int):
    variant = rules.TABLE_VARIANTS["scandinavian"]
    turns = ((rules.parse_dice(d), f, 0) for d, f in scandinavian_sheet(general=general))
    assert rules.TableGame.replay(variant, 1, turns).scores == (total,)


# --- games, wins, ties, solo games, poker ------------------------------------------------


def test_only_finished_games_count_per_variant(app: Flask, family: dict[str, Any]):
    with app.app_context():
        result = stats.overview(family["account"], filters())

    assert result.games == 7
    assert result.by_variant == {"standard": 4, "poker": 2, "scandinavian": 1}
    assert list(result.by_variant) == ["standard", "poker", "scandinavian"]  # most played first


def test_each_player_games_wins_and_win_rate_with_shared_wins_counted_for_each(
    app: Flask, family: dict[str, Any]
):
    with app.app_context():
        players = stats.player_stats(family["account"], filters())

    figures = {p.name: (p.overall.games, p.overall.wins) for p in players}
    # G2's tie counts for Ala and for Ola; Jan's solo G4 and his poker wins count as wins.
    assert figures == {"Ala": (4, 2), "Ola": (5, 2), "Jan": (5, 4)}
    assert [p.name for p in players] == ["Jan", "Ala", "Ola"]  # most wins, then win rate
    assert by_name(players)["Jan"].overall.win_rate == 0.8


def test_table_figures_leave_poker_out_and_count_the_solo_game(app: Flask, family: dict[str, Any]):
    with app.app_context():
        players = by_name(stats.player_stats(family["account"], filters()))

    ala, ola, jan = players["Ala"].overall, players["Ola"].overall, players["Jan"].overall
    assert (ala.table_games, ala.best, ala.worst) == (3, 308, 258)
    assert ala.average == pytest.approx((308 + 294 + 258) / 3)
    assert (jan.table_games, jan.best, jan.worst) == (3, 317, 267)  # 317 alone, 0/1 in poker
    assert (ola.best, ola.worst) == (418, 247)
    assert players["Jan"].by_variant["poker"].average is None


def test_per_variant_figures_upper_bonuses_generals_and_extra_bonuses(
    app: Flask, family: dict[str, Any]
):
    with app.app_context():
        ola = by_name(stats.player_stats(family["account"], filters()))["Ola"]

    standard = ola.by_variant["standard"]
    assert (standard.table_games, standard.best, standard.worst) == (3, 418, 294)
    assert standard.upper_bonus_rate == 1.0
    assert (standard.generals, standard.extra_bonuses) == (4, 1)  # 1 + 1 + 2, the +100 in G3
    scandinavian = ola.by_variant["scandinavian"]
    assert (scandinavian.generals, scandinavian.extra_bonuses) == (0, 0)
    assert list(ola.by_variant) == ["standard", "scandinavian", "poker"]
    assert list(ola.table_variants) == ["standard", "scandinavian"]


def test_the_upper_bonus_rate_counts_columns(app: Flask):
    """Kości potrójne has three columns a game: one bonus in three is a third, not a whole."""
    with app.app_context():
        account_id = new_account("Potrójni")
        sheet = [
            (dice if column == 0 or field != "sixes" else "66123", field, column)
            for dice, field, column in triple_sheet()
        ]
        play_table_game(account_id, "triple", {"Ala": sheet}, "2025-06-01 12:00")
        (ala,) = stats.player_stats(account_id, filters())

    assert ala.overall.columns == 3
    assert ala.overall.upper_bonuses == 1
    assert ala.overall.upper_bonus_rate == pytest.approx(1 / 3)


# --- filters -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "games", "players"),
    [
        ({"variant": "standard"}, 4, {"Ala": (3, 2), "Ola": (3, 2), "Jan": (2, 1)}),
        ({"variant": "poker"}, 2, {"Ala": (1, 0), "Ola": (1, 0), "Jan": (2, 2)}),
        ({"variant": "triple"}, 0, {}),
        ({"players": ["Ala"]}, 4, {"Ala": (4, 2), "Ola": (3, 2), "Jan": (2, 1)}),
        ({"players": ["Ola", "Jan"]}, 3, {"Ala": (1, 0), "Ola": (3, 1), "Jan": (3, 2)}),
        # G3 ended at 00:30 on 1 April, local time: an April game.
        ({"since": "2025-04-01"}, 5, {"Ala": (2, 0), "Ola": (3, 1), "Jan": (5, 4)}),
        ({"until": "2025-03-31"}, 2, {"Ala": (2, 2), "Ola": (2, 1)}),
        ({"since": "2025-05-10", "until": "2025-05-10"}, 1, {"Ola": (1, 0), "Jan": (1, 1)}),
        (
            {"variant": "standard", "players": ["Jan"], "since": "2025-04-01"},
            2,
            {"Ala": (1, 0), "Ola": (1, 1), "Jan": (2, 1)},
        ),
    ],
    ids=[
        "variant",
        "poker",
        "variant-without-games",
        "player",
        "two-players-together",
        "from",
        "to",
        "one-day",
        "combined",
    ],
)
def test_filters(
    app: Flask,
    family: dict[str, Any],
    given: dict[str, Any],
    games: int,
    players: dict[str, tuple[int, int]],
):
    given = dict(given)
    ids = [family["players"][n] for n in given.pop("players", [])]
    with app.app_context():
        result = stats.overview(family["account"], filters(player_ids=ids, **given))

    assert result.games == games
    assert {p.name: (p.overall.games, p.overall.wins) for p in result.players} == players


@pytest.mark.parametrize(
    ("given", "field", "message"),
    [
        ({"variant": "yahtzee"}, "variant", "Nieznany wariant 'yahtzee'"),
        ({"since": "2025-13-01"}, "from", "Nie ma takiego dnia: 2025-13-01."),
        ({"until": "1.05.2025"}, "to", "Podaj datę w postaci RRRR-MM-DD"),
        ({"since": "2025-05-02", "until": "2025-05-01"}, "to", "wcześniejsza niż początkowa"),
    ],
    ids=["unknown-variant", "no-such-day", "not-iso", "from-after-to"],
)
def test_malformed_filters_are_refused_with_the_field(
    given: dict[str, str], field: str, message: str
):
    with pytest.raises(InvalidInput) as refused:
        read_filter(**given)
    assert refused.value.field == field
    assert message in refused.value.message


# --- the filter the history shares --------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "typed", "day"),
    [
        ("2025-05-03", False, date(2025, 5, 3)),
        ("2025-05-03", True, date(2025, 5, 3)),
        ("2025-5-3", True, date(2025, 5, 3)),
        ("3.05.2025", True, date(2025, 5, 3)),
        (" ", False, None),
    ],
    ids=["iso", "iso-typed", "short-iso-typed", "polish-typed", "empty"],
)
def test_one_day_parser_reads_both_dialects(raw: str, typed: bool, day: date | None):
    assert parse_day(raw, "from", typed=typed) == day


@pytest.mark.parametrize(
    ("raw", "typed", "message"),
    [
        ("3.05.2025", False, "Podaj datę w postaci RRRR-MM-DD"),
        ("2025-5-3", False, "Podaj datę w postaci RRRR-MM-DD"),
        ("31.02.2025", True, "Nieprawidłowa data. Wpisz ją jako RRRR-MM-DD"),
        ("2025-02-30", False, "Nie ma takiego dnia: 2025-02-30."),
    ],
    ids=["polish-in-iso", "short-in-iso", "no-such-typed-day", "no-such-iso-day"],
)
def test_one_day_parser_refuses_with_the_dialects_words(raw: str, typed: bool, message: str):
    with pytest.raises(InvalidInput) as refused:
        parse_day(raw, "to", typed=typed)

    assert refused.value.field == "to"
    assert message in refused.value.message


def test_a_refused_filter_names_every_field_first_the_earliest():
    with pytest.raises(InvalidFilter) as refused:
        read_filter(since="jutro", until="pojutrze", variant="yahtzee")

    assert list(refused.value.errors) == ["from", "to", "variant"]
    assert refused.value.field == "from"


def test_a_filters_days_are_local_midnights_in_utc():
    """Warsaw in summer is UTC+2: 1 May begins at 22:00 UTC on 30 April; the last day is
    included up to the next local midnight."""
    f = read_filter(since="2025-05-01", until="2025-05-31", zone=ZoneInfo("Europe/Warsaw"))

    assert f.bounds() == (datetime(2025, 4, 30, 22), datetime(2025, 5, 31, 22))
    assert f.active
    assert not stats.GameFilter().active
    assert stats.GameFilter().bounds() == (None, None)


# --- by month ----------------------------------------------------------------------------


def test_games_by_local_month_with_every_month_in_between(app: Flask, family: dict[str, Any]):
    with app.app_context():
        months = stats.games_by_month(family["account"], filters())

    assert [(m.month.isoformat(), m.games) for m in months] == [
        ("2025-03-01", 2),
        ("2025-04-01", 2),  # G3 (00:30 on 1 April in Warsaw) and G4
        ("2025-05-01", 3),
    ]


def test_months_without_games_are_shown_as_zero(app: Flask):
    with app.app_context():
        account_id = new_account("Rzadcy")
        play_table_game(account_id, "standard", {"Ala": SHEETS["best"]}, "2024-12-31 23:30")
        play_table_game(account_id, "standard", {"Ala": SHEETS["best"]}, "2025-03-02 12:00")
        months = stats.games_by_month(account_id, filters())

    # 23:30 UTC on New Year's Eve is half past midnight in Warsaw: January.
    assert [(m.month.isoformat(), m.games) for m in months] == [
        ("2025-01-01", 1),
        ("2025-02-01", 0),
        ("2025-03-01", 1),
    ]


def test_months_west_of_greenwich(app: Flask):
    """In New York the first hours of a UTC month still belong to the month before."""
    with app.app_context():
        account_id = new_account("Kowalski w Nowym Jorku")
        play_table_game(account_id, "standard", {"Ala": SHEETS["best"]}, "2025-03-01 03:00")
        play_table_game(account_id, "standard", {"Ala": SHEETS["best"]}, "2025-03-01 06:00")
        f = filters(zone=ZoneInfo("America/New_York"), since="2025-03-01")
        months = stats.games_by_month(account_id, filters(zone=ZoneInfo("America/New_York")))
        march = stats.overview(account_id, f)

    # 03:00 UTC is 22:00 on 28 February in New York; 06:00 UTC is 01:00 on 1 March.
    assert [(m.month.isoformat(), m.games) for m in months] == [
        ("2025-02-01", 1),
        ("2025-03-01", 1),
    ]
    assert march.games == 1


# --- records, streaks, head-to-head ------------------------------------------------------


def test_records_highest_total_per_variant_and_most_generals(app: Flask, family: dict[str, Any]):
    with app.app_context():
        result = stats.overview(family["account"], filters())

    best = {f.variant: (f.value, f.name, f.game_id, f.players) for f in result.best_totals}
    g = family["games"]
    assert best == {
        "standard": (418, "Ola", g["G3"], 3),
        "scandinavian": (297, "Jan", g["G6"], 2),
    }
    generals = result.most_generals
    assert generals is not None
    assert (generals.value, generals.name, generals.game_id) == (2, "Ola", g["G3"])


def test_a_record_belongs_to_whoever_reached_it_first(app: Flask, family: dict[str, Any]):
    """G1's 308 was equalled by nobody; G2's two 294s: the record within the filter is Ala's
    (seated first in the first game to reach it)."""
    with app.app_context():
        result = stats.best_totals(family["account"], filters(until="2025-03-31"))
        low = stats.best_totals(
            family["account"],
            filters(since="2025-03-15", until="2025-03-15"),
        )

    assert [(f.value, f.name) for f in result] == [(308, "Ala")]
    assert [(f.value, f.name) for f in low] == [(294, "Ala")]


def test_personal_records_count_one_player_games(app: Flask, family: dict[str, Any]):
    with app.app_context():
        jan = db.session.get(Player, family["players"]["Jan"])
        report = stats.player_report(family["account"], jan, filters())

    best = {f.variant: (f.value, f.game_id, f.players) for f in report.best_totals}
    assert best == {
        "standard": (317, family["games"]["G4"], 1),
        "scandinavian": (297, family["games"]["G6"], 2),
    }


def test_longest_winning_streak_leaves_one_player_games_out(app: Flask, family: dict[str, Any]):
    with app.app_context():
        streaks = stats.longest_streaks(family["account"], filters())
        overview = stats.overview(family["account"], filters())
    names = {s.name: (s.length, s.first_at, s.last_at) for s in streaks.values()}

    # Jan: lost G3, won alone in G4 (left out), then G5, G6, G7 in a row.
    assert names["Jan"] == (3, at("2025-05-05 18:00"), at("2025-05-20 18:00"))
    assert names["Ala"] == (2, at("2025-03-01 18:00"), at("2025-03-15 18:00"))
    assert names["Ola"][0] == 2  # G2 (shared) and G3
    assert overview.longest_streak is not None
    assert (overview.longest_streak.name, overview.longest_streak.length) == ("Jan", 3)


def test_a_streak_ends_with_a_game_lost_and_the_earliest_of_equal_streaks_counts(app: Flask):
    with app.app_context():
        account_id = new_account("Seryjni")
        # Ala against Ola, one game a day: won, won, won, lost, won, won, won.
        for day, ala_wins in enumerate([True, True, True, False, True, True, True], start=1):
            ala, ola = ("best", "no_general") if ala_wins else ("no_general", "best")
            play_table_game(
                account_id,
                "standard",
                {"Ala": SHEETS[ala], "Ola": SHEETS[ola]},
                f"2025-06-{day:02d} 12:00",
            )
        streaks = stats.longest_streaks(account_id, filters())

    by_player = {s.name: (s.length, s.first_at, s.last_at) for s in streaks.values()}
    assert by_player == {
        "Ala": (3, at("2025-06-01 12:00"), at("2025-06-03 12:00")),
        "Ola": (1, at("2025-06-04 12:00"), at("2025-06-04 12:00")),
    }


def test_head_to_head_for_every_pair(app: Flask, family: dict[str, Any]):
    with app.app_context():
        pairs = stats.head_to_head(family["account"], filters())

    found = {(p.a_name, p.b_name): (p.games, p.a_wins, p.b_wins) for p in pairs}
    normalized = {}
    for (a, b), (n, wa, wb) in found.items():
        normalized[tuple(sorted((a, b)))] = (n, wa, wb) if a < b else (n, wb, wa)
    assert normalized == {
        ("Ala", "Ola"): (3, 2, 2),  # G1 Ala, G2 both, G3 Ola
        ("Ala", "Jan"): (2, 0, 1),  # G3 Ola won, G5 Jan
        ("Jan", "Ola"): (3, 2, 1),  # G3 Ola, G6 and G7 Jan
    }


def test_head_to_head_on_the_player_page_puts_the_player_first(app: Flask, family: dict[str, Any]):
    with app.app_context():
        jan = db.session.get(Player, family["players"]["Jan"])
        report = stats.player_report(family["account"], jan, filters())

    assert [(p.a_name, p.b_name, p.games, p.a_wins, p.b_wins) for p in report.pairs] == [
        ("Jan", "Ola", 3, 2, 1),
        ("Jan", "Ala", 2, 1, 0),
    ]


# --- the player page's figures -----------------------------------------------------------


def test_field_figures_average_and_the_field_crossed_out_most(app: Flask, family: dict[str, Any]):
    with app.app_context():
        ala = db.session.get(Player, family["players"]["Ala"])
        report = stats.player_report(family["account"], ala, filters())

    (table,) = report.fields  # Ala played no Scandinavian game
    assert table.table == "standard"
    fields = {f.field: f for f in table.fields}
    assert [f.field for f in table.fields] == list(rules.STANDARD.field_ids)
    general = fields["five_of_a_kind"]
    assert (general.written, general.points, general.crossed_out) == (3, 100, 1)
    assert fields["chance"].average == pytest.approx((20 + 6 + 20) / 3)
    assert table.most_crossed_out is general


def test_field_figures_are_those_of_the_variant_the_charts_show(app: Flask, family: dict[str, Any]):
    with app.app_context():
        ola = db.session.get(Player, family["players"]["Ola"])
        usual = stats.player_report(family["account"], ola, filters())
        scandinavian = stats.player_report(family["account"], ola, filters(variant="scandinavian"))

    assert usual.timeline is not None
    assert usual.timeline.variant == "standard"
    assert [(t.table, t.variants) for t in usual.fields] == [("standard", ["standard"])]
    (table,) = scandinavian.fields
    assert (table.table, table.variants) == ("scandinavian", ["scandinavian"])
    assert [f.field for f in table.fields] == list(rules.SCANDINAVIAN.field_ids)
    assert table.most_crossed_out is not None
    assert table.most_crossed_out.field == "five_of_a_kind"  # her only 0


def test_the_undone_turn_and_unfinished_games_stay_out_of_field_figures(app: Flask):
    with app.app_context():
        account_id = new_account("Poprawiający")
        game = games.create_game(account_id, "standard", ["Ala"])
        games.record_turn(account_id, game.id, "12256", "ones")  # a mistake: 1 in Jedynki
        games.undo_last_turn(account_id, game.id)
        for dice, field in SHEETS["best"]:
            games.record_turn(account_id, game.id, dice, field)
        games.create_game(account_id, "standard", ["Ala"])  # unfinished, no turns
        ala = db.session.get(Player, stats.find_player_id(account_id, "ala"))
        report = stats.player_report(account_id, ala, filters())

    ones = report.fields[0].fields[0]
    assert (ones.field, ones.written, ones.points, ones.crossed_out) == ("ones", 1, 3, 0)
    assert report.stats is not None
    assert report.stats.overall.games == 1


def test_timeline_and_recent_games(app: Flask, family: dict[str, Any]):
    with app.app_context():
        ola = db.session.get(Player, family["players"]["Ola"])
        report = stats.player_report(family["account"], ola, filters())

    assert report.timeline is not None
    assert report.timeline.per_game
    assert report.timeline.variant == "standard"  # her most played table variant
    assert [p.value for p in report.timeline.points] == [294, 294, 418]
    assert report.timeline_variants == ["standard", "scandinavian"]
    g = family["games"]
    assert [r.game_id for r in report.recent] == [g["G7"], g["G6"], g["G3"], g["G2"], g["G1"]]
    g2 = report.recent[3]
    assert (g2.is_winner, g2.winners, g2.place, g2.players) == (True, ["Ala", "Ola"], 1, 2)


def test_a_long_timeline_becomes_monthly_averages(app: Flask, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr("tracker.services.stats.player.TIMELINE_GAMES", 2)
    with app.app_context():
        account_id = new_account("Pilni")
        for moment, sheet in [
            ("2025-01-05 12:00", "best"),
            ("2025-01-06 12:00", "low_chance"),
            ("2025-03-01 12:00", "no_general"),
        ]:
            play_table_game(account_id, "standard", {"Ala": SHEETS[sheet]}, moment)
        ala = db.session.get(Player, stats.find_player_id(account_id, "Ala"))
        line = stats.timeline(account_id, filters(), ala.id, "standard")

    assert not line.per_game
    assert [(p.at.isoformat(), p.value, p.games) for p in line.points] == [  # type: ignore[union-attr]
        ("2025-01-01", 301, 2),
        ("2025-03-01", 258, 1),
    ]


def test_distribution_of_totals_in_round_bins(app: Flask, family: dict[str, Any]):
    with app.app_context():
        (histogram,) = stats.distributions(family["account"], filters(variant="standard"))

    # Totals 308 294 | 294 294 | 258 418 267 | 317: from 258 to 418, twelve bins at most.
    assert histogram.width == 20
    assert histogram.bins[0] == (240, 1)
    assert histogram.bins[-1] == (400, 1)
    assert histogram.count == 8
    assert dict(histogram.bins)[280] == 3  # 294 three times


@pytest.mark.parametrize(
    ("low", "high", "width"), [(0, 11, 1), (0, 12, 2), (258, 418, 20), (150, 1575, 200)]
)
def test_bin_width(low: int, high: int, width: int):
    assert stats.bin_width(low, high) == width


def test_polish_alphabetical_order():
    names = ["Żaneta", "Łucja", "Lena", "zosia", "Ania", "Ćwirek", "Celina"]
    assert sorted(names, key=stats.sort_key) == [
        "Ania",
        "Celina",
        "Ćwirek",
        "Lena",
        "Łucja",
        "zosia",
        "Żaneta",
    ]


# --- isolation ---------------------------------------------------------------------------


def test_another_account_sees_none_of_it(app: Flask, family: dict[str, Any]):
    with app.app_context():
        theirs = stats.overview(family["other"], filters())
        ours_with_their_ala = stats.overview(
            family["account"], filters(player_ids=[stats.find_player_id(family["other"], "Ala")])
        )

    assert (theirs.games, theirs.by_variant) == (1, {"triple": 1})
    assert [(p.name, p.overall.games, p.overall.best) for p in theirs.players] == [
        ("Ala", 1, 308 * 6)
    ]
    assert ours_with_their_ala.games == 0


# --- the API -----------------------------------------------------------------------------


def api(client: FlaskClient, token: str, query: str = ""):
    return client.get(f"/api/v1/stats{query}", headers={"Authorization": f"Bearer {token}"})


def test_api_answers_the_exact_figures(client: FlaskClient, family: dict[str, Any]):
    response = api(client, family["token"])

    assert response.status_code == 200
    body = response.get_json()
    # Who plays best (`skill`, per reviewed variant): tests/integration/test_skill.py.
    assert all(set(p.pop("skill")) <= {"standard", "scandinavian"} for p in body["players"])
    per_variant = {p["name"]: p.pop("by_variant") for p in body["players"]}
    # Ola's standard games G1, G2 (one Generał each) and G3 (two): 4 in 3 × 13 turns.
    assert per_variant["Ola"]["standard"] == {
        "games": 3,
        "wins": 2,
        "average": 335.33,
        "best": 418,
        "worst": 294,
        "columns": 3,
        "upper_bonuses": 3,
        "upper_bonus_rate": 1.0,
        "turns": 39,
        "generals": 4,
        "generals_per_100_turns": 10.26,
        "extra_bonuses": 1,
    }
    assert per_variant["Jan"]["poker"] == {"games": 2, "wins": 2}
    assert body == {
        "games": 7,
        "by_variant": {"standard": 4, "poker": 2, "scandinavian": 1},
        "players": [
            {
                "name": "Ala",
                "games": 4,
                "wins": 2,
                "win_rate": 0.5,
                "average": 286.67,
                "best": 308,
                "worst": 258,
            },
            {
                "name": "Jan",
                "games": 5,
                "wins": 4,
                "win_rate": 0.8,
                "average": 293.67,
                "best": 317,
                "worst": 267,
            },
            {
                "name": "Ola",
                "games": 5,
                "wins": 2,
                "win_rate": 0.4,
                "average": 313.25,
                "best": 418,
                "worst": 247,
            },
        ],
    }


def test_api_filters_combined(client: FlaskClient, family: dict[str, Any]):
    response = api(
        client, family["token"], "?variant=standard&player=JAN&from=2025-04-01&to=2025-04-30"
    )

    assert response.status_code == 200
    body = response.get_json()
    assert (body["games"], body["by_variant"]) == (2, {"standard": 2})
    assert [(p["name"], p["games"], p["wins"], p["best"]) for p in body["players"]] == [
        ("Ala", 1, 0, 258),
        ("Jan", 2, 1, 317),
        ("Ola", 1, 1, 418),
    ]


def test_api_poker_only_has_no_totals(client: FlaskClient, family: dict[str, Any]):
    body = api(client, family["token"], "?variant=poker").get_json()

    jan = next(p for p in body["players"] if p["name"] == "Jan")
    assert jan == {
        "name": "Jan",
        "games": 2,
        "wins": 2,
        "win_rate": 1.0,
        "average": None,
        "best": None,
        "worst": None,
        "by_variant": {"poker": {"games": 2, "wins": 2}},  # no totals, bonuses or Generały
        "skill": {},  # dice poker: no field is chosen, nothing to judge
    }


def test_api_repeated_player_means_games_they_played_together(
    client: FlaskClient, family: dict[str, Any]
):
    body = api(client, family["token"], "?player=ala&player=Ola").get_json()

    assert (body["games"], body["by_variant"]) == (3, {"standard": 3})  # G1, G2, G3


def test_api_unknown_player_has_zero_games(client: FlaskClient, family: dict[str, Any]):
    response = api(client, family["token"], "?player=Zenon")

    assert response.status_code == 200
    assert response.get_json() == {"games": 0, "by_variant": {}, "players": []}


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("?variant=yahtzee", "Nieznany wariant"),
        ("?from=2025-02-30", "Nie ma takiego dnia"),
        ("?to=jutro", "RRRR-MM-DD"),
        ("?from=2025-05-02&to=2025-05-01", "wcześniejsza"),
        ("?varaint=standard", "Nieznane parametry: varaint"),
        ("?from=2025-01-01&from=2025-02-01", "tylko raz"),
    ],
    ids=["variant", "no-such-day", "not-a-date", "from-after-to", "unknown-parameter", "twice"],
)
def test_api_bad_filters_are_400(
    client: FlaskClient, family: dict[str, Any], query: str, message: str
):
    response = api(client, family["token"], query)

    assert response.status_code == 400
    assert message in response.get_json()["error"]


def test_api_needs_a_token(client: FlaskClient):
    response = client.get("/api/v1/stats")

    assert response.status_code == 401
    assert "error" in response.get_json()


def test_api_of_another_account_sees_only_its_own(client: FlaskClient, family: dict[str, Any]):
    body = api(client, family["other_token"], "?player=ala").get_json()

    assert body["games"] == 1
    assert body["by_variant"] == {"triple": 1}
    assert [p["name"] for p in body["players"]] == ["Ala"]


# --- the pages ---------------------------------------------------------------------------


@pytest.fixture
def signed_in(app: Flask, client: FlaskClient) -> dict[str, Any]:
    """The Kowalscy family signed in through the web, with the games above."""
    assert sign_up(client, "Kowalscy").status_code == 302
    with app.app_context():
        account_id = db.session.query(Account.id).filter(Account.name == "Kowalscy").scalar()
        ids = build_family(account_id)
        other = new_account("Nowakowie")
        play_table_game(other, "standard", {"Zenon": SHEETS["best"]}, "2025-03-10 12:00")
        people = {name: stats.find_player_id(account_id, name) for name in ("Ala", "Ola", "Jan")}
        zenon = stats.find_player_id(other, "Zenon")
    return {"account": account_id, "games": ids, "players": people, "zenon": zenon}


def test_statistics_page_shows_every_section_with_charts(client: FlaskClient, signed_in):
    response = client.get("/statystyki")

    assert response.status_code == 200
    html = response.get_data(as_text=True)
    text = text_of(html)
    assert "7 zakończonych gier" in text
    headings = re.findall(r'<h2 id="[^"]+">([^<]+)</h2>', html)
    assert headings == [
        "Co gramy",
        "Gracze",
        "Kto gra najlepiej",
        "Wyniki w tabeli",
        "Rekordy",
        "Kto zaczyna",
        "Pojedynki",
    ]
    # Charts: an SVG image each, named by its title and description, with a data table.
    svgs = re.findall(
        r'<svg class="chart-svg" id="([^"]+)" role="img" aria-labelledby="([^"]+)"', html
    )
    assert [s[0] for s in svgs] == [
        "chart-variants",
        "chart-months",
        "chart-wins",
        "chart-totals-standard",
        "chart-totals-scandinavian",
    ]
    for chart_id, labelled_by in svgs:
        assert labelled_by == f"{chart_id}-title {chart_id}-desc"
        assert f'<title id="{chart_id}-title">' in html
        assert f'<desc id="{chart_id}-desc">' in html
    assert html.count('<details class="chart-data">') == len(svgs)
    assert "Najwyższy wynik – Kości (tabela polska) 418 Ola, 1.04.2025" in text
    assert "Najdłuższa seria zwycięstw 3 Jan, 5.05.2025 – 20.05.2025" in text


def test_statistics_page_filter_form_round_trip(client: FlaskClient, signed_in):
    jan = signed_in["players"]["Jan"]
    response = client.get(f"/statystyki?wariant=standard&od=2025-04-01&do=&gracz={jan}")

    assert response.status_code == 200
    html = response.get_data(as_text=True)
    text = text_of(html)
    assert "2 zakończone gry" in text
    assert "Kości (tabela polska) · od 1.04.2025 · z udziałem: Jan" in text
    assert '<option selected value="standard">' in html
    assert 'value="2025-04-01"' in html
    assert re.search(rf'value="{jan}" checked', html)


@pytest.mark.parametrize(
    ("until", "said"),
    [("2025-05-31", "1.04.2025 – 31.05.2025"), ("2025-04-01", "1.04.2025")],
    ids=["a period", "one day"],
)
def test_statistics_page_says_the_days_of_the_filter(
    client: FlaskClient, signed_in, until: str, said: str
):
    response = client.get(f"/statystyki?wariant=standard&od=2025-04-01&do={until}")

    text = text_of(response.get_data(as_text=True))
    assert f"Kości (tabela polska) · {said}" in text
    assert "1.04.2025 – 1.04.2025" not in text


@pytest.mark.parametrize(
    ("since", "until"),
    [("1.04.2025", "31.05.2025"), ("2025-4-1", "2025-5-31")],
    ids=["the Polish way", "ISO without its zeros"],
)
def test_statistics_page_reads_days_typed_by_hand(
    client: FlaskClient, signed_in, since: str, until: str
):
    """A browser without a date picker sends the day as typed: the page reads it as the
    history's filter does, and shows what the picker's ISO days show."""
    typed = client.get(f"/statystyki?wariant=standard&od={since}&do={until}")
    picked = client.get("/statystyki?wariant=standard&od=2025-04-01&do=2025-05-31")

    assert typed.status_code == 200
    text = text_of(typed.get_data(as_text=True))
    assert "Kości (tabela polska) · 1.04.2025 – 31.05.2025" in text
    # Every figure below the filter is the same.
    figures = text.split("Wyczyść filtr", 1)[1]
    assert figures == text_of(picked.get_data(as_text=True)).split("Wyczyść filtr", 1)[1]
    assert "2 zakończone gry" in figures


def marked_invalid(html: str, field_id: str) -> bool:
    """Whether the form's input `field_id` is marked invalid (its error stands next to it)."""
    return bool(
        re.search(
            rf'id="{field_id}" [^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="{field_id}"',
            html,
        )
    )


def test_statistics_page_refuses_a_day_that_is_none_next_to_its_field(
    client: FlaskClient, signed_in
):
    response = client.get("/statystyki?od=31.02.2025")

    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert marked_invalid(html, "od")
    assert "Nieprawidłowa data. Wpisz ją jako RRRR-MM-DD (np. 2025-05-03) albo 3.05.2025." in html


def test_statistics_page_ignores_another_accounts_player_in_the_filter(
    client: FlaskClient, signed_in
):
    response = client.get(f"/statystyki?gracz={signed_in['zenon']}&gracz=abc")

    assert response.status_code == 200
    assert "7 zakończonych gier" in text_of(response.get_data(as_text=True))


def test_statistics_page_bad_filter_shows_the_error_next_to_the_field(
    client: FlaskClient, signed_in
):
    response = client.get("/statystyki?od=2025-05-02&do=2025-05-01")

    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert marked_invalid(html, "do")
    assert "Data „do” jest wcześniejsza niż data „od”. Popraw jedną z nich." in html
    assert '<details class="filter" open>' in html
    # The folded summary does not claim a filter that was not applied.
    summary = html.split('<span class="filter-now">', 1)[1].split("</span>", 1)[0]
    assert summary == "filtr do poprawienia"


def test_statistics_page_names_every_refused_field_and_an_unknown_variant_as_the_history_does(
    client: FlaskClient, signed_in
):
    """An old bookmark (a variant id no longer on the list, a day that is none): each error
    stands next to its field at once, and the variant's in the words of the page's list, not
    the API's list of variant ids."""
    response = client.get("/statystyki?wariant=yahtzee&od=31.02.2025")

    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert marked_invalid(html, "od")
    assert marked_invalid(html, "wariant")
    assert "Nie ma takiego wariantu. Wybierz jeden z listy." in html
    assert "Znane warianty" not in html
    player = client.get(f"/gracze/{signed_in['players']['Ala']}/statystyki?wariant=yahtzee")
    assert player.status_code == 400
    assert "Nie ma takiego wariantu. Wybierz jeden z listy." in player.get_data(as_text=True)


def test_statistics_page_without_games_invites_to_play(client: FlaskClient):
    assert sign_up(client, "Nowi").status_code == 302

    text = text_of(client.get("/statystyki").get_data(as_text=True))

    assert "Statystyki pojawią się po pierwszej zakończonej grze." in text


def test_statistics_need_signing_in(client: FlaskClient):
    response = client.get("/statystyki")

    assert response.status_code == 302
    assert response.headers["Location"].startswith("/logowanie")


def test_player_page(client: FlaskClient, signed_in):
    ala = signed_in["players"]["Ala"]
    response = client.get(f"/gracze/{ala}/statystyki")

    assert response.status_code == 200
    html = response.get_data(as_text=True)
    text = text_of(html)
    assert "<h1>Ala</h1>" in html
    assert "Gry 4 Wygrane 2 Skuteczność 50% Najdłuższa seria 2" in text
    assert "Najlepszy wynik – Kości (tabela polska) 308" in text
    assert "Najczęściej skreślane: Generał – 1 raz na 3." in text
    assert 'id="chart-timeline"' in html
    assert 'id="chart-totals"' in html
    assert "Ala i Ola: 3 wspólne gry; wygrane: Ala 2, Ola 2." in text
    assert f'href="/gry/{signed_in["games"]["G5"]}"' in html  # the poker match, most recent


def test_player_page_names_a_shared_win_it_lost_with_a_plural_verb(
    app: Flask, client: FlaskClient, signed_in
):
    """„wygrywa Ala i Ola” is not Polish: two winners win („wygrywają”)."""
    with app.app_context():
        play_table_game(
            signed_in["account"],
            "standard",
            {"Ala": SHEETS["best"], "Ola": SHEETS["best"], "Jan": SHEETS["low_chance"]},
            "2025-06-01 18:00",
        )
    jan = signed_in["players"]["Jan"]
    text = text_of(client.get(f"/gracze/{jan}/statystyki").get_data(as_text=True))

    assert "3 gracze · wygrywają Ala i Ola" in text
    assert "wygrywa Ala i Ola" not in text


def test_a_players_page_keeps_the_days_of_the_filter_both_ways(client: FlaskClient, signed_in):
    # Statistics for a spring: each name leads to that player's spring, and back to the spring.
    ala = signed_in["players"]["Ala"]
    spring = "od=2025-04-01&amp;do=2025-05-31"
    html = client.get("/statystyki?od=2025-04-01&do=2025-05-31").get_data(as_text=True)

    results = html.split('id="wyniki"', 1)[1].split("</section>", 1)[0]
    assert f'href="/gracze/{ala}/statystyki?wariant=standard&amp;{spring}"' in results
    page = client.get(f"/gracze/{ala}/statystyki?wariant=standard&od=2025-04-01&do=2025-05-31")
    back = f'<a href="/statystyki?wariant=standard&amp;{spring}">← Statystyki wszystkich</a>'
    assert back in page.get_data(as_text=True)


def test_player_page_counts_the_solo_game_towards_personal_records(client: FlaskClient, signed_in):
    jan = signed_in["players"]["Jan"]
    text = text_of(client.get(f"/gracze/{jan}/statystyki").get_data(as_text=True))

    assert "Najlepszy wynik – Kości (tabela polska) 317 w pojedynkę, 20.04.2025" in text


def test_player_page_of_another_account_is_404(client: FlaskClient, signed_in):
    assert client.get(f"/gracze/{signed_in['zenon']}/statystyki").status_code == 404
    assert client.get("/gracze/999999/statystyki").status_code == 404


def test_player_page_filter_without_games(client: FlaskClient, signed_in):
    ala = signed_in["players"]["Ala"]
    text = text_of(
        client.get(f"/gracze/{ala}/statystyki?wariant=scandinavian").get_data(as_text=True)
    )

    assert "Ala nie ma zakończonej gry pasującej do filtru." in text


def test_players_list_links_each_player_to_their_statistics(client: FlaskClient, signed_in):
    html = client.get("/gracze").get_data(as_text=True)

    for player_id in signed_in["players"].values():
        assert f'href="/gracze/{player_id}/statystyki"' in html


def test_navigation_links_statistics_when_signed_in(client: FlaskClient, signed_in):
    html = client.get("/").get_data(as_text=True)
    assert '<a href="/statystyki">Statystyki</a>' in html

    page = client.get("/statystyki").get_data(as_text=True)
    assert '<a href="/statystyki" aria-current="page">Statystyki</a>' in page


# --- chart helpers -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "word"),
    [(1, "gra"), (2, "gry"), (4, "gry"), (5, "gier"), (12, "gier"), (22, "gry"), (112, "gier")],
)
def test_polish_plural(n: int, word: str):
    assert charts.plural(n, "gra", "gry", "gier") == word


def test_bar_chart_scales_the_longest_bar_to_the_room_left_for_its_value():
    chart = charts.bar_chart("c", "T", "S", ("a", "b"), [("Ala", 10, "10"), ("Ola", 5, "5")])

    assert [r.width for r in chart.rects] == [
        charts.WIDTH - charts.VALUE_ROOM,
        (charts.WIDTH - charts.VALUE_ROOM) / 2,
    ]
    assert chart.height == 2 * charts.BAR_ROW + 2
    assert [(r.label, r.value) for r in chart.rows] == [("Ala", "10"), ("Ola", "5")]


def test_column_chart_thins_out_labels_and_shows_each_year_once():
    months = [(f"m{i}", i, str(i)) for i in range(24)]
    labels = [(f"{i % 12 + 1}", str(2024 + i // 12)) for i in range(24)]
    chart = charts.column_chart("c", "T", "S", ("a", "b"), months, labels)

    years = [t.text for t in chart.texts if t.css == "chart-label-2"]
    firsts = [t for t in chart.texts if t.css == "chart-label"]
    assert years == ["2024", "2025"]
    assert len(firsts) < 24
    xs = [t.x for t in firsts]
    assert all(b - a >= 40 for a, b in zip(xs, xs[1:], strict=False))


def test_line_chart_of_one_game_labels_the_point_under_it():
    """After the first evening each player's chart of totals has one point, drawn in the middle
    of the axis: its date goes under it, not at the axis's left end as a first of many does."""
    one = charts.line_chart("c", "T", "S", ("a", "b"), [("3.12.2026", 316, "316")], ("3.12", ""))
    two = charts.line_chart(
        "c", "T", "S", ("a", "b"), [("1.12", 300, "300"), ("3.12", 316, "316")], ("1.12", "3.12")
    )

    (dot,) = one.dots
    (label,) = [t for t in one.texts if t.css == "chart-label"]
    assert (label.text, label.x, label.anchor) == ("3.12", dot.x, "middle")
    ticks = [t for t in one.texts if t.css == "chart-tick"]
    assert [t.text for t in ticks] == ["315", "316", "317"]  # the point on the middle line
    assert dot.y == ticks[1].y - 5
    labels = [(t.text, t.x, t.anchor) for t in two.texts if t.css == "chart-label"]
    assert labels == [("1.12", charts.LEFT, "start"), ("3.12", charts.WIDTH - charts.RIGHT, "end")]


def test_player_page_shows_no_extra_bonus_figure_for_the_scandinavian_table(
    client: FlaskClient, signed_in
):
    """The Scandinavian table has no +100 for a further Generał (DECISIONS.md): a player's
    row for it says nothing about +100, while the Polish table's row still counts them."""
    jan = signed_in["players"]["Jan"]
    html = client.get(f"/gracze/{jan}/statystyki").get_data(as_text=True)
    rows = re.findall(r'<tr role="row">\s*<th scope="row" role="rowheader">(.*?)</tr>', html, re.S)
    by_variant = {re.sub(r"<[^>]+>", "", row.split("</th>")[0]).strip(): row for row in rows}

    assert 'data-label="+100"' in by_variant["Kości (tabela polska)"]
    assert 'data-label="+100"' not in by_variant["Tabela skandynawska"]


def test_a_single_games_timeline_ticks_whole_points(app: Flask, client: FlaskClient):
    """A player with one game: the chart of totals spans one point, and its axis still counts
    in whole points (a total is never 418,5)."""
    assert sign_up(client, "Samotni").status_code == 302
    with app.app_context():
        account_id = db.session.query(Account.id).filter(Account.name == "Samotni").scalar()
        play_table_game(account_id, "standard", {"Zosia": SHEETS["best"]}, "2025-03-10 12:00")
        zosia = stats.find_player_id(account_id, "Zosia")

    html = client.get(f"/gracze/{zosia}/statystyki").get_data(as_text=True)
    chart = re.search(r'<svg class="chart-svg" id="chart-timeline".*?</svg>', html, re.S)

    assert chart
    ticks = re.findall(r'class="chart-tick"[^>]*>([^<]+)<', chart.group(0))
    assert len(ticks) == 3
    assert all(tick.isdigit() for tick in ticks), ticks
