"""The game API (/api/v1/games): whole games of every table variant checked against a replay
with the rules core, the moves the rules refuse (409), undo, bad input (400), tokens (401),
accounts kept apart (404), two phones writing the same turn at once, and the CLI commands."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from tracker import rules
from tracker.extensions import db
from tracker.models import Account, Game, GameSeat, Player, Turn, name_key, utcnow
from tracker.services import accounts
from tracker.services import games as games_service
from tracker.store import cache

from .apps import dispose_engines, make_app, release_app

GAMES = "/api/v1/games"
UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
STANDARD_ORDER = (
    *UPPER,
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "five_of_a_kind",
    "chance",
)
# Dice that fit a field of the standard table, so a scripted game can fill the sheet in order.
FILLER = {
    "ones": [1, 1, 1, 2, 3],
    "twos": [2, 2, 2, 3, 4],
    "threes": [3, 3, 3, 4, 5],
    "fours": [4, 4, 4, 5, 6],
    "fives": [5, 5, 5, 6, 1],
    "sixes": [6, 6, 6, 1, 2],
    "three_of_a_kind": [4, 4, 4, 1, 2],
    "four_of_a_kind": [5, 5, 5, 5, 1],
    "full_house": [2, 2, 3, 3, 3],
    "small_straight": [1, 2, 3, 4, 6],
    "large_straight": [2, 3, 4, 5, 6],
    "five_of_a_kind": [1, 1, 1, 1, 1],
    "chance": [6, 5, 4, 3, 3],
}
SIXES = [6, 6, 6, 6, 6]


# --- helpers -------------------------------------------------------------------------------


def account_with_token(app: Flask, name: str) -> str:
    """A new account and a live API token for it. The password is irrelevant here: the row gets
    a placeholder hash instead of a real (slow, scrypt) one."""
    with app.app_context():
        account = Account(name=name, name_key=name_key(name), password_hash="!")
        db.session.add(account)
        db.session.commit()
        _, plain = accounts.create_token(account.id, "tests")
    return plain


@dataclass
class Api:
    """The test client with one account's bearer token on every request."""

    client: FlaskClient
    token: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def get(self, url: str):
        return self.client.get(url, headers=self.headers)

    def post(self, url: str, body: Any):
        """POST `body` as JSON, even `None` (the client's `json=None` would send no body)."""
        return self.client.post(
            url, data=json.dumps(body), content_type="application/json", headers=self.headers
        )

    def post_raw(self, url: str, data: str | bytes, content_type: str = "application/json"):
        return self.client.post(url, data=data, content_type=content_type, headers=self.headers)

    def delete(self, url: str):
        return self.client.delete(url, headers=self.headers)

    def new_game(
        self,
        variant: str = "standard",
        players: Sequence[str] = ("Ala", "Ola"),
        options: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        body: dict[str, Any] = {"variant": variant, "players": list(players)}
        if options is not None:
            body["options"] = options
        response = self.post(GAMES, body)
        assert response.status_code == 201, response.get_json()
        return response.get_json()

    def turn(
        self,
        game_id: int,
        dice: Sequence[int],
        field_id: str,
        column: int | None = None,
        *,
        player: str | None = None,
        status: int = 201,
    ) -> dict[str, Any]:
        body: dict[str, Any] = {"dice": list(dice), "field": field_id}
        if column is not None:
            body["column"] = column
        if player is not None:
            body["player"] = player
        response = self.post(f"{GAMES}/{game_id}/turns", body)
        assert response.status_code == status, response.get_json()
        return response.get_json()

    def game(self, game_id: int) -> dict[str, Any]:
        response = self.get(f"{GAMES}/{game_id}")
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def undo(self, game_id: int, status: int = 200) -> dict[str, Any]:
        response = self.delete(f"{GAMES}/{game_id}/turns/last")
        assert response.status_code == status, response.get_json()
        return response.get_json()


def conflict(response) -> str:
    """The message of a 409 answer (the rules or the state of the game refuse the move)."""
    assert response.status_code == 409, response.get_json()
    message = response.get_json()["error"]
    assert isinstance(message, str)
    assert message.strip()
    return message


@pytest.fixture
def api(app: Flask, client: FlaskClient) -> Api:
    return Api(client, account_with_token(app, "Kowalscy"))


def fill_standard_sheet(api: Api, game_id: int, skip: Sequence[str] = ()) -> dict[str, Any]:
    """A one-player standard game: write every field (but `skip`) in table order."""
    data: dict[str, Any] = {}
    for field_id in STANDARD_ORDER:
        if field_id not in skip:
            data = api.turn(game_id, FILLER[field_id], field_id)
    return data


# --- whole games, checked against the rules core ------------------------------------------


@dataclass(frozen=True)
class Scripted:
    """A roll forced at one seat's n-th turn, with the figures the rules must give it."""

    dice: tuple[int, int, int, int, int]
    field_id: str
    column: int = 0
    points: int | None = None
    extra_bonus: int | None = None


@dataclass(frozen=True)
class Scenario:
    variant: str
    players: tuple[str, ...]
    seed: int
    options: dict[str, int] | None = None
    # (seat, that seat's turn index) -> the forced roll
    script: dict[tuple[int, int], Scripted] = field(default_factory=dict)


def five(face: int) -> tuple[int, int, int, int, int]:
    return (face, face, face, face, face)


SCENARIOS = [
    pytest.param(
        Scenario(
            "standard",
            ("Ala", "Ola"),
            seed=1,
            script={
                # Ala: Generał 50 first, so every later five of a kind earns +100.
                (0, 0): Scripted(five(6), "five_of_a_kind", points=50, extra_bonus=0),
                # Szóstki still free: not a joker, an ordinary roll that may go upstairs.
                (0, 1): Scripted(five(6), "sixes", points=30, extra_bonus=100),
                # Generał and Szóstki filled: a joker, full house 25, and +100 again.
                (0, 2): Scripted(five(6), "full_house", points=25, extra_bonus=100),
                # Ola crosses Generał out: later fives are jokers but never earn +100.
                (1, 0): Scripted((1, 2, 3, 4, 6), "five_of_a_kind", points=0, extra_bonus=0),
                (1, 1): Scripted(five(3), "threes", points=15, extra_bonus=0),
                (1, 2): Scripted(five(3), "small_straight", points=30, extra_bonus=0),
            },
        ),
        id="standard, 2 players, jokers and +100",
    ),
    pytest.param(
        Scenario(
            "ordered",
            ("Ala", "Ola", "Ela"),
            seed=2,
            options={"bonus_threshold": 42},
            script={
                # Two of each face: exactly 42 upstairs, the bonus at the lowered threshold.
                (0, 0): Scripted((1, 1, 2, 3, 4), "ones", points=2),
                (0, 1): Scripted((2, 2, 1, 3, 4), "twos", points=4),
                (0, 2): Scripted((3, 3, 1, 2, 4), "threes", points=6),
                (0, 3): Scripted((4, 4, 1, 2, 3), "fours", points=8),
                (0, 4): Scripted((5, 5, 1, 2, 3), "fives", points=10),
                (0, 5): Scripted((6, 6, 1, 2, 3), "sixes", points=12),
                (0, 11): Scripted(five(4), "five_of_a_kind", points=50, extra_bonus=0),
                # Szansa, the last field, is where Gra po kolei can take the +100.
                (0, 12): Scripted(five(2), "chance", points=10, extra_bonus=100),
            },
        ),
        id="ordered, 3 players, threshold 42",
    ),
    pytest.param(
        Scenario(
            "scandinavian",
            ("Ala", "Ola"),
            seed=3,
            script={
                (0, 0): Scripted(five(5), "five_of_a_kind", points=50, extra_bonus=0),
                # No extra bonus and no joker on the Scandinavian table.
                (0, 1): Scripted(five(5), "fives", points=25, extra_bonus=0),
                (0, 2): Scripted(five(5), "full_house", points=0, extra_bonus=0),
                (1, 0): Scripted((3, 3, 3, 5, 5), "two_pairs", points=16),
                (1, 1): Scripted((2, 3, 4, 5, 6), "small_straight", points=0),
            },
        ),
        id="scandinavian, 2 players",
    ),
    pytest.param(
        Scenario(
            "triple",
            ("Ala", "Ola"),
            seed=4,
            script={
                (0, 0): Scripted(five(6), "five_of_a_kind", 0, points=50, extra_bonus=0),
                # Not every Generał at 50 yet: no +100 in triple.
                (0, 1): Scripted(five(6), "five_of_a_kind", 1, points=50, extra_bonus=0),
                (0, 2): Scripted(five(6), "five_of_a_kind", 2, points=50, extra_bonus=0),
                (0, 3): Scripted(five(6), "sixes", 0, points=30, extra_bonus=100),
                (0, 4): Scripted(five(6), "sixes", 1, points=30, extra_bonus=100),
                (0, 5): Scripted(five(6), "sixes", 2, points=30, extra_bonus=100),
                # The rulebook's example: (40 + 100) × 3 = 420 towards the total.
                (0, 6): Scripted(five(6), "large_straight", 2, points=40, extra_bonus=100),
                (1, 0): Scripted(five(2), "five_of_a_kind", 1, points=50, extra_bonus=0),
            },
        ),
        id="triple, 2 players, the 420 example",
    ),
]


def roll(rng: random.Random) -> tuple[int, int, int, int, int]:
    """Random dice, with five of a kind far more often than real dice give it."""
    if rng.random() < 0.15:
        return five(rng.randint(1, 6))
    d = [rng.randint(1, 6) for _ in range(5)]
    return (d[0], d[1], d[2], d[3], d[4])


def choose(rng: random.Random, evaluation: rules.Evaluation) -> rules.Placement:
    """Mostly the move worth the most now, sometimes any legal one."""
    moves = evaluation.moves
    if rng.random() < 0.7:
        return max(moves, key=lambda p: p.gain)
    return rng.choice(moves)


def hand_totals(variant: rules.Variant, threshold: int, column: dict[str, Any]) -> int:
    """A column's total by plain arithmetic on the cells, the way players add up paper."""
    cells = column["cells"]
    upper = sum(points for fid, points in cells.items() if fid in UPPER)
    lower = sum(points for fid, points in cells.items() if fid not in UPPER)
    # "+35 when the six upper fields add up to 63 or more"; the Scandinavian table gives +50.
    bonus = (50 if variant.id == "scandinavian" else 35) if upper >= threshold else 0
    assert (column["upper"], column["upper_bonus"], column["lower"]) == (upper, bonus, lower)
    return (upper + bonus + lower + column["extra_bonus"]) * column["multiplier"]


def play_through_api(api: Api, scenario: Scenario) -> tuple[dict[str, Any], list[tuple]]:
    """Play a whole game; return the last answer and the turns sent (seat, dice, field, column).

    Each answer is checked on the way: whose turn it is, the round, the turn just written.
    """
    variant = rules.find_variant(scenario.variant)
    options = variant.parse_options(scenario.options)
    names = scenario.players
    players = len(names)
    game = api.new_game(scenario.variant, names, scenario.options)
    assert game["current_player"] == names[0]
    assert game["round"] == 1
    assert game["turns"] == []
    assert game["finished"] is False
    mirror = rules.TableGame(variant, players, options)  # only to know the legal moves
    rng = random.Random(scenario.seed)
    sent: list[tuple] = []
    data = game
    for k in range(variant.turns * players):
        seat = k % players
        forced = scenario.script.get((seat, k // players))
        if forced is not None:
            dice, field_id, column = forced.dice, forced.field_id, forced.column
        else:
            dice = roll(rng)
            move = choose(rng, mirror.evaluate(dice))
            field_id, column = move.field, move.column
            if variant.fixed_order:
                assert len(mirror.evaluate(dice).moves) == 1
        data = api.turn(
            game["id"],
            dice,
            field_id,
            column if variant.columns > 1 else None,
            player=names[seat] if k % 2 else None,  # with and without `player`
        )
        mirror.play(dice, field_id, column)
        sent.append((seat, dice, field_id, column))
        written = data["turns"][-1]
        assert len(data["turns"]) == k + 1
        assert written["player"] == names[seat]
        assert (written["dice"], written["field"], written["column"]) == (
            list(dice),
            field_id,
            column,
        )
        if forced is not None:
            if forced.points is not None:
                assert written["points"] == forced.points, (seat, k, forced)
            if forced.extra_bonus is not None:
                assert written["extra_bonus"] == forced.extra_bonus, (seat, k, forced)
        if k + 1 < variant.turns * players:
            assert data["current_player"] == names[(k + 1) % players]
            assert data["round"] == (k + 1) // players + 1
            assert data["finished"] is False
            assert data["winners"] == []
    return data, sent


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_whole_game_through_the_api_matches_a_replay_with_the_rules(
    app: Flask, api: Api, scenario: Scenario
):
    variant = rules.find_variant(scenario.variant)
    options = variant.parse_options(scenario.options)
    names = list(scenario.players)

    final, sent = play_through_api(api, scenario)

    # The end of the game.
    assert final["finished"] is True
    assert final["current_player"] is None
    assert final["round"] == variant.turns
    assert len(final["turns"]) == len(variant.table.fields) * variant.columns * len(names)
    assert final["variant"] == scenario.variant
    assert final["options"] == options.as_dict()
    # Every figure, against an independent replay of the dice sent (points recomputed).
    replayed = rules.TableGame.replay(
        variant, len(names), [(d, f, c) for _, d, f, c in sent], options
    )
    assert replayed.finished
    assert final["turns"] == [
        {
            "player": names[t.seat],
            "dice": list(t.dice),
            "field": t.field,
            "column": t.column,
            "points": t.points,
            "extra_bonus": t.extra_bonus,
        }
        for t in replayed.turns
    ]
    assert [p["name"] for p in final["players"]] == names
    for seat, player in enumerate(final["players"]):
        own = [(d, f, c) for s, d, f, c in sent if s == seat]
        sheet = rules.replay(variant, own, options)
        totals = rules.sheet_totals(variant, sheet, options)
        assert player["columns"] == [
            {"cells": dict(col.cells), **col_totals.as_dict()}
            for col, col_totals in zip(sheet, totals.columns, strict=True)
        ]
        assert player["total"] == totals.total == replayed.scores[seat]
        by_hand = [
            hand_totals(variant, options.bonus_threshold, column) for column in player["columns"]
        ]
        assert [c["total"] for c in player["columns"]] == by_hand
        assert player["total"] == sum(by_hand)
        assert [c["multiplier"] for c in player["columns"]] == list(variant.multipliers)
        for column in player["columns"]:
            assert len(column["cells"]) == len(variant.table.fields)
    scores = [p["total"] for p in final["players"]]
    assert final["winners"] == [n for n, s in zip(names, scores, strict=True) if s == max(scores)]
    # GET and the list say the same; the cached figures in the database agree.
    assert api.game(final["id"]) == final
    (listed,) = api.get(GAMES).get_json()["games"]
    assert listed["id"] == final["id"]
    assert listed["finished"] is True
    assert listed["winners"] == final["winners"]
    assert listed["players"] == names
    with app.app_context():
        game = db.session.get(Game, final["id"])
        assert game.finished_at is not None
        assert [s.total for s in game.seats] == scores
        assert [s.is_winner for s in game.seats] == [s == max(scores) for s in scores]
        assert [s.place for s in game.seats] == list(rules.places_of(scores))


def test_the_scripted_triple_game_credits_the_420_of_the_rulebook(api: Api):
    game = api.new_game("triple", ["Ala"])
    for column in range(3):
        api.turn(game["id"], SIXES, "five_of_a_kind", column)
    for column in range(3):
        api.turn(game["id"], SIXES, "sixes", column)
    before = api.game(game["id"])["players"][0]["total"]

    after = api.turn(game["id"], SIXES, "large_straight", 2)

    assert after["players"][0]["total"] - before == 420
    assert after["players"][0]["columns"][2]["extra_bonus"] == 200


def test_equal_highest_totals_share_the_win(app: Flask, api: Api):
    game = api.new_game("standard", ["Ala", "Ola"])
    for field_id in STANDARD_ORDER:
        api.turn(game["id"], FILLER[field_id], field_id)  # Ala
        api.turn(game["id"], FILLER[field_id], field_id)  # Ola, the same

    final = api.game(game["id"])

    assert final["finished"] is True
    assert final["players"][0]["total"] == final["players"][1]["total"]
    assert final["winners"] == ["Ala", "Ola"]
    with app.app_context():
        seats = db.session.get(Game, game["id"]).seats
        assert [(s.is_winner, s.place) for s in seats] == [(True, 1), (True, 1)]


def test_a_one_player_game_has_its_player_as_the_winner(api: Api):
    game = api.new_game("standard", ["Ala"])

    final = fill_standard_sheet(api, game["id"])

    assert final["finished"] is True
    assert final["winners"] == ["Ala"]


def test_players_are_matched_by_name_case_ignored_and_created_when_new(app: Flask, api: Api):
    api.new_game("standard", ["Ala", "Ola"])

    again = api.new_game("standard", ["  ala ", "OLA", "Ela"])

    assert [p["name"] for p in again["players"]] == ["Ala", "Ola", "Ela"]
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(GameSeat)) == 5
        assert db.session.scalar(select(func.count()).select_from(Player)) == 3


def test_a_new_game_answers_201_with_the_whole_empty_game(api: Api):
    response = api.post(
        GAMES,
        {"variant": "standard", "players": ["Ala", "Ola"], "options": {"bonus_threshold": 42}},
    )

    assert response.status_code == 201
    game = response.get_json()
    assert set(game) == {
        "id",
        "version",
        "variant",
        "options",
        "hints",
        "finished",
        "round",
        "next_seq",
        "current_player",
        "winners",
        "players",
        "turns",
    }
    assert (game["version"], game["next_seq"]) == (0, 1)
    assert game["hints"] is False  # „Podpowiedzi” is off unless asked for
    # Only Gra po kolei lowers the threshold; the options in force are reported.
    assert game["options"] == {"bonus_threshold": 63}
    assert game["players"][0] == {
        "name": "Ala",
        "total": 0,
        "columns": [
            {
                "cells": {},
                "upper": 0,
                "upper_bonus": 0,
                "lower": 0,
                "extra_bonus": 0,
                "multiplier": 1,
                "total": 0,
            }
        ],
    }
    (listed,) = api.get(GAMES).get_json()["games"]
    assert set(listed) == {"id", "variant", "players", "finished", "winners", "started_at"}
    assert listed["players"] == ["Ala", "Ola"]
    assert listed["finished"] is False
    assert listed["winners"] == []


# --- moves the rules refuse: 409 -----------------------------------------------------------


def test_a_joker_may_not_go_upstairs_while_a_lower_field_is_free(api: Api):
    game = api.new_game("standard", ["Ala"])
    api.turn(game["id"], SIXES, "five_of_a_kind")
    api.turn(game["id"], SIXES, "sixes")

    response = api.post(f"{GAMES}/{game['id']}/turns", {"dice": SIXES, "field": "fives"})

    assert "Joker musi trafić do wolnego pola dolnej części" in conflict(response)
    assert response.get_json()["code"] == "joker_must_go_lower"  # the rules' own code
    assert len(api.game(game["id"])["turns"]) == 2


def test_a_joker_goes_upstairs_as_zero_with_its_bonus_once_the_lower_section_is_full(api: Api):
    game = api.new_game("standard", ["Ala"])
    api.turn(game["id"], SIXES, "five_of_a_kind")
    api.turn(game["id"], SIXES, "sixes")
    for field_id in ("three_of_a_kind", "four_of_a_kind", "full_house", "small_straight"):
        api.turn(game["id"], FILLER[field_id], field_id)
    api.turn(game["id"], FILLER["large_straight"], "large_straight")
    api.turn(game["id"], FILLER["chance"], "chance")

    data = api.turn(game["id"], SIXES, "ones")

    assert data["turns"][-1]["points"] == 0
    assert data["turns"][-1]["extra_bonus"] == 100


def test_a_filled_field_is_refused(api: Api):
    game = api.new_game("standard", ["Ala", "Ola"])
    api.turn(game["id"], [1, 1, 2, 3, 4], "ones")
    api.turn(game["id"], [1, 1, 2, 3, 4], "twos")

    response = api.post(f"{GAMES}/{game['id']}/turns", {"dice": [1, 1, 1, 3, 4], "field": "ones"})

    assert "jest już wypełnione" in conflict(response)


def test_ordered_refuses_any_field_but_the_next_one(api: Api):
    game = api.new_game("ordered", ["Ala"])
    api.turn(game["id"], [1, 1, 2, 3, 4], "ones")

    response = api.post(f"{GAMES}/{game['id']}/turns", {"dice": SIXES, "field": "sixes"})

    assert "Gra po kolei" in conflict(response)
    assert api.turn(game["id"], [2, 2, 2, 3, 4], "twos")["turns"][-1]["points"] == 6


def test_a_finished_game_refuses_another_turn(api: Api):
    game = api.new_game("standard", ["Ala"])
    fill_standard_sheet(api, game["id"])

    response = api.post(f"{GAMES}/{game['id']}/turns", {"dice": SIXES, "field": "chance"})
    with_player = api.post(
        f"{GAMES}/{game['id']}/turns", {"dice": SIXES, "field": "chance", "player": "Ala"}
    )

    assert "zakończona" in conflict(response)
    assert "zakończona" in conflict(with_player)
    assert response.get_json()["code"] == with_player.get_json()["code"] == "game_finished"


def test_a_turn_naming_another_player_is_refused(api: Api):
    game = api.new_game("standard", ["Ala", "Ola"])

    response = api.post(
        f"{GAMES}/{game['id']}/turns", {"dice": SIXES, "field": "sixes", "player": "Ola"}
    )

    assert "kolej gracza Ala" in conflict(response)
    assert response.get_json()["code"] == "not_their_turn"
    assert api.game(game["id"])["turns"] == []


def test_a_turn_naming_the_current_player_is_written_case_ignored(api: Api):
    game = api.new_game("standard", ["Ala", "Ola"])

    data = api.turn(game["id"], SIXES, "sixes", player="ALA")

    assert data["turns"][-1]["player"] == "Ala"
    assert data["current_player"] == "Ola"


def test_a_retried_turn_with_its_player_is_stored_once(app: Flask, api: Api):
    game = api.new_game("standard", ["Ala", "Ola"])
    body = {"dice": SIXES, "field": "sixes", "player": "Ala"}

    first = api.post(f"{GAMES}/{game['id']}/turns", body)
    second = api.post(f"{GAMES}/{game['id']}/turns", body)

    assert first.status_code == 201
    conflict(second)
    assert len(api.game(game["id"])["turns"]) == 1
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Turn)) == 1


