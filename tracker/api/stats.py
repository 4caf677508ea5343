"""`GET /api/v1/stats`: the account's statistics of finished games (bearer token required).
Per player, beside games, wins and totals, `skill`: per table variant, how they chose fields
against optimal play (`{"games", "turns", "loss_per_turn", "luck_per_game", "exact"}`, floats
to 2 decimals; `exact` false for Kości potrójne; games played with the hint left out).

Query parameters, all optional: `variant` (a variant id), `player` (a name, case ignored: games
that player took part in; repeat it for games all of them played together), `from` and `to`
(local days YYYY-MM-DD, both included). A name no player has gives zero games; an unknown
parameter or variant, a malformed day, a day at the calendar's ends (see
`tracker.services.inputs`), `from` after `to` or a repeated `variant`/`from`/`to` are 400
`{"error": ...}`.
"""

from __future__ import annotations

from flask import Response, jsonify, request

from ..services import InvalidInput, stats
from ..services.filters import read_filter
from ..web import local_zone
from . import api_errors, bp
from .auth import current_account, token_required

PARAMETERS = ("variant", "player", "from", "to")
SINGLE = ("variant", "from", "to")


@bp.get("/stats")
@token_required
@api_errors
def stats_summary() -> Response:
    unknown = sorted(set(request.args) - set(PARAMETERS))
    if unknown:
        known = ", ".join(PARAMETERS)
        raise InvalidInput(f"Nieznane parametry: {', '.join(unknown)}. Znane parametry: {known}.")
    repeated = [name for name in SINGLE if len(request.args.getlist(name)) > 1]
    if repeated:
        raise InvalidInput(f"Parametr {repeated[0]} można podać tylko raz.")
    account_id = current_account().id
    names = [n.strip() for n in request.args.getlist("player") if n.strip()]
    player_ids = [stats.find_player_id(account_id, name) for name in names]
    f = read_filter(
        variant=request.args.get("variant"),
        since=request.args.get("from"),
        until=request.args.get("to"),
        player_ids=[p for p in player_ids if p is not None],
        zone=local_zone(),
    )
    if None in player_ids:  # nobody of that name: no game of theirs
        return jsonify(stats.empty_api_summary())
    return jsonify(stats.api_summary(account_id, f))
