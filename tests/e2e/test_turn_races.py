"""A turn written on one phone at the moment another phone takes back the last turn: whichever
wins, the game stays whole (turns in force numbered 1, 2, 3 … without a gap, the sheet holding
exactly those turns), and the next turn and the next undo work."""

from __future__ import annotations

import random

from sqlalchemy import select

from tracker import rules
from tracker.extensions import db
from tracker.models import Turn

from .web import Answer, Api, at_once, legal_move, new_account, sheet_in

ROUNDS = 30
STANDARD = rules.find_variant("standard")


def roll(rng: random.Random) -> rules.Dice:
    return tuple(sorted(rng.randint(1, 6) for _ in range(5)))


def replay(game: dict) -> rules.TableGame:
    """The game's turns in force, played again through the rules."""
    table = rules.TableGame(STANDARD, len(game["players"]))
    for turn in game["turns"]:
        table.play(tuple(turn["dice"]), turn["field"], turn["column"])
    return table


def test_a_turn_racing_an_undo_leaves_a_whole_game(live_server):
    _, token = new_account(live_server, "Wyścig")
    api = Api(live_server.url, token)
    rng = random.Random("turn races undo")

    for round_ in range(ROUNDS):
        game = api.create_game("standard", ["Ala", "Ola"])
        game_id = game["id"]
        table = rules.TableGame(STANDARD, 2)
        for _ in range(1 + round_ % 3):
            dice = roll(rng)
            move = legal_move(table, dice, rng.choice)
            assert api.turn(game_id, move).status == 201
            table.play(dice, move["field"], move["column"])

        move = legal_move(table, roll(rng), rng.choice)
        turn, undo = at_once(
            lambda game_id=game_id, move=move: api.turn(game_id, move),
            lambda game_id=game_id: api.undo(game_id),
        )
        assert isinstance(turn, Answer), turn
        assert isinstance(undo, Answer), undo
        assert turn.status in (201, 409), f"round {round_}: the turn answered {turn}"
        assert undo.status in (200, 409), f"round {round_}: the undo answered {undo}"

        after = api.call("GET", f"/games/{game_id}")
        assert after.status == 200, f"round {round_}: {after}"
        game = after.json()
        with live_server.app.app_context():
            seqs = db.session.scalars(
                select(Turn.seq)
                .where(Turn.game_id == game_id, Turn.undone_at.is_(None))
                .order_by(Turn.seq)
            ).all()
        assert seqs == list(range(1, len(seqs) + 1)), f"round {round_}: turns in force {seqs}"
        assert len(game["turns"]) == len(seqs)
        cells = sum(len(c["cells"]) for p in game["players"] for c in p["columns"])
        assert cells == len(game["turns"]), f"round {round_}: {cells} cells, {game['turns']}"
        seats = [p["name"] for p in game["players"]]
        assert [t["player"] for t in game["turns"]] == [
            seats[i % len(seats)] for i in range(len(game["turns"]))
        ]
        table = replay(game)
        assert sheet_in(game) == [[dict(c.cells) for c in sheet] for sheet in table.sheets]

        # The game goes on: one more turn, then an undo of it.
        dice = roll(rng)
        move = legal_move(table, dice, rng.choice)
        written = api.turn(game_id, move)
        assert written.status == 201, f"round {round_}: the next turn answered {written}"
        assert len(written.json()["turns"]) == len(game["turns"]) + 1
        taken_back = api.undo(game_id)
        assert taken_back.status == 200, f"round {round_}: the next undo answered {taken_back}"
        assert taken_back.json()["turns"] == game["turns"]


CORRECTION_ROUNDS = 12


def test_two_corrections_of_one_turn_at_once_one_is_written_the_other_is_told(live_server):
    """Two phones correct the same turn at the same moment, from the same version of the game:
    one correction is written, the other answers 409 and writes nothing (a correction leaves
    `next_seq` as it is, so only the version tells them apart). Through the real server, its
    workers and its lock."""
    _, token = new_account(live_server, "Poprawki")
    api = Api(live_server.url, token)
    wanted = ([2, 2, 3, 3, 3], [4, 4, 4, 2, 2])  # both a full house: both allowed alone

    for round_ in range(CORRECTION_ROUNDS):
        game = api.create_game("standard", ["Ala", "Ola"])
        game_id = game["id"]
        for move in (
            {"dice": [2, 2, 3, 3, 4], "field": "full_house", "column": 0},
            {"dice": [1, 2, 3, 4, 5], "field": "large_straight", "column": 0},
        ):
            assert api.turn(game_id, move).status == 201
        seen = api.game(game_id)
        basis = {"field": "full_house", "column": 0, "expected_seq": seen["next_seq"]}
        basis["expected_version"] = seen["version"]

        url = f"/games/{game_id}/turns/1"
        answers = at_once(
            *(
                lambda body={"dice": dice, **basis}, url=url: api.call("PUT", url, body)
                for dice in wanted
            )
        )
        assert all(isinstance(a, Answer) for a in answers), answers
        statuses = sorted(a.status for a in answers)  # type: ignore[union-attr]
        assert statuses == [200, 409], f"round {round_}: {answers}"
        winner = next(a for a in answers if a.status == 200)  # type: ignore[union-attr]
        after = api.game(game_id)
        assert after == winner.json()  # type: ignore[union-attr]
        assert after["turns"][0]["points"] == 25
        assert after["version"] == seen["version"] + 1  # one write, not two
        with live_server.app.app_context():
            rows = db.session.scalars(
                select(Turn.undone_at).where(Turn.game_id == game_id, Turn.seq == 1)
            ).all()
        assert len(rows) == 2, f"round {round_}: the turn and one correction, not {rows}"
