"""Accounts (a household or club), sign-in with slowed-down guessing, and API tokens."""

from __future__ import annotations

import hashlib
import math
import secrets
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache

from flask import current_app
from sqlalchemy import bindparam, delete, func, select, update
from sqlalchemy.exc import IntegrityError
from werkzeug.security import check_password_hash, generate_password_hash

from ..extensions import db
from ..models import Account, ApiToken, LoginFailure, name_key, utcnow
from .errors import InvalidInput, NotFound, Throttled

NAME_MAX = 60
PASSWORD_MIN = 8
TOKEN_PREFIX = "kosci_"

# Sign-in throttling: after FREE_FAILURES failures within WINDOW, each further attempt must
# wait BASE_DELAY × 2^(extra failures), capped at MAX_DELAY. Per account name and per address.
FREE_FAILURES = 5
WINDOW = timedelta(minutes=15)
BASE_DELAY = timedelta(seconds=5)
MAX_DELAY = timedelta(minutes=5)
ADDRESS_FREE_FAILURES = 20

# werkzeug's method for new password hashes, unless the config sets `PASSWORD_HASH_METHOD`
# (the tests use one cheap PBKDF2 round; production keeps scrypt).
DEFAULT_HASH_METHOD = "scrypt"


def _hash_method() -> str:
    return str(current_app.config.get("PASSWORD_HASH_METHOD") or DEFAULT_HASH_METHOD)


def _hash_password(password: str) -> str:
    return generate_password_hash(password, method=_hash_method())


@cache
def _dummy_hash(method: str) -> str:
    """A password check against this hash takes as long as a real one made with `method`:
    unknown names are not faster."""
    return generate_password_hash("not-a-real-password", method=method)


_dummy_hash(DEFAULT_HASH_METHOD)  # made at start-up: the first unknown name is not slower either


def clean_name(raw: str | None) -> str:
    return " ".join((raw or "").split())


def create_account(name: str, password: str) -> Account:
    name = clean_name(name)
    if not name:
        raise InvalidInput("Podaj nazwę konta.", "name")
    if len(name) > NAME_MAX:
        raise InvalidInput(f"Nazwa konta może mieć najwyżej {NAME_MAX} znaków.", "name")
    if len(password or "") < PASSWORD_MIN:
        raise InvalidInput(f"Hasło musi mieć co najmniej {PASSWORD_MIN} znaków.", "password")
    key = name_key(name)
    if db.session.scalar(select(Account.id).where(Account.name_key == key)) is not None:
        raise InvalidInput("Konto o tej nazwie już istnieje.", "name")
    account = Account(name=name, name_key=key, password_hash=_hash_password(password))
    db.session.add(account)
    try:
        db.session.commit()
    except IntegrityError:  # the same name signed up from another browser meanwhile
        db.session.rollback()
        raise InvalidInput("Konto o tej nazwie już istnieje.", "name") from None
    return account


def has_accounts() -> bool:
    return db.session.scalar(select(Account.id).limit(1)) is not None


def authenticate(
    name: str, password: str, remote_addr: str, now: datetime | None = None
) -> Account:
    """The account for this name and password, or InvalidInput; Throttled while guessing is
    being slowed down (the password is then not even checked)."""
    now = now or utcnow()
    key = name_key(clean_name(name))
    addr = (remote_addr or "?")[:64]
    wait = _throttle_wait(key, addr, now)
    if wait:
        raise Throttled(
            f"Za dużo nieudanych prób logowania. Spróbuj ponownie za {wait} s.", "password"
        )
    account = db.session.scalar(select(Account).where(Account.name_key == key))
    stored = account.password_hash if account else _dummy_hash(_hash_method())
    if not check_password_hash(stored, password or "") or account is None:
        db.session.add(LoginFailure(name_key=key, remote_addr=addr, at=now))
        db.session.execute(delete(LoginFailure).where(LoginFailure.at < now - WINDOW))
        db.session.commit()
        raise InvalidInput("Nieprawidłowa nazwa konta lub hasło.", "password")
    db.session.execute(delete(LoginFailure).where(LoginFailure.name_key == key))
    db.session.commit()
    return account


