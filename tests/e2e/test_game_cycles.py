"""A game deleted and started again, over and over, by two accounts, with every turn on a fresh
connection (so on any of `flask serve`'s workers). SQLite without AUTOINCREMENT gives a new game
the id of the one just deleted, and its turns the ids of the deleted turns: whatever the ids, no
worker may judge the new game by a sheet it remembers from the old one. Every legal move is
accepted and the sheet is exactly what was written."""

from __future__ import annotations

import random
from itertools import cycle

import pytest

from tracker import rules
from tracker.extensions import db
from tracker.models import Game
from tracker.services import trash

from .web import Api, Browserless, legal_move, new_account, sheet_in, sheet_of

# Twelve rounds: the cycles of variants (4), players (2) and turns (3) meet every variant with
# every game length once.
ROUNDS = 12
# Turns written per game, round after round: a game longer than the one deleted before it
# passes through the state (turns in force, newest turn id) its predecessor was left in.
TURNS = (4, 7, 10)
VARIANTS = ["standard", "scandinavian", "ordered", "triple"]
PLAYERS = [["Ala", "Ola"], ["Jan", "Ela", "Ola"]]


def play_turns(
    api: Api, game_id: int, table: rules.TableGame, rng: random.Random, turns: int
) -> None:
    for _ in range(turns):
        dice = tuple(sorted(rng.randint(1, 6) for _ in range(5)))
        move = legal_move(table, dice, rng.choice)
        answer = api.turn(game_id, move)
        assert answer.status == 201, (
            f"game {game_id}, turn {len(table.turns) + 1}: the legal move {move} answered {answer}"
        )
        table.play(dice, move["field"], move["column"])
        assert sheet_in(answer.json()) == sheet_of(table), f"game {game_id}: sheet after {move}"


@pytest.mark.parametrize("deleted_by", ["the delete form", "another process"])
def test_games_deleted_and_started_again_are_judged_by_their_own_turns(live_server, deleted_by):
    families = []
    for family in ("Kowalscy", "Nowakowie"):
        name, token = new_account(live_server, family)
        phone = Browserless(live_server.url)
        if deleted_by == "the delete form":
            phone.sign_in(name)
        families.append((Api(live_server.url, token), phone, name))
    rng = random.Random(f"cycles {deleted_by}")

    for round_, variant, players, turns, (api, phone, _) in zip(
        range(ROUNDS), cycle(VARIANTS), cycle(PLAYERS), cycle(TURNS), cycle(families), strict=False
    ):
        created = api.create_game(variant, players)
        game_id = created["id"]
        assert sheet_in(created) == [[{}] * rules.find_variant(variant).columns] * len(players)
        table = rules.TableGame(rules.find_variant(variant), len(players))
        play_turns(api, game_id, table, rng, turns)

        game = api.game(game_id)
        assert game["variant"] == variant
        assert [p["name"] for p in game["players"]] == players
        assert sheet_in(game) == sheet_of(table), f"round {round_}: game {game_id}"
        assert [(t["field"], t["column"], t["points"]) for t in game["turns"]] == [
            (t.field, t.column, t.points) for t in table.turns
        ]
        assert [p["total"] for p in game["players"]] == list(table.scores)

        if deleted_by == "the delete form":
            answer = phone.post_form(f"/gry/{game_id}/usun", {})
            assert answer.status == 303, answer
        else:  # e.g. a second `flask serve`, or a script, on the same database
            with live_server.app.app_context():
                account_id = db.session.get(Game, game_id).account_id
                trash.delete_game(account_id, game_id)
        assert api.call("GET", f"/games/{game_id}").status == 404