def test_a_turn_from_a_client_behind_an_undo_says_the_turn_was_taken_back(api: Api):
    # The client saw next_seq 3; another phone took turn 2 back, so next_seq is 2 again.
    # Nothing was written meanwhile: "already written" would send the client looking for a
    # turn that is not there. The refusal says what happened, with the code of a changed game.
    game = api.new_game("standard", ["Ala", "Ola"])
    api.turn(game["id"], SIXES, "sixes")
    api.turn(game["id"], [1, 1, 1, 2, 3], "ones")
    api.undo(game["id"])

    response = api.post(
        f"{GAMES}/{game['id']}/turns", {"dice": SIXES, "field": "chance", "expected_seq": 3}
    )

    assert response.status_code == 409
    assert response.get_json() == {
        "error": "Na innym telefonie cofnięto ruch. Teraz kolej: Ola.",
        "code": "game_changed",
    }
    assert [t["field"] for t in api.game(game["id"])["turns"]] == ["sixes"]


# --- undo --------------------------------------------------------------------------------


def test_undo_goes_back_to_the_start_one_turn_at_a_time(app: Flask, api: Api):
    game = api.new_game("standard", ["Ala", "Ola"])
    written = [
        api.turn(game["id"], [1, 1, 2, 3, 4], "ones"),
        api.turn(game["id"], [2, 2, 2, 3, 4], "twos"),
        api.turn(game["id"], [3, 3, 3, 4, 5], "threes"),
        api.turn(game["id"], SIXES, "five_of_a_kind"),
    ]

    for count in (3, 2, 1, 0):
        data = api.undo(game["id"])
        assert data["turns"] == written[count]["turns"][:count]
        assert data["players"] == (written[count - 1]["players"] if count else game["players"])
        assert data["current_player"] == ["Ala", "Ola"][count % 2]
        assert data["round"] == count // 2 + 1

    at_the_start = api.delete(f"{GAMES}/{game['id']}/turns/last")
    assert "Nie ma czego cofać" in conflict(at_the_start)
    assert at_the_start.get_json()["code"] == "nothing_to_undo"
    # The same game as at the start; only its version tells that it went through 8 writes.
    assert api.game(game["id"]) == {**game, "version": 8}
    with app.app_context():
        turns = db.session.scalars(select(Turn).order_by(Turn.id)).all()
        assert [t.seq for t in turns] == [1, 2, 3, 4]
        assert all(t.undone_at is not None for t in turns)
        assert [t.field for t in turns] == ["ones", "twos", "threes", "five_of_a_kind"]


