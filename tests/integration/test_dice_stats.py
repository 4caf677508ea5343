"""Dice statistics on hand-built games with known answers: Generały per 100 turns, the upper
bonus rate, fields crossed out, the first seat's advantage and nemeses (tracker/services/stats/
dice.py), through the services as real play writes them."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from stats_builders import new_account, play_table_game, scandinavian_sheet, standard_sheet

from tracker.extensions import db
from tracker.models import Account, Player
from tracker.services import accounts, games, stats
from tracker.services.stats import dice
from tracker.services.stats.streaks import GameResults

from .test_game_pages import sign_up

Sheet = list[tuple[str, str]]


def sheet(*, general: bool = True, bonus: bool = True, chance: str = "65432") -> Sheet:
    return standard_sheet(chance, general=general, bonus=bonus)


def lower(chance: str = "65432") -> Sheet:
    """The 308 sheet with another Szansa: its dice set the total (6+5+4+3+2 = 20 by default)."""
    return sheet(chance=chance)


def ids(account_id: int) -> dict[str, int]:
    rows = db.session.execute(
        db.select(Player.name, Player.id).where(Player.account_id == account_id)
    )
    return {name: pid for name, pid in rows}


# --- Generały, the upper bonus, crossed-out fields ---------------------------------------


def test_generals_per_100_turns_upper_bonus_and_crossed_out_rates(app: Flask):
    with app.app_context():
        account = new_account("Generałowie")
        # Ala: game 1 one Generał (in its field), game 2 none: 1 in 26 turns. Bonus in game 1
        # only; Generał crossed out in game 2.
        play_table_game(account, "standard", {"Ala": sheet(), "Ola": sheet()}, "2025-03-01 18:00")
        play_table_game(
            account,
            "standard",
            {"Ala": sheet(general=False, bonus=False), "Ola": sheet()},
            "2025-03-02 18:00",
        )
        # Another account's Ala rolls Generały too: never counted here.
        other = new_account("Obcy")
        play_table_game(other, "standard", {"Ala": sheet()}, "2025-03-03 18:00")

        (ala,) = [p for p in stats.player_stats(account, stats.GameFilter()) if p.name == "Ala"]
        f = ala.by_variant["standard"]
        fields = stats.field_figures(account, stats.GameFilter(), ids(account)["Ala"])

    assert (f.generals, f.turns) == (1, 26)
    assert f.generals_per_100_turns == pytest.approx(100 / 26)
    assert f.upper_bonus_rate == 0.5  # 1 of 2 games
    by_field = {fd.field: fd for fd in fields[0].fields}
    assert (by_field["five_of_a_kind"].written, by_field["five_of_a_kind"].crossed_out) == (2, 1)
    assert by_field["five_of_a_kind"].average == 25.0


def test_two_generals_in_twenty_turns_of_play_is_ten_per_hundred(app: Flask):
    """20 turns: a game of Kości potrójne is 39, so count the turns of a short variant instead:
    here the rate's arithmetic on 2 Generały over 20 turns."""
    assert stats.Figures(generals=2, turns=20).generals_per_100_turns == 10.0
    assert stats.Figures().generals_per_100_turns is None


def test_the_rate_of_two_in_twenty_through_recorded_games(app: Flask, client: FlaskClient):
    """The same 10 per 100 from real play: no table game lasts 20 turns (13, 15 or 39 a
    player), so two games of Skandynawskie, 30 turns, with three Generały: one in its field in
    each game and one more written in Trójka (three of a kind) in the second."""
    assert sign_up(client, "Dziesięć").status_code == 302
    with app.app_context():
        account = db.session.scalar(db.select(Account.id).where(Account.name == "Dziesięć"))
        assert account is not None
        twice = [
            ("44444", field) if field == "three_of_a_kind" else (dice_text, field)
            for dice_text, field in scandinavian_sheet()
        ]
        play_table_game(account, "scandinavian", {"Ala": scandinavian_sheet()}, "2025-03-01")
        play_table_game(account, "scandinavian", {"Ala": twice}, "2025-03-02")
        _, token = accounts.create_token(account, "test")
        (ala,) = stats.player_stats(account, stats.GameFilter())

    figures = ala.by_variant["scandinavian"]
    assert (figures.generals, figures.turns) == (3, 30)
    assert figures.generals_per_100_turns == pytest.approx(10.0)
    body = client.get("/api/v1/stats", headers={"Authorization": f"Bearer {token}"}).get_json()
    (player,) = body["players"]
    assert player["by_variant"]["scandinavian"]["turns"] == 30
    assert player["by_variant"]["scandinavian"]["generals"] == 3
    assert player["by_variant"]["scandinavian"]["generals_per_100_turns"] == 10.0


