"""Who may sign up (`KOSCI_SIGNUP`: open, invite or closed), invite codes, and sign-up limited
per address (`KOSCI_SIGNUP_PER_HOUR`).

A sign-up form must say when a name is taken, or nobody could choose another; so that the
answer is no cheap way to learn which names exist, every sign-up attempt that reaches the name
check counts against the address's hourly limit (accepted or not), the message is the same
whatever makes a name unusable, and with invites the code is checked before the name.
"""

from __future__ import annotations

import hashlib
import math
import secrets
from collections.abc import MutableMapping
from datetime import datetime, timedelta
from typing import Any

from flask import current_app
from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError

from .. import settings
from ..extensions import db
from ..i18n import N_, _, gettext, ngettext
from ..models import Account, Invite, SignupAttempt, name_key, utcnow
from ..store import games as store
from . import accounts, audit
from .errors import INVITE_LIMIT, Conflict, InvalidInput, ServiceError, Throttled

POLICIES = ("open", "invite", "closed")
DEFAULT_POLICY = "open"
DEFAULT_PER_HOUR = 5
ATTEMPT_WINDOW = timedelta(hours=1)

INVITE_DAYS = 7
INVITE_DAYS_MAX = 365
ACTIVE_INVITES_MAX = 10  # unused, unexpired invites one account may hold at a time
# 16 characters from 32 that cannot be mistaken for one another (no 0/O, 1/I): 80 bits, and
# easy to read out or type on a phone. Shown as XXXX-XXXX-XXXX-XXXX; case, spaces and dashes
# are ignored when typed.
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 16

NAME_UNUSABLE = N_("Tej nazwy nie można użyć – wybierz inną.")  # shown through gettext

# Audit log events (tracker/services/audit.py), written in the transaction they record.
SIGNED_UP = "signed_up"
INVITE_CREATED = "invite_created"

_invites = Invite.__table__


class SignUpClosed(ServiceError):
    status = 403


def check_config(config: MutableMapping[str, Any]) -> None:
    """Check (and normalise) the sign-up settings: a wrong value must stop the server at start,
    not open sign-up by surprise."""
    raw = config.get("KOSCI_SIGNUP")
    policy = str(raw or "").strip().lower()
    settings.check_choice("KOSCI_SIGNUP", policy, POLICIES)
    config["KOSCI_SIGNUP"] = policy
    settings.check_count("KOSCI_SIGNUP_PER_HOUR", config.get("KOSCI_SIGNUP_PER_HOUR"), 1)


def policy() -> str:
    """This server's sign-up policy: "open", "invite" or "closed"."""
    return str(current_app.config["KOSCI_SIGNUP"])


# --- sign-up ---------------------------------------------------------------------------------


def sign_up(
    name: str,
    password: str,
    remote_addr: str,
    invite_code: str | None = None,
    now: datetime | None = None,
) -> Account:
    """A new account, as the sign-up page asks for it under this server's policy.

    Raises SignUpClosed (403), Throttled (429) when this address has made too many attempts
    this hour, or InvalidInput (400) for the field at fault. With `invite`, the code is used up
    in the very transaction that creates the account: of two sign-ups with one code at once,
    exactly one gets it.
    """
    now = now or utcnow()
    mode = policy()
    if mode == "closed":
        raise SignUpClosed(_("Zakładanie kont jest na tym serwerze wyłączone."))
    _count_attempt(accounts.address_key(remote_addr), now)
    name = accounts.account_name(name)
    if len(password or "") < accounts.PASSWORD_MIN:
        raise InvalidInput(accounts.password_too_short(), "password")
    digest = None
    if mode == "invite":
        if not normalize_code(invite_code):
            raise InvalidInput(_("Podaj kod zaproszenia."), "invite")
        digest = _digest(invite_code or "")
        _check_invite(digest, now)  # before the name: no code, no answer about names
    key = name_key(name)
    if db.session.scalar(select(Account.id).where(Account.name_key == key)) is not None:
        raise InvalidInput(gettext(NAME_UNUSABLE), "name")
    # Hashed before the transaction: the database stays free for others meanwhile.
    account = Account(
        name=name, name_key=key, password_hash=accounts.hash_password(password), created_at=now
    )
    try:
        if digest is not None:
            # The first write: it takes the database's write lock, so the code's state is
            # decided here, against every other transaction's committed use of it.
            used = db.session.execute(
                update(_invites)
                .where(
                    _invites.c.code_hash == digest,
                    _invites.c.used_at.is_(None),
                    _invites.c.expires_at > now,
                )
                .values(used_at=now)
            )
            if used.rowcount != 1:  # type: ignore[attr-defined]
                db.session.rollback()
                _check_invite(digest, now)
                raise InvalidInput(gettext(INVITE_USED), "invite")  # taken a moment ago
        db.session.add(account)
        db.session.flush()
        if digest is not None:
            db.session.execute(
                update(_invites)
                .where(_invites.c.code_hash == digest)
                .values(used_by_account_id=account.id)
            )
        audit.record(SIGNED_UP, account.id, "z zaproszeniem" if digest else "")
        db.session.commit()
    except IntegrityError:  # the same name signed up from another browser meanwhile
        db.session.rollback()
        raise InvalidInput(gettext(NAME_UNUSABLE), "name") from None
    except BaseException:
        db.session.rollback()
        raise
    return account