def test_undo_after_the_end_reopens_the_game_for_the_same_player(app: Flask, api: Api):
    game = api.new_game("standard", ["Ala", "Ola"])
    for field_id in STANDARD_ORDER:
        api.turn(game["id"], FILLER[field_id], field_id)
        last = api.turn(game["id"], [1, 2, 3, 4, 6], field_id)
    assert last["finished"] is True

    reopened = api.undo(game["id"])

    assert reopened["finished"] is False
    assert reopened["current_player"] == "Ola"
    assert reopened["winners"] == []
    assert reopened["round"] == 13
    assert len(reopened["turns"]) == 25
    assert "chance" not in reopened["players"][1]["columns"][0]["cells"]
    (listed,) = api.get(GAMES).get_json()["games"]
    assert listed["finished"] is False
    assert listed["winners"] == []
    with app.app_context():
        stored = db.session.get(Game, game["id"])
        assert stored.finished_at is None
        assert not any(s.is_winner for s in stored.seats)
        assert all(s.place is None for s in stored.seats)
    # Written again, differently: a new row with the same seq; the undone one stays.
    again = api.turn(game["id"], SIXES, "chance", player="Ola")
    assert again["finished"] is True
    assert again["turns"][-1]["points"] == 30
    with app.app_context():
        rows = db.session.scalars(select(Turn).where(Turn.seq == 26).order_by(Turn.id)).all()
        assert [(r.dice, r.undone_at is None) for r in rows] == [("12346", False), ("66666", True)]


