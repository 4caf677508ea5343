"""The audit log: sign-ins (and failed ones), sign-outs, password changes and resets, API tokens
created and revoked, imports, deleted games and games restored from the trash, deleted,
merged and unmerged players, game invitations made, revoked and used, for the person who runs
the server (`flask --app tracker audit`).

`record` adds the event to the current transaction, so it is written with what it records (and
not at all when that is rolled back); `commit=True` writes it on its own. Details never hold a
secret: no password, no token, no session key; a failed sign-in keeps only the name tried.
"""

from __future__ import annotations

from collections.abc import Sequence

from flask import has_request_context, request
from sqlalchemy import select

from ..extensions import db
from ..models import Account, AuditEvent, name_key

SIGN_IN = "sign_in"
SIGN_IN_FAILED = "sign_in_failed"
SIGN_OUT = "sign_out"
SIGN_OUT_EVERYWHERE = "sign_out_everywhere"
PASSWORD_CHANGED = "password_changed"
PASSWORD_RESET = "password_reset"
TOKEN_CREATED = "token_created"
TOKEN_REVOKED = "token_revoked"
IMPORT = "import"
GAME_DELETED = "game_deleted"
GAME_RESTORED = "game_restored"  # from the trash („Kosz”)
PLAYER_DELETED = "player_deleted"
PLAYERS_MERGED = "players_merged"
PLAYERS_UNMERGED = "players_unmerged"  # a merge undone („Cofnij połączenie”)
# A game's invitation („Dołącz telefon”): made, revoked, and used by a phone to join.
INVITATION_CREATED = "invitation_created"
INVITATION_REVOKED = "invitation_revoked"
INVITATION_USED = "invitation_used"

DETAIL_MAX = 300
ADDRESS_MAX = 64


def record(
    event: str, account_id: int | None = None, detail: str = "", *, commit: bool = False
) -> AuditEvent:
    """Add an event to the session's transaction (written by the caller's commit), or write it
    at once with `commit=True`. The address is the request's, empty outside a request (CLI)."""
    addr = (request.remote_addr or "") if has_request_context() else ""
    entry = AuditEvent(
        event=event,
        account_id=account_id,
        remote_addr=addr[:ADDRESS_MAX],
        # No NUL: PostgreSQL keeps none in text (a name tried at sign-in may hold one).
        detail=" ".join(detail.replace("\x00", " ").split())[:DETAIL_MAX],
    )
    db.session.add(entry)
    if commit:
        db.session.commit()
    return entry


def events(account: str | None = None, limit: int = 50) -> Sequence[tuple[AuditEvent, str | None]]:
    """The newest `limit` events (of the account named `account`, when given), oldest first,
    each with the name of its account (None for an event without one)."""
    query = (
        select(AuditEvent, Account.name)
        .outerjoin(Account, Account.id == AuditEvent.account_id)
        .order_by(AuditEvent.id.desc())
        .limit(limit)
    )
    if account is not None:
        query = query.where(Account.name_key == name_key(account))
    rows = [(event, name) for event, name in db.session.execute(query)]
    rows.reverse()
    return rows