def _count_attempt(addr: str, now: datetime) -> None:
    """Count a sign-up attempt from `addr`, or raise Throttled if the address has used up its
    attempts this hour. Recorded first, then counted: two attempts at once cannot both slip
    under the limit."""
    limit = int(current_app.config["KOSCI_SIGNUP_PER_HOUR"])
    since = now - ATTEMPT_WINDOW
    if _attempts(addr, since) >= limit:
        raise _throttled(addr, since, now)
    db.session.execute(delete(SignupAttempt).where(SignupAttempt.at < since))
    db.session.add(SignupAttempt(remote_addr=addr, at=now))
    db.session.commit()
    if _attempts(addr, since) > limit:
        raise _throttled(addr, since, now)


def _attempts(addr: str, since: datetime) -> int:
    return (
        db.session.scalar(
            select(func.count()).where(SignupAttempt.remote_addr == addr, SignupAttempt.at >= since)
        )
        or 0
    )


def _throttled(addr: str, since: datetime, now: datetime) -> Throttled:
    oldest = db.session.scalar(
        select(func.min(SignupAttempt.at)).where(
            SignupAttempt.remote_addr == addr, SignupAttempt.at >= since
        )
    )
    seconds = ((oldest or now) + ATTEMPT_WINDOW - now).total_seconds()
    minutes = max(1, math.ceil(seconds / 60))
    return Throttled(
        ngettext(
            "Za dużo prób założenia konta z tego adresu. Spróbuj ponownie za %(num)d min.",
            "Za dużo prób założenia konta z tego adresu. Spróbuj ponownie za %(num)d min.",
            minutes,
        ),
        retry_after=max(1, math.ceil(seconds)),
    )


# --- invite codes ----------------------------------------------------------------------------

# Shown through `gettext` (in the language of the request).
INVITE_UNKNOWN = N_("Nieprawidłowy kod zaproszenia.")
INVITE_USED = N_("Ten kod zaproszenia został już wykorzystany.")
INVITE_EXPIRED = N_("Ten kod zaproszenia wygasł – poproś o nowy.")


def new_code() -> str:
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return "-".join(raw[i : i + 4] for i in range(0, CODE_LENGTH, 4))


def normalize_code(raw: str | None) -> str:
    """A code as typed, without case, spaces or dashes."""
    return "".join((raw or "")[:100].split()).replace("-", "").upper()


def _digest(code: str) -> str:
    return hashlib.sha256(normalize_code(code).encode()).hexdigest()


def _check_invite(digest: str, now: datetime) -> None:
    """InvalidInput (on the `invite` field) unless the code may be used now."""
    row = db.session.execute(
        select(_invites.c.used_at, _invites.c.expires_at).where(_invites.c.code_hash == digest)
    ).first()
    if row is None:
        raise InvalidInput(gettext(INVITE_UNKNOWN), "invite")
    if row.used_at is not None:
        raise InvalidInput(gettext(INVITE_USED), "invite")
    if row.expires_at <= now:
        raise InvalidInput(gettext(INVITE_EXPIRED), "invite")


def create_invite(
    account_id: int | None, days: int = INVITE_DAYS, now: datetime | None = None
) -> tuple[Invite, str]:
    """A new invite, valid for `days`; the code is returned once and only its SHA-256 is stored.
    `account_id` None: made from the command line."""
    now = now or utcnow()
    if not 1 <= days <= INVITE_DAYS_MAX:
        raise InvalidInput(
            _("Zaproszenie może być ważne od 1 do %(num)d dni.", num=INVITE_DAYS_MAX)
        )
    with store.writing():
        # Counted and written under one lock: two phones at once cannot pass the limit together.
        store.lock_key(f"invites {account_id}")
        if account_id is not None and len(active_invites(account_id, now)) >= ACTIVE_INVITES_MAX:
            raise Conflict(
                _(
                    "To konto ma już %(num)d ważnych, niewykorzystanych zaproszeń: poczekaj, aż "
                    "ktoś ich użyje albo wygasną.",
                    num=ACTIVE_INVITES_MAX,
                ),
                code=INVITE_LIMIT,
            )
        code = new_code()
        invite = Invite(
            code_hash=_digest(code),
            created_by_account_id=account_id,
            created_at=now,
            expires_at=now + timedelta(days=days),
        )
        db.session.add(invite)
        db.session.flush()
        audit.record(INVITE_CREATED, account_id, f"zaproszenie {invite.id}, ważne {days} dni")
        db.session.commit()
    return invite, code


def active_invites(account_id: int, now: datetime | None = None) -> list[Invite]:
    return list(
        db.session.scalars(
            select(Invite).where(
                Invite.created_by_account_id == account_id,
                Invite.used_at.is_(None),
                Invite.expires_at > (now or utcnow()),
            )
        )
    )


def recent_invites(account_id: int, limit: int = 10) -> list[Invite]:
    """This account's newest invites, used, expired or waiting."""
    return list(
        db.session.scalars(
            select(Invite)
            .where(Invite.created_by_account_id == account_id)
            .order_by(Invite.created_at.desc(), Invite.id.desc())
            .limit(limit)
        ).unique()
    )