def _throttle_wait(key: str, addr: str, now: datetime) -> int:
    """Seconds still to wait before another attempt, 0 when an attempt is allowed."""
    since = now - WINDOW
    waits = []
    for column, value, free in (
        (LoginFailure.name_key, key, FREE_FAILURES),
        (LoginFailure.remote_addr, addr, ADDRESS_FREE_FAILURES),
    ):
        count, last = db.session.execute(
            select(func.count(), func.max(LoginFailure.at)).where(
                column == value, LoginFailure.at >= since
            )
        ).one()
        if count >= free and last is not None:
            delay = min(BASE_DELAY * 2 ** (count - free), MAX_DELAY)
            remaining = (last + delay - now).total_seconds()
            if remaining > 0:
                waits.append(math.ceil(remaining))
    return max(waits, default=0)


# --- API tokens ------------------------------------------------------------------------------


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_token(account_id: int, name: str) -> tuple[ApiToken, str]:
    """A new token; the plain text is returned once and only its SHA-256 is stored."""
    name = clean_name(name) or "Token"
    if len(name) > NAME_MAX:
        raise InvalidInput(f"Nazwa tokenu może mieć najwyżej {NAME_MAX} znaków.", "name")
    plain = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken(account_id=account_id, name=name, token_hash=_digest(plain), prefix=plain[:12])
    db.session.add(token)
    db.session.commit()
    return token, plain


def list_tokens(account_id: int) -> list[ApiToken]:
    return list(
        db.session.scalars(
            select(ApiToken)
            .where(ApiToken.account_id == account_id, ApiToken.revoked_at.is_(None))
            .order_by(ApiToken.created_at.desc())
        )
    )


def revoke_token(account_id: int, token_id: int) -> None:
    result = db.session.execute(
        update(ApiToken)
        .where(
            ApiToken.id == token_id,
            ApiToken.account_id == account_id,
            ApiToken.revoked_at.is_(None),
        )
        .values(revoked_at=utcnow())
    )
    if result.rowcount == 0:  # type: ignore[attr-defined]
        db.session.rollback()
        raise NotFound("Nie ma takiego tokenu.")
    digest = db.session.scalar(select(ApiToken.token_hash).where(ApiToken.id == token_id))
    db.session.commit()
    _token_cache.pop(digest or "", None)


@dataclass(frozen=True)
class AccountRef:
    """The signed-in account as the API needs it: who, without loading the whole row."""

    id: int
    name: str


_tokens = ApiToken.__table__
_accounts = Account.__table__
# Built once: every API request runs it.
_TOKEN_QUERY = (
    select(_tokens.c.id, _tokens.c.account_id, _tokens.c.last_used_at, _accounts.c.name)
    .join(_accounts, _accounts.c.id == _tokens.c.account_id)
    .where(_tokens.c.token_hash == bindparam("digest"), _tokens.c.revoked_at.is_(None))
)


# A token recently found valid is trusted for TOKEN_CACHE_SECONDS without asking the database
# again: the lookup is a real share of an API call. The price: a token revoked on another server
# process keeps working for at most that long (the process that revokes it forgets it at once).
TOKEN_CACHE_SECONDS = 2.0
_token_cache: dict[str, tuple[float, AccountRef]] = {}


def clear_caches() -> None:
    """Forget every token this process trusts (tests start each from nothing)."""
    _token_cache.clear()


def account_for_token(plain: str) -> AccountRef | None:
    """The account a bearer token belongs to, or None for an unknown or revoked token."""
    if not plain or not plain.startswith(TOKEN_PREFIX):
        return None
    digest = _digest(plain)
    cached = _token_cache.get(digest)
    if cached is not None and cached[0] > time.monotonic():
        return cached[1]
    conn = db.session.connection()
    row = conn.execute(_TOKEN_QUERY, {"digest": digest}).first()
    if row is None:
        _token_cache.pop(digest, None)
        return None
    now = utcnow()
    # Record use at most once a minute: a write on every API call would halve throughput.
    if row.last_used_at is None or now - row.last_used_at > timedelta(minutes=1):
        conn.execute(update(_tokens).where(_tokens.c.id == row.id).values(last_used_at=now))
        db.session.commit()
    account = AccountRef(row.account_id, row.name)
    if len(_token_cache) > 1000:  # a bounded cache: forget everything rather than grow
        _token_cache.clear()
    _token_cache[digest] = (time.monotonic() + TOKEN_CACHE_SECONDS, account)
    return account
