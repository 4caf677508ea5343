"""The game API: create games, write and undo turns, read games (bearer token required).

Views read the JSON, call the same services as the web pages and shape the answer; a
`ServiceError` becomes `{"error": message}` with its status (400, 404, 409).
"""

from __future__ import annotations

import json

from flask import Response, jsonify, request

from ..i18n import _
from ..services import InvalidInput, game_lists, games
from ..store.rows import TurnRow
from ..web import prefers_minimal
from . import JsonObject, api_errors, bp, read_json_object
from .auth import current_account, token_required

# `<int:...>` only matches ids the database can hold (see `tracker.app.RowIdConverter`).
GAME = "<int:game_id>"


def game_json(view: games.GameView) -> JsonObject:
    if view.is_poker:
        return poker_json(view)
    table = view.table
    name = [seat.player.name for seat in view.seats]
    players = []
    for seat in view.seats:
        totals = table.totals(seat.seat)
        sheet = table.sheets[seat.seat]
        players.append(
            {
                "name": seat.player.name,
                "total": totals.total,
                "columns": [
                    {"cells": dict(col.cells), **col_totals.as_dict()}
                    for col, col_totals in zip(sheet, totals.columns, strict=True)
                ],
            }
        )
    return {
        "id": view.game.id,
        "version": view.game.version,
        "variant": view.variant.id,
        "options": view.options.as_dict(),
        "hints": view.game.hints,
        "finished": view.finished,
        "round": table.round,
        "next_seq": view.next_seq,
        "current_player": view.current_name,
        "winners": view.winners,
        "players": players,
        "turns": [
            {
                "player": name[t.seat],
                "dice": list(t.dice_tuple),
                "field": t.field,
                "column": t.column,
                "points": t.points,
                "extra_bonus": t.extra_bonus,
            }
            for t in view.turns
        ],
    }


def turn_json(view: games.GameView, turn: TurnRow) -> JsonObject:
    return {
        "seq": turn.seq,
        "player": view.seats[turn.seat].player.name,
        "dice": list(turn.dice_tuple),
        "field": turn.field,
        "column": turn.column,
        "points": turn.points,
        "extra_bonus": turn.extra_bonus,
    }


def change_json(view: games.GameView) -> JsonObject:
    """The lean answer to a written turn (`Prefer: return=minimal`): the turn, the new figures
    of the seat that played it (in poker, every player's round wins: a hand can end a round),
    whose turn it is and the game's version; `GET /games/<id>` gives the rest."""
    turn = view.turns[-1]
    answer: JsonObject = {
        "id": view.game.id,
        "version": view.game.version,
        "finished": view.finished,
        "next_seq": view.next_seq,
        "current_player": view.current_name,
        "winners": view.winners,
        "turn": turn_json(view, turn),
    }
    if view.is_poker:
        answer["round"] = view.match.round_number
        answer["players"] = [
            {"name": seat.player.name, "round_wins": wins}
            for seat, wins in zip(view.seats, view.match.round_wins, strict=True)
        ]
    else:
        table = view.table
        totals = table.totals(turn.seat)
        answer["round"] = table.round
        answer["player"] = {
            "name": view.seats[turn.seat].player.name,
            "total": totals.total,
            "columns": [col.as_dict() for col in totals.columns],
        }
    return answer


def poker_json(view: games.GameView) -> JsonObject:
    match = view.match
    name = [s.player.name for s in view.seats]
    return {
        "id": view.game.id,
        "version": view.game.version,
        "variant": "poker",
        "options": view.options.as_dict(),
        "hints": False,
        "finished": view.finished,
        "round": match.round_number,
        "next_seq": view.next_seq,
        "current_player": view.current_name,
        "winners": view.winners,
        "players": [
            {"name": name[seat], "round_wins": wins} for seat, wins in enumerate(match.round_wins)
        ],
        "rounds": [
            {
                "number": r.number,
                "hands": [
                    {"player": name[seat], "dice": list(hand.dice), "hand": hand.hand.id}
                    for seat, hand in r.hands
                ],
                "winners": None if r.winners is None else [name[seat] for seat in r.winners],
                "explanation": r.explanation or None,
            }
            for r in match.rounds
        ],
    }


