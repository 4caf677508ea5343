"""Game invitations („Dołącz telefon”) through the API (bearer token required): make a link a
phone can join one game by, to play or only to watch, list the live ones, revoke one at once.

The link's token is in `url` of the answer to POST, and nowhere else ever again.
"""

from __future__ import annotations

from datetime import datetime

from flask import Response

from ..guests import join_url
from ..services import invitations
from ..services.invitations import Invitation
from . import JsonObject, api_errors, bp, read_json_object
from .auth import current_account, token_required
from .games import GAME

INVITATION = "<int:invitation_id>"


def _moment(value: datetime) -> str:
    return value.isoformat(timespec="seconds") + "Z"


def invitation_json(invitation: Invitation) -> JsonObject:
    """`expires_at`: when it stops working unless revoked first; while the game goes on, its
    hard cap, which becomes the game's end plus a few hours once the game is over."""
    return {
        "id": invitation.id,
        "mode": invitation.mode,
        "created_at": _moment(invitation.created_at),
        "expires_at": _moment(invitation.ends_at),
    }


@bp.post(f"/games/{GAME}/invitations")
@token_required
@api_errors
def create_invitation(game_id: int) -> tuple[JsonObject, int]:
    body = read_json_object(frozenset({"mode"}))
    invitation, token = invitations.create(current_account().id, game_id, body.get("mode"))
    answer = invitation_json(invitation)
    return {
        "id": answer["id"],
        "url": join_url(token),
        "mode": answer["mode"],
        "expires_at": answer["expires_at"],
    }, 201


@bp.get(f"/games/{GAME}/invitations")
@token_required
@api_errors
def list_invitations(game_id: int) -> JsonObject:
    live = invitations.live(current_account().id, game_id)
    return {"invitations": [invitation_json(i) for i in live]}


@bp.delete(f"/games/{GAME}/invitations/{INVITATION}")
@token_required
@api_errors
def revoke_invitation(game_id: int, invitation_id: int) -> Response:
    invitations.revoke(current_account().id, game_id, invitation_id)
    return Response(status=204)