def test_undo_takes_back_the_extra_bonus_too(api: Api):
    game = api.new_game("standard", ["Ala"])
    api.turn(game["id"], SIXES, "five_of_a_kind")
    before = api.game(game["id"])
    api.turn(game["id"], SIXES, "sixes")

    after_undo = api.undo(game["id"])

    assert after_undo == {**before, "version": before["version"] + 2}
    assert after_undo["players"][0]["columns"][0]["extra_bonus"] == 0


# --- bad input: 400, and nothing changes ---------------------------------------------------


@pytest.fixture(scope="module")
def shared_app(tmp_path_factory: pytest.TempPathFactory, backend: str) -> Iterator[Flask]:
    """One app for the tables of bad requests, which must leave every game unchanged."""
    app = make_app(tmp_path_factory.mktemp("bad_input"), backend=backend, TESTING=True)
    yield app
    release_app(app)


@dataclass(frozen=True)
class SharedGames:
    api: Api
    standard: int
    triple: int
    ordered: int


@pytest.fixture(scope="module")
def shared(shared_app: Flask) -> SharedGames:
    api = Api(shared_app.test_client(), account_with_token(shared_app, "Kowalscy"))
    standard = api.new_game("standard", ["Ala", "Ola"])["id"]
    triple = api.new_game("triple", ["Ala", "Ola"])["id"]
    ordered = api.new_game("ordered", ["Ala", "Ola"])["id"]
    return SharedGames(api, standard, triple, ordered)


def bad_request(response) -> str:
    assert response.status_code == 400, (response.status_code, response.get_data(as_text=True))
    assert response.is_json
    message = response.get_json()["error"]
    assert isinstance(message, str)
    assert message.strip()
    return message


def games_snapshot(shared: SharedGames) -> list[Any]:
    api = shared.api
    return [
        api.get(GAMES).get_json(),
        *(api.game(g) for g in (shared.standard, shared.triple, shared.ordered)),
    ]


MALFORMED_BODIES = [
    pytest.param("{", id="malformed JSON"),
    pytest.param('{"variant": "standard",}', id="trailing comma"),
    pytest.param("", id="empty body"),
    pytest.param(b'{"field": "\xff"}', id="not UTF-8"),
    pytest.param("[" * 100_000 + "]" * 100_000, id="nested deeper than the parser goes"),
    pytest.param("[]", id="body is an array"),
    pytest.param('"standard"', id="body is a string"),
    pytest.param("null", id="body is null"),
    pytest.param("42", id="body is a number"),
]


