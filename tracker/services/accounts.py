"""Accounts (a household or club), sign-in with slowed-down guessing, browser sessions that
signing out really ends, password changes and resets, and API tokens."""

from __future__ import annotations

import hashlib
import ipaddress
import math
import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache

from flask import current_app
from sqlalchemy import bindparam, delete, func, select, update
from sqlalchemy.exc import IntegrityError
from werkzeug.security import check_password_hash, generate_password_hash

from ..extensions import db
from ..i18n import _, ngettext
from ..models import Account, AccountSession, ApiToken, LoginFailure, name_key, utcnow
from ..store import games as store
from . import audit, names
from .errors import PASSWORD_CHANGED_ELSEWHERE, Conflict, InvalidInput, NotFound, Throttled

NAME_MAX = 60
# For every new password (sign-up, change, reset): OWASP ASVS 2.1.1 asks for at least 12.
# Passwords set before keep working.
PASSWORD_MIN = 12


def password_too_short() -> str:
    return ngettext(
        "Hasło musi mieć co najmniej %(num)d znak.",
        "Hasło musi mieć co najmniej %(num)d znaków.",
        PASSWORD_MIN,
    )


TOKEN_PREFIX = "kosci_"

# Sign-in throttling: after FREE_FAILURES failures within WINDOW, each further attempt must
# wait BASE_DELAY × 2^(extra failures), capped at MAX_DELAY. Counted per (account name,
# address), so that guessing from one address never locks the family's other devices out of
# their account; and per address across all names (ADDRESS_FREE_FAILURES), so that one
# address cannot guess at many accounts instead.
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


def hash_password(password: str) -> str:
    return generate_password_hash(password, method=_hash_method())


@cache
def _dummy_hash(method: str) -> str:
    """A password check against this hash takes as long as a real one made with `method`:
    unknown names are not faster."""
    return generate_password_hash("not-a-real-password", method=method)


_dummy_hash(DEFAULT_HASH_METHOD)  # made at start-up: the first unknown name is not slower either


def clean_name(raw: str | None) -> str:
    return " ".join((raw or "").split())


def account_name(raw: str | None) -> str:
    """The account's name as stored: spaces collapsed, Unicode composed (NFC); InvalidInput
    (field `name`) for an empty or too long one, or one with a character nobody can see or
    that changes how the text around it shows (the rules of a player's name, `names`): two
    accounts on one server must not look alike."""
    name = unicodedata.normalize("NFC", clean_name(raw))
    if not name:
        raise InvalidInput(_("Podaj nazwę konta."), "name")
    if len(name) > NAME_MAX:
        raise InvalidInput(
            _("Nazwa konta może mieć najwyżej %(num)d znaków.", num=NAME_MAX), "name"
        )
    refused = names.refused_character(name)
    if refused is not None:
        raise InvalidInput(
            _("Znak %(char)s nie może być w nazwie konta.", char=names.char_label(refused)), "name"
        )
    if not names.has_visible_core(name):
        raise InvalidInput(_("Nazwa konta musi zawierać literę, cyfrę albo emoji."), "name")
    if len(name_key(name)) > NAME_MAX:
        # Compared casefolded, some letters count twice („ß” is „ss”): the key must fit too.
        raise InvalidInput(_("Nazwa konta jest za długa: skróć ją."), "name")
    return name


def create_account(name: str, password: str) -> Account:
    name = account_name(name)
    if len(password or "") < PASSWORD_MIN:
        raise InvalidInput(password_too_short(), "password")
    key = name_key(name)
    if db.session.scalar(select(Account.id).where(Account.name_key == key)) is not None:
        raise InvalidInput(_("Konto o tej nazwie już istnieje."), "name")
    account = Account(name=name, name_key=key, password_hash=hash_password(password))
    db.session.add(account)
    try:
        db.session.commit()
    except IntegrityError:  # the same name signed up from another browser meanwhile
        db.session.rollback()
        raise InvalidInput(_("Konto o tej nazwie już istnieje."), "name") from None
    return account


def has_accounts() -> bool:
    return db.session.scalar(select(Account.id).limit(1)) is not None