def test_an_undone_general_is_not_counted(app: Flask):
    with app.app_context():
        account = new_account("Cofający")
        game = games.create_game(account, "standard", ["Ala"])
        turns = sheet(general=False)
        # First a Generał written in Szansa, taken back: it is not a turn in force.
        games.record_turn(account, game.id, "55555", "chance")
        games.undo_last_turn(account, game.id)
        for dice_text, field in turns:
            games.record_turn(account, game.id, dice_text, field)
        (ala,) = stats.player_stats(account, stats.GameFilter())

    assert ala.by_variant["standard"].generals == 0
    assert ala.by_variant["standard"].turns == 13


# --- first seat ---------------------------------------------------------------------------


def test_first_seat_wins_with_a_shared_win_counted_for_each(app: Flask):
    with app.app_context():
        account = new_account("Stół")
        # Seat 0 wins, seat 0 wins, then a tie: each of the two seats wins.
        play_table_game(
            account, "standard", {"Ala": lower("66666"), "Ola": lower("11112")}, "2025-03-01"
        )
        play_table_game(
            account, "standard", {"Ola": lower("66655"), "Ala": lower("11112")}, "2025-03-02"
        )
        play_table_game(account, "standard", {"Ala": lower(), "Ola": lower()}, "2025-03-03")
        play_table_game(account, "standard", {"Jan": lower()}, "2025-03-04")  # alone: left out
        data = stats.overview(account, stats.GameFilter())

    assert data.seat_advantage == [stats.SeatAdvantage(2, 3, (3, 1))]
    assert data.seat_advantage[0].win_rate(0) == 1.0
    assert data.seat_advantage[0].win_rate(1) == pytest.approx(1 / 3)


# --- nemeses --------------------------------------------------------------------------------


def game(account: int, seats: dict[str, str], day: int) -> None:
    """A standard game whose totals are set by each seat's Szansa."""
    play_table_game(
        account, "standard", {name: lower(c) for name, c in seats.items()}, f"2025-04-{day:02d}"
    )


HIGH, MID, LOW = "66666", "44444", "11111"  # Szansa 30, 20, 5 (a Generał in Szansa: joker)


def test_nemesis_with_a_three_one_one_record(app: Flask):
    with app.app_context():
        account = new_account("Nemezis")
        for day in (1, 2, 3):
            game(account, {"Ala": LOW, "Ola": HIGH}, day)  # Ola ahead
        game(account, {"Ala": HIGH, "Ola": LOW}, 4)  # Ala ahead
        game(account, {"Ala": MID, "Ola": MID}, 5)  # a shared win: a draw
        game(account, {"Ala": HIGH, "Jan": LOW}, 6)  # two games only: no nemesis
        game(account, {"Ala": LOW, "Jan": HIGH}, 7)
        report = stats.player_report(
            account, db.session.get(Player, ids(account)["Ala"]), stats.GameFilter()
        )
        everyone = stats.overview(account, stats.GameFilter()).nemeses

    assert report.nemesis is not None
    n = report.nemesis
    assert (n.rival_name, n.games, n.wins, n.losses, n.draws) == ("Ola", 5, 3, 1, 1)
    # Ala is no nemesis of Ola's: ahead of her once, behind three times. Jan shared two games
    # with Ala: none either.
    assert [(x.name, x.rival_name, x.wins, x.losses, x.draws) for x in everyone] == [
        ("Ala", "Ola", 3, 1, 1),
    ]


@pytest.mark.parametrize(
    ("records", "expected"),
    [
        # (rival, games, rival ahead, player ahead): the larger share ahead wins ...
        ([("Ola", 5, 3, 1), ("Jan", 4, 3, 0)], "Jan"),
        # ... on equal shares, more games ahead ...
        ([("Ola", 3, 2, 1), ("Jan", 6, 4, 2)], "Jan"),
        # ... then fewer behind ...
        ([("Ola", 3, 2, 1), ("Jan", 3, 2, 0)], "Jan"),
        # ... then the name in Polish order (Łucja after Lena).
        ([("Łucja", 3, 2, 1), ("Lena", 3, 2, 1)], "Lena"),
    ],
    ids=["share", "more-ahead", "fewer-behind", "name"],
)
def test_nemesis_tie_breaks(records: list[tuple[str, int, int, int]], expected: str):
    who = {1: "Ala", **{i + 2: r[0] for i, r in enumerate(records)}}
    pairs = {
        (1, i + 2): (games, behind, ahead) for i, (_, games, ahead, behind) in enumerate(records)
    }
    found = dice.nemeses_of(pairs, 1, who)

    assert found[1].rival_name == expected