@pytest.mark.parametrize("body", MALFORMED_BODIES)
@pytest.mark.parametrize("endpoint", ["create a game", "write a turn"])
def test_a_body_that_is_not_a_json_object_is_400(
    shared: SharedGames, endpoint: str, body: str | bytes
):
    before = games_snapshot(shared)
    url = GAMES if endpoint == "create a game" else f"{GAMES}/{shared.standard}/turns"

    bad_request(shared.api.post_raw(url, body))

    assert games_snapshot(shared) == before


TOO_MANY = [f"Gracz {i}" for i in range(9)]

BAD_NEW_GAMES = [
    pytest.param({"players": ["Ala"]}, id="variant missing"),
    pytest.param({"variant": "standard"}, id="players missing"),
    pytest.param({"variant": None, "players": ["Ala"]}, id="variant null"),
    pytest.param({"variant": ["standard"], "players": ["Ala"]}, id="variant a list"),
    pytest.param({"variant": "yahtzee", "players": ["Ala"]}, id="unknown variant"),
    pytest.param({"variant": "Standard", "players": ["Ala"]}, id="variant in capitals"),
    pytest.param({"variant": "poker", "players": ["Ala"]}, id="poker needs two players"),
    pytest.param({"variant": "standard", "players": "Ala"}, id="players a string"),
    pytest.param({"variant": "standard", "players": []}, id="no players"),
    pytest.param({"variant": "standard", "players": TOO_MANY}, id="nine players"),
    pytest.param({"variant": "standard", "players": ["Ala", "ala"]}, id="same name twice"),
    pytest.param({"variant": "standard", "players": ["Ala", " ALA "]}, id="same name, spaces"),
    pytest.param({"variant": "standard", "players": [""]}, id="empty name"),
    pytest.param({"variant": "standard", "players": ["   "]}, id="blank name"),
    pytest.param({"variant": "standard", "players": ["A" * 31]}, id="31-character name"),
    pytest.param({"variant": "standard", "players": ["!!!"]}, id="name without a letter"),
    pytest.param({"variant": "standard", "players": [7]}, id="name a number"),
    pytest.param({"variant": "standard", "players": [None]}, id="name null"),
    pytest.param(
        {"variant": "ordered", "players": ["Ala"], "options": {"bonus_threshold": 50}},
        id="threshold 50",
    ),
    pytest.param(
        {"variant": "ordered", "players": ["Ala"], "options": {"bonus_threshold": "42"}},
        id="threshold a string",
    ),
    pytest.param(
        {"variant": "ordered", "players": ["Ala"], "options": {"bonus_threshold": 42.0}},
        id="threshold a float",
    ),
    pytest.param(
        {"variant": "ordered", "players": ["Ala"], "options": {"bonus_threshold": True}},
        id="threshold true",
    ),
    pytest.param(
        {"variant": "standard", "players": ["Ala"], "options": {"target_wins": 3}},
        id="unknown option",
    ),
    pytest.param({"variant": "standard", "players": ["Ala"], "options": [42]}, id="options a list"),
    pytest.param(
        {"variant": "standard", "players": ["Ala"], "colour": "red"}, id="unknown key in the body"
    ),
]


@pytest.mark.parametrize("body", BAD_NEW_GAMES)
def test_a_new_game_with_bad_input_is_400_and_creates_nothing(
    shared: SharedGames, body: dict[str, Any]
):
    before = games_snapshot(shared)

    bad_request(shared.api.post(GAMES, body))

    assert games_snapshot(shared) == before


def test_a_31_character_name_is_refused_but_30_are_fine(shared_app: Flask):
    api = Api(shared_app.test_client(), account_with_token(shared_app, "Nowakowie"))

    bad_request(api.post(GAMES, {"variant": "standard", "players": ["Ą" * 31]}))
    game = api.new_game("standard", ["Ą" * 30])

    assert game["players"][0]["name"] == "Ą" * 30


BAD_TURNS = [
    pytest.param("standard", {"field": "chance"}, id="dice missing"),
    pytest.param("standard", {"dice": [1, 2, 3, 4, 5]}, id="field missing"),
    pytest.param("standard", {"dice": None, "field": "chance"}, id="dice null"),
    pytest.param("standard", {"dice": [1, 2, 3, 4], "field": "chance"}, id="four dice"),
    pytest.param("standard", {"dice": [1, 2, 3, 4, 5, 6], "field": "chance"}, id="six dice"),
    pytest.param("standard", {"dice": [1, 2, 3, 4, 7], "field": "chance"}, id="a die 7"),
    pytest.param("standard", {"dice": [0, 2, 3, 4, 5], "field": "chance"}, id="a die 0"),
    pytest.param("standard", {"dice": [1, 2, "3", 4, 5], "field": "chance"}, id='a die "3"'),
    pytest.param("standard", {"dice": [1, 2, True, 4, 5], "field": "chance"}, id="a die true"),
    pytest.param("standard", {"dice": [1, 2, 3.0, 4, 5], "field": "chance"}, id="a die 3.0"),
    pytest.param("standard", {"dice": [1, 2, None, 4, 5], "field": "chance"}, id="a die null"),
    pytest.param("standard", {"dice": "12345", "field": "chance"}, id="dice a string"),
    pytest.param("standard", {"dice": {"0": 1}, "field": "chance"}, id="dice an object"),
    pytest.param("standard", {"dice": [1, 2, 3, 4, 5], "field": "yahtzee"}, id="unknown field"),
    pytest.param("standard", {"dice": [1, 2, 3, 4, 5], "field": None}, id="field null"),
    pytest.param("standard", {"dice": [1, 2, 3, 4, 5], "field": ["chance"]}, id="field a list"),
    pytest.param("standard", {"dice": [1, 1, 3, 4, 5], "field": "pair"}, id="pair on standard"),
    pytest.param(
        "standard", {"dice": [1, 1, 3, 3, 5], "field": "two_pairs"}, id="two_pairs on standard"
    ),
    pytest.param(
        "standard", {"dice": [1, 2, 3, 4, 5], "field": "chance", "column": 1}, id="column 1"
    ),
    pytest.param(
        "standard", {"dice": [1, 2, 3, 4, 5], "field": "chance", "column": "0"}, id='column "0"'
    ),
    pytest.param(
        "standard", {"dice": [1, 2, 3, 4, 5], "field": "chance", "player": 1}, id="player 1"
    ),
    pytest.param(
        "standard", {"dice": [1, 2, 3, 4, 5], "field": "chance", "player": ""}, id="player empty"
    ),
    pytest.param(
        "standard", {"dice": [1, 2, 3, 4, 5], "field": "chance", "seq": 1}, id="unknown key"
    ),
    pytest.param("triple", {"dice": [1, 2, 3, 4, 5], "field": "chance"}, id="triple, no column"),
    pytest.param(
        "triple", {"dice": [1, 2, 3, 4, 5], "field": "chance", "column": None}, id="column null"
    ),
    pytest.param(
        "triple", {"dice": [1, 2, 3, 4, 5], "field": "chance", "column": 3}, id="column 3"
    ),
    pytest.param(
        "triple", {"dice": [1, 2, 3, 4, 5], "field": "chance", "column": -1}, id="column -1"
    ),
    pytest.param(
        "triple", {"dice": [1, 2, 3, 4, 5], "field": "chance", "column": "1"}, id='column "1"'
    ),
    pytest.param(
        "triple", {"dice": [1, 2, 3, 4, 5], "field": "chance", "column": True}, id="column true"
    ),
    pytest.param(
        "triple", {"dice": [1, 2, 3, 4, 5], "field": "chance", "column": 1.0}, id="column 1.0"
    ),
    pytest.param(
        "ordered", {"dice": [1, 2, 3, 4, 5], "field": "pair"}, id="ordered, unknown field"
    ),
]


