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