def test_nobody_is_a_nemesis_below_three_games_or_never_ahead():
    who = {1: "Ala", 2: "Ola", 3: "Jan"}
    pairs = {(1, 2): (2, 0, 2), (1, 3): (5, 5, 0)}  # Ola: two games; Jan: never ahead of Ala

    assert 1 not in dice.nemeses_of(pairs, None, who)
    assert dice.nemeses_of(pairs, None, who)[3].rival_name == "Ala"  # Ala: ahead of Jan 5 times


@pytest.mark.parametrize(
    ("record", "nemesis"),
    [
        ((5, 1, 3), None),  # Ola ahead once, behind three times: beaten, no nemesis
        ((4, 2, 2), None),  # as often ahead as behind: even, no nemesis
        ((4, 2, 1), "Ola"),  # ahead more often than behind, even under half the games
    ],
    ids=["beaten", "even", "better-record"],
)
def test_only_a_rival_with_the_better_record_is_a_nemesis(
    record: tuple[int, int, int], nemesis: str | None
):
    games, ola_ahead, ala_ahead = record
    pairs = {(1, 2): (games, ala_ahead, ola_ahead)}  # (games, 1 ahead, 2 ahead)

    found = dice.nemeses_of(pairs, None, {1: "Ala", 2: "Ola"})

    assert (found[1].rival_name if 1 in found else None) == nemesis


def test_a_nemesis_tie_between_two_rivals_in_one_game_counts_as_a_draw():
    # Seats packed as player × 32 + 16 for a win + place: Ala 1st with Ola (shared), Jan 3rd.
    results = GameResults([(1, "49,81,99", 0b11)] * 3)

    pairs = dice.rivalries(results)

    assert pairs[(1, 2)] == (3, 0, 0)  # draws
    assert pairs[(1, 3)] == (3, 3, 0)
    assert pairs[(2, 3)] == (3, 3, 0)
    # Jan's pairs only, as his player page counts them.
    assert dice.rivalries(results, 3) == {(1, 3): (3, 3, 0), (2, 3): (3, 3, 0)}
    assert dice.rivalries(results, 1) == {(1, 2): (3, 0, 0), (1, 3): (3, 3, 0)}
    assert dice.seat_advantage(results) == [stats.SeatAdvantage(3, 3, (3, 3, 0))]


# --- pages and API ----------------------------------------------------------------------------


def test_pages_and_api_show_the_dice_statistics(app: Flask, client: FlaskClient):
    assert sign_up(client, "Strony").status_code == 302
    with app.app_context():
        account = db.session.scalar(db.select(Account.id).where(Account.name == "Strony"))
        assert account is not None
        for day in (1, 2, 3):
            game(account, {"Ala": LOW, "Ola": HIGH}, day)
        _, token = accounts.create_token(account, "test")
        ala = ids(account)["Ala"]
        other = new_account("Inni")  # another account's games: never counted
        game(other, {"Ala": HIGH, "Ola": LOW}, 9)

    page = client.get("/statystyki").get_data(as_text=True)
    player = client.get(f"/gracze/{ala}/statystyki").get_data(as_text=True)
    body = client.get(
        "/api/v1/stats/rivals", headers={"Authorization": f"Bearer {token}"}
    ).get_json()

    assert "Kto zaczyna" in page
    assert "Jak liczymy" in page
    assert "2 gracze przy stole" in page
    assert "3 gry" in page
    assert "Nemezis" in player
    assert "3–0–0" in player
    assert body == {
        "seat_advantage": [
            {
                "players": 2,
                "games": 3,
                "seats": [
                    {"seat": 0, "wins": 0, "win_rate": 0.0},
                    {"seat": 1, "wins": 3, "win_rate": 1.0},
                ],
            }
        ],
        "nemeses": {"Ala": {"name": "Ola", "games": 3, "wins": 3, "losses": 0, "draws": 0}},
    }