@pytest.mark.parametrize(("variant", "body"), BAD_TURNS)
def test_a_turn_with_bad_input_is_400_and_writes_nothing(
    shared: SharedGames, variant: str, body: dict[str, Any]
):
    game_id = getattr(shared, variant)
    before = games_snapshot(shared)

    bad_request(shared.api.post(f"{GAMES}/{game_id}/turns", body))

    assert games_snapshot(shared) == before


def test_a_body_that_is_not_json_at_all_is_refused_with_a_json_error(shared: SharedGames):
    response = shared.api.post_raw(GAMES, "variant=standard", "application/x-www-form-urlencoded")

    assert response.status_code == 415
    assert "JSON" in response.get_json()["error"]


IMPOSSIBLE_IDS = ["0", "999999", "9223372036854775807", "9223372036854775808", "1" * 40]


@pytest.mark.parametrize("game_id", IMPOSSIBLE_IDS)
def test_a_game_that_does_not_exist_is_404_on_every_endpoint(shared: SharedGames, game_id: str):
    api = shared.api
    answers = [
        api.get(f"{GAMES}/{game_id}"),
        api.post(f"{GAMES}/{game_id}/turns", {"dice": SIXES, "field": "sixes"}),
        api.delete(f"{GAMES}/{game_id}/turns/last"),
    ]

    for response in answers:
        assert response.status_code == 404, response.get_data(as_text=True)
        assert response.get_json()["error"]


@pytest.mark.parametrize("game_id", ["abc", "-1", "1.5"])
def test_a_game_id_that_is_not_a_number_is_a_json_404(shared: SharedGames, game_id: str):
    response = shared.api.get(f"{GAMES}/{game_id}")

    assert response.status_code == 404
    assert response.get_json()["error"]


# --- 401: no token, a wrong one, a revoked one ---------------------------------------------

ENDPOINTS = [
    pytest.param("GET", GAMES, id="list games"),
    pytest.param("POST", GAMES, id="create a game"),
    pytest.param("GET", f"{GAMES}/1", id="get a game"),
    pytest.param("POST", f"{GAMES}/1/turns", id="write a turn"),
    pytest.param("DELETE", f"{GAMES}/1/turns/last", id="undo"),
]


@pytest.fixture(scope="module")
def revoked_token(shared_app: Flask, shared: SharedGames) -> str:
    token = account_with_token(shared_app, "Dawni")
    with shared_app.app_context():
        account = db.session.scalar(select(Account).where(Account.name_key == "dawni"))
        (row,) = accounts.list_tokens(account.id)
        accounts.revoke_token(account.id, row.id)
    return token


@pytest.mark.parametrize(("method", "url"), ENDPOINTS)
@pytest.mark.parametrize(
    "authorization",
    [
        pytest.param(None, id="no header"),
        pytest.param("", id="empty header"),
        pytest.param("Bearer", id="scheme without a token"),
        pytest.param("Basic a293YWxzY3k6c2VrcmV0", id="Basic scheme"),
        pytest.param("Token {token}", id="wrong scheme, right token"),
        pytest.param("{token}", id="token without a scheme"),
        pytest.param("Bearer kosci_unknown", id="unknown token"),
        pytest.param("Bearer {token}x", id="token with a character more"),
        pytest.param("Bearer {revoked}", id="revoked token"),
    ],
)
def test_every_endpoint_is_401_without_a_live_token(
    shared: SharedGames, revoked_token: str, method: str, url: str, authorization: str | None
):
    headers = {}
    if authorization is not None:
        headers["Authorization"] = authorization.format(
            token=shared.api.token, revoked=revoked_token
        )

    response = shared.api.client.open(
        url, method=method, headers=headers, json={"variant": "standard", "players": ["Ala"]}
    )

    assert response.status_code == 401
    assert response.get_json()["error"]
    assert response.headers["WWW-Authenticate"].startswith("Bearer")


def test_a_token_revoked_on_the_account_page_stops_working_at_once(app: Flask, api: Api):
    assert api.get(GAMES).status_code == 200
    with app.app_context():
        account = db.session.scalar(select(Account))
        (row,) = accounts.list_tokens(account.id)
        accounts.revoke_token(account.id, row.id)

    assert api.get(GAMES).status_code == 401


def test_the_bearer_scheme_is_case_insensitive(api: Api):
    response = api.client.get(GAMES, headers={"Authorization": f"bearer {api.token}"})

    assert response.status_code == 200


# --- accounts are kept apart ---------------------------------------------------------------


def test_another_accounts_game_is_404_everywhere_and_not_listed(
    app: Flask, client: FlaskClient, api: Api
):
    game = api.new_game("standard", ["Ala", "Ola"])
    api.turn(game["id"], SIXES, "sixes")
    before = api.game(game["id"])
    other = Api(client, account_with_token(app, "Nowakowie"))

    answers = [
        other.get(f"{GAMES}/{game['id']}"),
        other.post(f"{GAMES}/{game['id']}/turns", {"dice": SIXES, "field": "sixes"}),
        other.post(
            f"{GAMES}/{game['id']}/turns", {"dice": SIXES, "field": "fives", "player": "Ola"}
        ),
        other.delete(f"{GAMES}/{game['id']}/turns/last"),
    ]

    assert [r.status_code for r in answers] == [404, 404, 404, 404]
    # The same answer as for a game that does not exist: nothing tells the game is there.
    missing = other.get(f"{GAMES}/999")
    assert {r.get_json()["error"] for r in answers} == {missing.get_json()["error"]}
    assert other.get(GAMES).get_json() == {"games": []}
    assert api.game(game["id"]) == before


def test_players_of_another_account_are_not_shared(app: Flask, client: FlaskClient, api: Api):
    api.new_game("standard", ["Ala"])
    other = Api(client, account_with_token(app, "Nowakowie"))

    other.new_game("standard", ["ALA"])

    with app.app_context():
        players = db.session.scalars(select(Player).order_by(Player.id)).all()
        assert [(p.name, p.account_id) for p in players] == [("Ala", 1), ("ALA", 2)]


# --- two phones writing the same turn at the same moment -----------------------------------