def address_key(remote_addr: str | None) -> str:
    """The address that sign-ins, password checks and sign-ups are counted by: an IPv4 address,
    or an IPv6 /64, which is what one home or one phone gets. It can pick any address in it, so
    counting single IPv6 addresses would let a guesser change address on every guess."""
    raw = (remote_addr or "").strip()
    try:
        address = ipaddress.ip_address(raw)
    except ValueError:
        return raw[:64] or "?"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(address) >> 64 << 64, 64)))
    return str(address)


def authenticate(
    name: str, password: str, remote_addr: str, now: datetime | None = None
) -> Account:
    """The account for this name and password, or InvalidInput; Throttled while guessing is
    being slowed down (the password is then not even checked)."""
    now = now or utcnow()
    key = name_key(clean_name(name))
    addr = address_key(remote_addr)
    # The attempt is counted (and forgotten) under the key as its column can keep it: no NUL
    # (PostgreSQL keeps none in text), at most NAME_MAX characters („ß” compares as „ss”).
    counted = key.replace("\x00", "")[:NAME_MAX]
    _reserve_attempt(
        counted,
        addr,
        now,
        lambda wait: Throttled(
            _("Za dużo nieudanych prób logowania. Spróbuj ponownie za %(wait)s s.", wait=wait),
            "password",
            retry_after=wait,
        ),
    )
    # A NUL names no account: names refuse it, and PostgreSQL could not even compare it.
    account = (
        db.session.scalar(select(Account).where(Account.name_key == key))
        if "\x00" not in key
        else None
    )
    stored = account.password_hash if account else _dummy_hash(_hash_method())
    if not check_password_hash(stored, password or "") or account is None:
        # The name tried, never the password; the account's id when the name is one.
        audit.record(
            audit.SIGN_IN_FAILED,
            account.id if account else None,
            f"nazwa: {clean_name(name)[:NAME_MAX]}",
        )
        db.session.commit()
        raise InvalidInput(_("Nieprawidłowa nazwa konta lub hasło."), "password")
    _forget_failures(counted, addr)
    return account


def _forget_failures(key: str, addr: str) -> None:
    """The right password: this address's failures for this name are forgotten (the attempt
    just counted among them). Only these: a guesser elsewhere stays slowed down."""
    db.session.execute(
        delete(LoginFailure).where(LoginFailure.name_key == key, LoginFailure.remote_addr == addr)
    )
    db.session.commit()


def _reserve_attempt(
    key: str, addr: str, now: datetime, throttled: Callable[[int], Throttled]
) -> int:
    """Decide whether name `key` may be tried from `addr` now, and count the attempt as a
    failure before its password is checked, in one write under a lock on the address: of
    guesses sent at once, each sees the ones before it, so no more are checked than one after
    another would be (the slow password check runs after the write, outside any lock). The
    caller deletes the failure when the password is right; raises `throttled(wait)` while
    guessing is being slowed down (nothing is then counted). The failure's id."""
    with store.writing():
        # Both counts, per name and per address, are of the address's attempts.
        store.lock_key(f"sign-in {addr}")
        wait = _throttle_wait(key, addr, now)
        if wait:
            raise throttled(wait)
        failure = LoginFailure(name_key=key, remote_addr=addr, at=now)
        db.session.add(failure)
        db.session.execute(delete(LoginFailure).where(LoginFailure.at < now - WINDOW))
        db.session.flush()
        failure_id = failure.id
        db.session.commit()
    return failure_id


def confirm_password(account: Account, password: str, remote_addr: str) -> None:
    """Re-authentication of the signed-in account before a sensitive step (a new API token, a
    password change): InvalidInput when `password` is not its password. Wrong guesses count
    towards the same slowing-down as failed sign-ins: a borrowed phone cannot try many."""
    now = utcnow()
    addr = address_key(remote_addr)
    attempt = _reserve_attempt(
        account.name_key,
        addr,
        now,
        lambda wait: Throttled(
            _("Za dużo nieudanych prób. Spróbuj ponownie za %(wait)s s.", wait=wait),
            "current_password",
            retry_after=wait,
        ),
    )
    if not check_password_hash(account.password_hash, password or ""):
        raise InvalidInput(_("Nieprawidłowe hasło."), "current_password")
    # Right: only this attempt is not a failure. The wrong guesses before it still count (a
    # signed-in phone knowing its own password does not lift a slowing-down of sign-ins).
    db.session.execute(delete(LoginFailure).where(LoginFailure.id == attempt))
    db.session.commit()


