"""The review of a game (bearer token): every turn's choice against optimal solitaire play.

`GET /api/v1/games/<id>/review` answers what the review page shows (`services.reviews`):
another account's game is a 404 like the other game endpoints, a dice-poker match a 409 with
the code `no_table_in_poker`. Expected points are rounded to 2 decimals.
"""

from __future__ import annotations

from ..services import reviews
from . import JsonObject, api_errors, bp
from .auth import current_account, token_required
from .games import GAME


def _points(value: float) -> float:
    return round(value, 2)


def player_json(player: reviews.PlayerReview) -> JsonObject:
    return {
        "name": player.name,
        "exact": player.exact,
        "expected_start": _points(player.expected_start),
        "total": player.total,
        "loss": _points(player.loss),
        "loss_per_turn": _points(player.loss_per_turn),
        "luck": _points(player.luck),
        "turns": [
            {
                "seq": t.seq,
                "dice": list(t.dice),
                "field": t.field,
                "column": t.column,
                "expected_before": _points(t.expected_before),
                "expected_after": _points(t.expected_after),
                "best": [{"column": m.column, "field": m.field} for m in t.best],
                "loss": _points(t.loss),
                "luck": _points(t.luck),
                "total": t.total,
            }
            for t in player.turns
        ],
    }


@bp.get(f"/games/{GAME}/review")
@token_required
@api_errors
def game_review(game_id: int) -> JsonObject:
    found = reviews.review_of(current_account().id, game_id)
    return {
        "id": found.game_id,
        "variant": found.variant.id,
        "options": found.options.as_dict(),
        "exact": found.exact,
        "finished": found.finished,
        "players": [player_json(p) for p in found.players],
    }