@bp.post("/games")
@token_required
@api_errors
def create_game() -> tuple[JsonObject, int]:
    body = read_json_object(frozenset({"variant", "players", "options", "hints"}))
    if "variant" not in body:
        raise InvalidInput(_("Brak pola variant."))
    names = body.get("players")
    if not isinstance(names, list):
        raise InvalidInput(_("Pole players musi być listą imion."))
    options = body.get("options")
    if options is not None and not isinstance(options, dict):
        raise InvalidInput(_("Pole options musi być obiektem."))
    # "hints": true or false (default false); true for dice poker is a 400 (no field to choose).
    hints = body.get("hints", False)
    view = games.create_game(current_account().id, body["variant"], names, options, hints=hints)
    return game_json(view), 201


@bp.get("/games")
@token_required
@api_errors
def list_games() -> JsonObject:
    return {
        "games": [
            {
                "id": game.id,
                "variant": game.variant,
                "players": [s.player.name for s in game.seats],
                "finished": game.finished,
                "winners": [s.player.name for s in game.seats if s.is_winner and game.finished],
                "started_at": game.started_at.isoformat(timespec="seconds") + "Z",
            }
            for game in game_lists.list_games(current_account().id)
        ]
    }


@bp.get(f"/games/{GAME}")
@token_required
@api_errors
def get_game(game_id: int) -> Response:
    """The whole game, with an ETag that every write changes: a client polling with
    `If-None-Match` gets `304 Not Modified` from one indexed read while nothing happened."""
    account_id = current_account().id
    etag = games.stamp(account_id, game_id)
    if request.if_none_match.contains_weak(etag):  # weak comparison (RFC 9110, 13.1.2)
        response = Response(status=304)
    else:
        view = games.load(account_id, game_id)
        response = jsonify(game_json(view))
        etag = view.game.stamp  # of what is sent, if a write came between
    response.set_etag(etag)
    return response


@bp.post(f"/games/{GAME}/turns")
@token_required
@api_errors
def record_turn(game_id: int) -> tuple[JsonObject, int] | Response:
    body = read_json_object(frozenset({"dice", "field", "column", "player", "expected_seq"}))
    if "dice" not in body:
        raise InvalidInput(_("Brak pola dice."))
    player = body.get("player")
    if player is not None and (not isinstance(player, str) or not player.strip()):
        raise InvalidInput(_("Pole player musi być imieniem gracza."))
    dice = body["dice"]
    if not isinstance(dice, list):
        raise InvalidInput(_("Kości podaj jako listę pięciu liczb od 1 do 6."))
    view = games.record_turn(
        current_account().id,
        game_id,
        dice,
        body.get("field"),
        body.get("column"),
        player=player,
        expected_seq=expected_seq(body.get("expected_seq")),
    )
    if prefers_minimal():
        return changes_response(view)
    return game_json(view), 201


_CHANGES_HEADERS = (("Preference-Applied", "return=minimal"), ("Vary", "Prefer"))


def changes_response(view: games.GameView) -> Response:
    """The lean answer, encoded as `jsonify` would (compact, UTF-8) but without its provider's
    per-call set-up: the browser and API clients get it for every turn they write."""
    body = json.dumps(change_json(view), ensure_ascii=False, separators=(",", ":")) + "\n"
    return Response(body, 201, _CHANGES_HEADERS, mimetype="application/json")


@bp.delete(f"/games/{GAME}/turns/last")
@token_required
@api_errors
def undo_turn(game_id: int) -> JsonObject:
    raw = request.args.get("expected_seq")
    expected = None if raw is None else expected_seq(int(raw) if _is_small_number(raw) else raw)
    return game_json(games.undo_last_turn(current_account().id, game_id, expected_seq=expected))


def _is_small_number(text: str) -> bool:
    # isascii: "²".isdigit() is true, but int("²") fails with a bare ValueError.
    return text.isascii() and text.isdigit() and len(text) <= 9


def expected_seq(value: object) -> int | None:
    """`expected_seq`: the seq the client expects the next turn to get (the game's `next_seq`).
    A retried request then finds it taken and answers 409 instead of writing twice."""
    if value is None:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or not 1 <= value <= games.MAX_TURNS_PER_GAME + 1
    ):
        raise InvalidInput(
            _(
                "Pole expected_seq musi być liczbą od 1 do %(most)d: next_seq gry, na której "
                "opiera się żądanie.",
                most=games.MAX_TURNS_PER_GAME + 1,
            )
        )
    return value


def expected_version(value: object) -> int | None:
    """`expected_version`: the game's `version` as the client saw it; another number is a 409."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 2**62:
        raise InvalidInput(
            _(
                "Pole expected_version musi być liczbą całkowitą od 0: version gry, na której "
                "opiera się żądanie."
            )
        )
    return value