def change_password(account: Account, current: str, new: str, remote_addr: str) -> None:
    """A new password for the signed-in account, after its current one: every other browser
    signed in to the account is signed out (this one, `account.session_key`, stays)."""
    confirmed = account.password_hash
    confirm_password(account, current, remote_addr)
    if len(new or "") < PASSWORD_MIN:
        raise InvalidInput(password_too_short(), "new_password")
    new_hash = hash_password(new)  # slow on purpose: before the lock
    session_key = account.session_key
    with store.writing():
        # Decided on the account as it is: another phone may have changed the password since
        # this one's was checked, and signed this one out with it.
        locked = db.session.scalars(
            select(Account)
            .where(Account.id == account.id)
            .with_for_update()
            .execution_options(populate_existing=True)
        ).one()
        if locked.password_hash != confirmed:
            raise Conflict(
                _(
                    "Hasło tego konta zmieniono przed chwilą na innym urządzeniu. Zaloguj się "
                    "nowym hasłem."
                ),
                "current_password",
                PASSWORD_CHANGED_ELSEWHERE,
            )
        locked.password_hash = new_hash
        _revoke_sessions(locked.id, keep=session_key)
        audit.record(audit.PASSWORD_CHANGED, locked.id)
        db.session.commit()


def reset_password(name: str, new: str) -> Account:
    """A new password set by the person who runs the server (`flask reset-password`): every
    browser signed in to the account is signed out, and the slowing-down of its sign-ins ends."""
    account = db.session.scalar(
        select(Account).where(Account.name_key == name_key(clean_name(name)))
    )
    if account is None:
        raise NotFound(f"Nie ma konta {name!r}.")  # i18n: not shown (the CLI only)
    if len(new or "") < PASSWORD_MIN:
        raise InvalidInput(password_too_short(), "password")
    account.password_hash = hash_password(new)
    _revoke_sessions(account.id)
    db.session.execute(delete(LoginFailure).where(LoginFailure.name_key == account.name_key))
    audit.record(audit.PASSWORD_RESET, account.id, "przez administratora serwera (CLI)")
    db.session.commit()
    return account


# --- browser sessions ------------------------------------------------------------------------
#
# Flask-Login keeps `Account.get_id()`, "<account id>:<session key>", in the session cookie and
# in the remember cookie. The key names a row of `sessions` (by its SHA-256): the user loader
# accepts the cookies only while that row is open, so signing out ends this browser's session
# even where its cookies were copied, and "sign out everywhere" ends every session of the
# account, without signing out the family's other phones on every plain sign-out.

# A session is refused once it is older than this (the remember cookie's lifetime unless the
# config sets `REMEMBER_COOKIE_DURATION`): the remember cookie itself carries no date, so a
# copy of it would otherwise live forever.
DEFAULT_SESSION_LIFETIME = timedelta(days=365)
# `last_seen_at` is written at most this often: not a write on every page.
SEEN_EVERY = timedelta(minutes=10)
# Closed sessions are kept this long (the audit log says who signed out), then deleted.
KEEP_CLOSED = timedelta(days=30)


def _session_lifetime() -> timedelta:
    duration = current_app.config.get("REMEMBER_COOKIE_DURATION", DEFAULT_SESSION_LIFETIME)
    return duration if isinstance(duration, timedelta) else timedelta(seconds=int(duration))


def open_session(account_id: int) -> str:
    """A new browser session of the account; its key (to be kept only in the signed cookies)."""
    now = utcnow()
    key = secrets.token_urlsafe(24)
    db.session.execute(
        delete(AccountSession).where(
            AccountSession.account_id == account_id,
            (AccountSession.revoked_at < now - KEEP_CLOSED)
            | (AccountSession.created_at < now - _session_lifetime()),
        )
    )
    db.session.add(AccountSession(account_id=account_id, key_hash=_digest(key), created_at=now))
    db.session.commit()
    return key


