"""Correcting an earlier turn: `PUT /api/v1/games/<id>/turns/<seq>` (bearer token required).

The body is the turn as it should have been, `{"dice": [...], "field": ..., "column": ...,
"expected_seq": ..., "expected_version": ...}` (a poker hand: dice only). Both `expected_` keys
are optional: the game's `next_seq` and `version` as the client saw them, a 409 when the game
has moved on, so that two clients correcting the same turn do not overwrite each other. The
answer is the whole game, as `GET /games/<id>` gives it. A correction the rules refuse answers
409 with the reason's code beside the message, `{"error": "...", "code": "field_taken_later"}`
(`api_errors` sends a service error's code), so a client decides on the code. A PUT of the
turn as it already is changes nothing and answers the game (200), whatever its
`expected_version`, so a retried request is harmless.
"""

from __future__ import annotations

from ..i18n import _
from ..services import InvalidInput, corrections, games
from . import JsonObject, api_errors, bp, read_json_object
from .auth import current_account, token_required
from .games import GAME, expected_seq, expected_version, game_json

BODY = frozenset({"dice", "field", "column", "expected_seq", "expected_version"})


@bp.put(f"/games/{GAME}/turns/<int:seq>")
@token_required
@api_errors
def correct_turn(game_id: int, seq: int) -> JsonObject:
    body = read_json_object(BODY)
    if "dice" not in body:
        raise InvalidInput(_("Brak pola dice."))
    dice = body["dice"]
    if not isinstance(dice, list):
        raise InvalidInput(_("Kości podaj jako listę pięciu liczb od 1 do 6."))
    account_id = current_account().id
    try:
        corrected = corrections.correct_turn(
            account_id,
            game_id,
            seq,
            dice,
            body.get("field"),
            body.get("column"),
            expected_seq=expected_seq(body.get("expected_seq")),
            expected_version=expected_version(body.get("expected_version")),
        )
    except corrections.NothingToCorrect:
        return game_json(games.load(account_id, game_id))
    return game_json(corrected.view)