def test_the_same_turn_sent_by_two_phones_at_once_is_stored_once(app: Flask, api: Api):
    game = api.new_game("standard", ["Ala", "Ola"])
    names = ("Ala", "Ola")
    rounds = 20
    barrier = threading.Barrier(2, timeout=10)
    outcome: list[list[Any]] = [[None, None] for _ in range(rounds)]

    def phone(index: int) -> None:
        client = app.test_client()
        for k in range(rounds):
            body = {
                "dice": [6, 6, 6, 5, 5],
                "field": STANDARD_ORDER[k // 2],
                "player": names[k % 2],
            }
            try:
                barrier.wait()
                response = client.post(
                    f"{GAMES}/{game['id']}/turns", json=body, headers=api.headers
                )
                outcome[k][index] = response.status_code
            except Exception as exc:  # a 500 propagates in TESTING: record it, don't hang
                outcome[k][index] = repr(exc)
                barrier.abort()
                return

    threads = [threading.Thread(target=phone, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert all(sorted(map(str, pair)) == ["201", "409"] for pair in outcome), outcome
    final = api.game(game["id"])
    assert len(final["turns"]) == rounds
    assert [t["player"] for t in final["turns"]] == [names[k % 2] for k in range(rounds)]
    with app.app_context():
        in_force = db.session.execute(
            select(Turn.seq, func.count())
            .where(Turn.game_id == game["id"], Turn.undone_at.is_(None))
            .group_by(Turn.seq)
            .order_by(Turn.seq)
        ).all()
        assert [tuple(row) for row in in_force] == [(seq, 1) for seq in range(1, rounds + 1)]


@pytest.mark.parametrize("held", [True, False], ids=["state held", "state read"])
def test_a_turn_sent_while_another_is_being_written_is_written_once(
    app: Flask, api: Api, monkeypatch: pytest.MonkeyPatch, held: bool
):
    """The other phone sends the same turn while this request has decided it and not yet
    written it: one of the two writes it, the other decides again on what that one wrote and
    gets a 409. Nothing is decided on a stale state. `held`: this process holds the game's
    state (the turn is decided before the lock and written only if the game has not changed:
    on PostgreSQL the other phone may then come first); else the game is read under its lock
    (the other phone waits for it)."""
    game = api.new_game("standard", ["Ala", "Ola"])
    if not held:
        cache.clear()
    url = f"{GAMES}/{game['id']}/turns"
    body = {"dice": SIXES, "field": "sixes", "player": "Ala"}
    original = games_service._decide
    other_phone: list[Any] = []
    started = threading.Event()

    def send_from_the_other_phone() -> None:
        started.set()
        other_phone.append(app.test_client().post(url, json=body, headers=api.headers))

    thread = threading.Thread(target=send_from_the_other_phone)

    def other_phone_sends_after_this_decision(*args: Any, **kwargs: Any) -> Any:
        turn = original(*args, **kwargs)
        if not thread.is_alive() and not started.is_set():
            # Its own thread, so its own app context and database session.
            thread.start()
            started.wait(timeout=10)
            time.sleep(0.2)  # let it reach the lock (or write first) while this one waits
        return turn

    monkeypatch.setattr(games_service, "_decide", other_phone_sends_after_this_decision)

    response = api.post(url, body)
    thread.join(timeout=10)

    answers = [response, *other_phone]
    assert sorted(r.status_code for r in answers) == [201, 409]
    refused = next(r for r in answers if r.status_code == 409)
    assert "kolej gracza Ola" in refused.get_json()["error"]
    monkeypatch.undo()
    final = api.game(game["id"])
    assert len(final["turns"]) == 1
    assert final["current_player"] == "Ola"
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Turn)) == 1


def test_the_database_stores_one_turn_in_force_per_seq(app: Flask, api: Api):
    game = api.new_game("standard", ["Ala"])

    def turn(**extra: Any) -> Turn:
        return Turn(game_id=game["id"], seq=1, seat=0, dice="66666", field="sixes", **extra)

    with app.app_context():
        db.session.add(turn(points=30))
        db.session.commit()
        db.session.add(turn(points=30))
        with pytest.raises(IntegrityError):
            db.session.commit()
        db.session.rollback()
        db.session.add(turn(points=30, undone_at=utcnow()))
        db.session.add(turn(points=30, undone_at=utcnow()))
        db.session.commit()
        assert db.session.scalar(select(func.count()).select_from(Turn)) == 3


# --- the CLI -------------------------------------------------------------------------------


def test_create_account_then_create_token_gives_a_token_that_works(
    app: Flask, runner: FlaskCliRunner
):
    created = runner.invoke(args=["create-account", "Kowalscy", "--password", "sekretne hasło"])
    assert created.exit_code == 0, created.output

    result = runner.invoke(args=["create-token", "kowalscy"])

    assert result.exit_code == 0, result.output
    token = result.output.strip().splitlines()[-1]
    api = Api(app.test_client(), token)
    assert api.get(GAMES).status_code == 200
    assert api.new_game("standard", ["Ala"])["current_player"] == "Ala"
    with app.app_context():
        assert accounts.authenticate("Kowalscy", "sekretne hasło", "127.0.0.1").name == "Kowalscy"


def test_each_create_token_prints_a_new_token(app: Flask, runner: FlaskCliRunner):
    runner.invoke(args=["create-account", "Kowalscy", "--password", "sekretne hasło"])

    first = runner.invoke(args=["create-token", "Kowalscy"]).output.strip().splitlines()[-1]
    second = runner.invoke(args=["create-token", "Kowalscy", "--label", "drugi"])

    assert second.output.strip().splitlines()[-1] != first


def test_create_token_for_an_unknown_account_fails_with_a_clear_message(
    runner: FlaskCliRunner,
):
    result = runner.invoke(args=["create-token", "Nikt"])

    assert result.exit_code != 0
    assert "Nie ma konta 'Nikt'" in result.output
    assert "kosci_" not in result.output


@pytest.mark.parametrize(
    ("name", "password", "message"),
    [
        pytest.param("Kowalscy", "krótkie has", "co najmniej 12", id="11-character password"),
        pytest.param("  ", "sekretne hasło", "Podaj nazwę konta", id="blank name"),
        pytest.param("KOWALSCY", "sekretne hasło", "już istnieje", id="name taken, case ignored"),
    ],
)
def test_create_account_refuses_bad_input_with_the_reason(
    app: Flask, runner: FlaskCliRunner, name: str, password: str, message: str
):
    account_with_token(app, "Kowalscy")

    result = runner.invoke(args=["create-account", name, "--password", password])

    assert result.exit_code != 0
    assert message in result.output


def test_recompute_restores_the_cached_figures_from_the_turns(
    app: Flask, api: Api, runner: FlaskCliRunner
):
    game = api.new_game("standard", ["Ala", "Ola"])
    for field_id in STANDARD_ORDER:
        api.turn(game["id"], FILLER[field_id], field_id)
        api.turn(game["id"], [1, 2, 3, 4, 6], field_id)
    expected = api.game(game["id"])
    with app.app_context():
        for seat in db.session.scalars(select(GameSeat)):
            seat.total, seat.is_winner, seat.place = 999, False, 7
        for turn in db.session.scalars(select(Turn)):
            turn.points, turn.extra_bonus = 0, 100
        db.session.get(Game, game["id"]).finished_at = None
        db.session.commit()
    assert api.game(game["id"]) != expected  # the answer trusts the stored points

    result = runner.invoke(args=["recompute"])

    assert result.exit_code == 0, result.output
    assert "Przeliczono gry: 1." in result.output
    assert api.game(game["id"]) == {**expected, "version": expected["version"] + 1}
    with app.app_context():
        stored = db.session.get(Game, game["id"])
        assert stored.finished_at is not None
        totals = [p["total"] for p in expected["players"]]
        assert [(s.total, s.is_winner, s.place) for s in stored.seats] == [
            (totals[0], True, 1),
            (totals[1], False, 2),
        ]


def test_recompute_with_no_games_says_so(runner: FlaskCliRunner):
    result = runner.invoke(args=["recompute"])

    assert result.exit_code == 0
    assert "Przeliczono gry: 0." in result.output


def test_a_game_goes_on_exactly_where_it_was_after_a_server_restart(tmp_path, backend):
    first = make_app(tmp_path, backend=backend)
    with first.app_context():
        account = accounts.create_account("Restart", "sekretne hasło 123")
        _, token = accounts.create_token(account.id, "t")
    headers = {"Authorization": f"Bearer {token}"}
    client = first.test_client()
    game = client.post(
        GAMES, json={"variant": "triple", "players": ["Ala", "Ola"]}, headers=headers
    ).get_json()
    turns = [([6, 6, 6, 6, 6], "five_of_a_kind", 0), ([1, 2, 3, 4, 5], "chance", 2)]
    for dice, field_id, column in turns:
        response = client.post(
            f"{GAMES}/{game['id']}/turns",
            json={"dice": dice, "field": field_id, "column": column},
            headers=headers,
        )
        assert response.status_code == 201
    before = client.get(f"{GAMES}/{game['id']}", headers=headers).get_json()
    dispose_engines(first)

    second = make_app(tmp_path, backend=backend)  # a new process on the same database
    client = second.test_client()
    after = client.get(f"{GAMES}/{game['id']}", headers=headers).get_json()
    assert after == before
    assert after["current_player"] == "Ala"
    response = client.post(
        f"{GAMES}/{game['id']}/turns",
        json={"dice": [3, 3, 3, 5, 5], "field": "full_house", "column": 1, "player": "Ala"},
        headers=headers,
    )
    assert response.status_code == 201
    assert response.get_json()["players"][0]["columns"][1]["cells"] == {"full_house": 25}
    release_app(second)


# --- the lean answer to a turn (Prefer: return=minimal) -----------------------------------------


def post_lean(api: Api, game_id: int, body: dict[str, Any]):
    return api.client.post(
        f"{GAMES}/{game_id}/turns",
        json=body,
        headers={**api.headers, "Prefer": "return=minimal"},
    )


def test_a_turn_answers_the_whole_game_unless_the_client_prefers_less(api: Api):
    game = api.new_game("standard", ["Ala", "Ola"])

    whole = api.post(f"{GAMES}/{game['id']}/turns", {"dice": SIXES, "field": "sixes"})
    lean = post_lean(api, game["id"], {"dice": [1, 1, 1, 2, 3], "field": "ones"})

    assert "turns" in whole.get_json()
    assert "Preference-Applied" not in whole.headers
    assert lean.status_code == 201
    assert lean.headers["Preference-Applied"] == "return=minimal"
    assert "Prefer" in lean.headers["Vary"]
    answer = lean.get_json()
    assert "turns" not in answer
    assert "players" not in answer


def test_the_lean_answer_says_what_changed_as_the_whole_game_does(api: Api):
    game = api.new_game("standard", ["Ala", "Ola"])
    api.turn(game["id"], SIXES, "sixes")

    answer = post_lean(api, game["id"], {"dice": [1, 1, 1, 2, 3], "field": "ones"}).get_json()
    whole = api.get(f"{GAMES}/{game['id']}").get_json()

    assert answer["turn"] == {"seq": 2, **whole["turns"][-1]}
    assert answer["turn"]["player"] == "Ola"
    assert answer["turn"]["points"] == 3
    ola = whole["players"][1]
    assert answer["player"] == {
        "name": "Ola",
        "total": ola["total"],
        "columns": [{k: v for k, v in c.items() if k != "cells"} for c in ola["columns"]],
    }
    for key in ("id", "version", "finished", "next_seq", "current_player", "winners", "round"):
        assert answer[key] == whole[key], key
    assert answer["current_player"] == "Ala"
    assert answer["next_seq"] == 3


def test_the_lean_answer_of_a_poker_hand_gives_every_players_round_wins(api: Api):
    game = api.new_game("poker", ["Ala", "Ola"])
    api.post(f"{GAMES}/{game['id']}/turns", {"dice": SIXES})

    answer = post_lean(api, game["id"], {"dice": [1, 2, 3, 4, 6]}).get_json()
    whole = api.get(f"{GAMES}/{game['id']}").get_json()

    assert answer["turn"]["player"] == "Ola"
    assert answer["turn"]["field"] is None
    assert answer["players"] == whole["players"]
    assert answer["players"][0]["round_wins"] == 1
    assert answer["round"] == whole["round"]
    assert answer["version"] == whole["version"]


@pytest.mark.parametrize(
    ("path", "raw"),
    [
        pytest.param("", '{"variant": "standard", "players": ["Ala"], "\\ud800": 1}', id="game"),
        pytest.param("", '{"variant": "standard", "players": ["Ala\\udc00"]}', id="player"),
        pytest.param(
            "/{id}/turns", '{"dice": [1, 1, 1, 2, 3], "field": "ones", "\\ud800": 1}', id="turn"
        ),
        pytest.param(
            "/{id}/turns",
            '{"dice": [1, 1, 1, 2, 3], "field": "ones", "player": "\\udc00"}',
            id="player-of-a-turn",
        ),
        pytest.param(
            "/{id}/turns/1",
            '{"dice": [1, 1, 1, 2, 3], "field": "ones", "\\udfff": 0}',
            id="correction",
        ),
        pytest.param("/{id}/invitations", '{"mode": "\\ud800"}', id="invitation"),
    ],
)
def test_half_of_a_utf16_pair_in_a_body_is_a_400_and_writes_nothing(api: Api, path: str, raw: str):
    game = api.new_game()
    api.turn(game["id"], [6, 6, 6, 1, 2], "sixes")
    url = GAMES + path.format(id=game["id"])
    send = api.client.put if url.endswith("/turns/1") else api.client.post

    response = send(url, data=raw, content_type="application/json", headers=api.headers)

    assert response.status_code == 400, response.get_data(as_text=True)
    assert "połowę pary znaków UTF-16" in response.get_json()["error"]
    after = api.game(game["id"])
    assert [t["field"] for t in after["turns"]] == ["sixes"]
    assert len(api.get(GAMES).get_json()["games"]) == 1


def test_an_unknown_variant_for_a_new_game_names_poker_among_the_known_ones(api: Api):
    # A game may be started in dice poker, so the refusal must not leave it out of the list
    # (the rules endpoints, which have no poker table, keep naming the table variants only).
    response = api.post(GAMES, {"variant": "yahtzee", "players": ["Ala", "Ola"]})

    assert response.status_code == 400
    assert response.get_json()["error"] == (
        "Nieznany wariant 'yahtzee'. Znane warianty: standard, ordered, scandinavian, triple, "
        "poker."
    )
    score = api.post("/api/v1/score", {"variant": "yahtzee", "dice": [1, 2, 3, 4, 5]})
    assert score.get_json()["error"].endswith(
        "Znane warianty: standard, ordered, scandinavian, triple."
    )


def test_a_game_polled_with_its_etag_answers_304_also_when_a_proxy_made_it_weak(api: Api):
    # If-None-Match compares weakly (RFC 9110, 13.1.2): a proxy that compresses the answer
    # (nginx's gzip) turns the ETag into W/"…", and the client sends that back.
    game = api.new_game()
    first = api.get(f"{GAMES}/{game['id']}")
    etag = first.headers["ETag"]

    for sent in (etag, f"W/{etag}"):
        again = api.client.get(
            f"{GAMES}/{game['id']}", headers={**api.headers, "If-None-Match": sent}
        )
        assert again.status_code == 304, sent
        assert again.get_data() == b""

    api.turn(game["id"], SIXES, "sixes")
    moved = api.client.get(
        f"{GAMES}/{game['id']}", headers={**api.headers, "If-None-Match": f"W/{etag}"}
    )
    assert moved.status_code == 200
    assert moved.headers["ETag"] != etag