def sign_in(account: Account) -> Account:
    """Open a browser session for an account that has just proved its password; the audit log
    records the sign-in. `account.get_id()` then names the new session."""
    account.session_key = None
    audit.record(audit.SIGN_IN, account.id)
    account.session_key = open_session(account.id)  # commits the audit event with it
    return account


def account_for_session(user_id: str) -> Account | None:
    """The account of an open session named by `user_id` ("<account id>:<key>", as
    `Account.get_id()` makes it), or None: closed, expired, unknown, or the old form without a
    key. Flask-Login's user loader."""
    account_part, _, key = user_id.partition(":")
    if not key or not account_part.isdigit() or len(account_part) > 18:
        return None
    now = utcnow()
    row = db.session.execute(
        select(Account, AccountSession.id, AccountSession.last_seen_at)
        .join(AccountSession, AccountSession.account_id == Account.id)
        .where(
            AccountSession.key_hash == _digest(key),
            AccountSession.revoked_at.is_(None),
            AccountSession.created_at >= now - _session_lifetime(),
            Account.id == int(account_part),
        )
    ).first()
    if row is None:
        return None
    account, session_id, last_seen = row
    if now - last_seen > SEEN_EVERY:
        db.session.execute(
            update(AccountSession).where(AccountSession.id == session_id).values(last_seen_at=now)
        )
        db.session.commit()
    account.session_key = key
    return account


def close_session(account: Account) -> None:
    """Sign this browser out: its session ends, wherever its cookies went."""
    if account.session_key is not None:
        db.session.execute(
            update(AccountSession)
            .where(
                AccountSession.key_hash == _digest(account.session_key),
                AccountSession.revoked_at.is_(None),
            )
            .values(revoked_at=utcnow())
        )
    audit.record(audit.SIGN_OUT, account.id)
    db.session.commit()


def close_all_sessions(account_id: int) -> int:
    """Sign out every browser signed in to the account ("sign out everywhere"); how many."""
    count = _revoke_sessions(account_id)
    audit.record(audit.SIGN_OUT_EVERYWHERE, account_id, f"zamknięte sesje: {count}")
    db.session.commit()
    return count


def _revoke_sessions(account_id: int, keep: str | None = None) -> int:
    query = update(AccountSession).where(
        AccountSession.account_id == account_id, AccountSession.revoked_at.is_(None)
    )
    if keep is not None:
        query = query.where(AccountSession.key_hash != _digest(keep))
    result = db.session.execute(query.values(revoked_at=utcnow()))
    return int(result.rowcount)  # type: ignore[attr-defined]


def _throttle_wait(key: str, addr: str, now: datetime) -> int:
    """Seconds still to wait before another attempt for name `key` from `addr`, 0 when an
    attempt is allowed. Failures count per (name, address) and per address across all names,
    never per name alone: failures from one address do not slow the account down anywhere
    else (the index `ix_login_failures_addr_name_at` serves both counts)."""
    since = now - WINDOW
    waits = []
    for condition, free in (
        ((LoginFailure.remote_addr == addr) & (LoginFailure.name_key == key), FREE_FAILURES),
        (LoginFailure.remote_addr == addr, ADDRESS_FREE_FAILURES),
    ):
        count, last = db.session.execute(
            select(func.count(), func.max(LoginFailure.at)).where(
                condition, LoginFailure.at >= since
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
        raise InvalidInput(
            _("Nazwa tokenu może mieć najwyżej %(num)d znaków.", num=NAME_MAX), "name"
        )
    refused = names.refused_character(name)
    if refused is not None:
        raise InvalidInput(
            _("Znak %(char)s nie może być w nazwie tokenu.", char=names.char_label(refused)),
            "name",
        )
    plain = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken(account_id=account_id, name=name, token_hash=_digest(plain), prefix=plain[:12])
    db.session.add(token)
    db.session.flush()
    audit.record(audit.TOKEN_CREATED, account_id, f"token {token.id} „{name}”")
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
        raise NotFound(_("Nie ma takiego tokenu."))
    digest = db.session.scalar(select(ApiToken.token_hash).where(ApiToken.id == token_id))
    audit.record(audit.TOKEN_REVOKED, account_id, f"token {token_id}")
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
