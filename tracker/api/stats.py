"""`GET /api/v1/stats`: the account's statistics of finished games (bearer token required).
Per player, beside games, wins and totals, `by_variant` (per variant games and wins; for a table
variant also `average`, `best`, `worst`, `columns`, `upper_bonuses`, `upper_bonus_rate` per
column, `turns`, `generals`, `generals_per_100_turns`, `extra_bonuses`) and `skill`: per table
variant, how they chose fields against optimal play (`{"games", "turns", "loss_per_turn",
"luck_per_game", "exact"}`, floats to 2 decimals; `exact` false for Kości potrójne; games
played with the hint left out).

`GET /api/v1/stats/rivals`, same parameters: `seat_advantage` (per table size from two players,
`{"players", "games", "seats": [{"seat", "wins", "win_rate"}]}`, seat 0 started, a shared win
counts for each winner) and `nemeses` (per player's name, `{"name", "games", "wins", "losses",
"draws"}`: the rival who most often finished ahead of them, in at least 3 games together, and
the rival's record against them by places).

Query parameters, all optional: `variant` (a variant id), `player` (a name, case ignored: games
that player took part in; repeat it for games all of them played together), `from` and `to`
(local days YYYY-MM-DD, both included). A name no player has gives zero games; an unknown
parameter or variant, a malformed day, a day at the calendar's ends (see
`tracker.services.inputs`), `from` after `to` or a repeated `variant`/`from`/`to` are 400
`{"error": ...}`.
"""

from __future__ import annotations

from flask import Response, jsonify, request

from ..i18n import _
from ..services import InvalidInput, stats
from ..services.filters import GameFilter, read_filter
from ..web import local_zone
from . import api_errors, bp
from .auth import current_account, token_required

PARAMETERS = ("variant", "player", "from", "to")
SINGLE = ("variant", "from", "to")


@bp.get("/stats")
@token_required
@api_errors
def stats_summary() -> Response:
    account_id = current_account().id
    f = _filter(account_id)
    if f is None:  # nobody of that name: no game of theirs
        return jsonify(stats.empty_api_summary())
    return jsonify(stats.api_summary(account_id, f))


@bp.get("/stats/rivals")
@token_required
@api_errors
def stats_rivals() -> Response:
    """The first seat's advantage and each player's nemesis (`stats.api_rivals`), with the
    same parameters as `/stats`: apart, as they read every game's places."""
    account_id = current_account().id
    f = _filter(account_id)
    if f is None:
        return jsonify(stats.empty_api_rivals())
    return jsonify(stats.api_rivals(account_id, f))


def _filter(account_id: int) -> GameFilter | None:
    """The filter the query string asks for; None when it names a player nobody is."""
    unknown = sorted(set(request.args) - set(PARAMETERS))
    if unknown:
        known = ", ".join(PARAMETERS)
        raise InvalidInput(
            _(
                "Nieznane parametry: %(unknown)s. Znane parametry: %(known)s.",
                unknown=", ".join(unknown),
                known=known,
            )
        )
    repeated = [name for name in SINGLE if len(request.args.getlist(name)) > 1]
    if repeated:
        raise InvalidInput(_("Parametr %(name)s można podać tylko raz.", name=repeated[0]))
    names = [n.strip() for n in request.args.getlist("player") if n.strip()]
    player_ids = [stats.find_player_id(account_id, name) for name in names]
    f = read_filter(
        variant=request.args.get("variant"),
        since=request.args.get("from"),
        until=request.args.get("to"),
        player_ids=[p for p in player_ids if p is not None],
        zone=local_zone(),
    )
    return None if None in player_ids else f
