"""Game invitations („Dołącz telefon”): a link, shown as a QR code, that lets a phone follow one
game without the family's password, to write its turns (`play`) or only to watch it (`watch`).

The account that owns the game makes and revokes them; the link's token is returned once and
only its SHA-256 is stored, like an API token's. An invitation is live while it is not revoked,
its evening goes on, and its hard cap `expires_at` (`MAX_LIFETIME` after it was made, for a game
never finished) has not passed. Its evening is its game and the rematches that followed it
(„Rewanż” takes the joined phones along, `games_of`): it goes on until the last of them has been
over for `AFTER_END` (the end screen stays readable a while); a rematch started after that
begins another evening (`_same_evening`). A game taken back from its end by
an undo is unfinished again, and so are its invitations. A rematch's panel lists (and revokes)
the invitations of the earlier games of its evening too: those phones play it.

Every request of a guest phone asks the database again (`guest`): a revoked invitation stops
working at once, in every worker process; a guest's write asks once more inside the write's
own transaction (`confirm_before_commit`), so a revocation and a write are decided one after the
other.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Connection, RowMapping, bindparam, func, select, update

from ..extensions import db
from ..i18n import N_, _, gettext
from ..models import Game, GameInvitation, utcnow
from ..store import games as game_store
from . import audit
from .errors import GAME_LONG_OVER, INVITATION_LIMIT, Conflict, InvalidInput, NotFound
from .game_view import NO_GAME, is_game_id

PLAY = "play"
WATCH = "watch"
MODES = (PLAY, WATCH)
# After its game ends, an invitation still opens the end screen this long.
AFTER_END = timedelta(hours=6)
# A game never finished (abandoned on the table) does not keep its invitations for ever.
MAX_LIFETIME = timedelta(days=7)
# Live invitations one game may have: enough for every phone at a table, twice over.
MAX_LIVE_PER_GAME = 20
# The rematches an evening follows from a game: an evening's worth, and a bound on the queries
# a guest's request may make.
MAX_REMATCHES_FOLLOWED = 30
# 128 random bits: 22 URL-safe characters, short enough for a small QR code.
TOKEN_BYTES = 16
TOKEN_MAX_LENGTH = 64  # anything longer is no token of ours: not even hashed

# Shown through `gettext` (in the language of the request).
GONE = N_(
    "Zaproszenie wygasło albo zostało cofnięte. Poproś osobę prowadzącą grę o nowy kod QR "
    "albo link."
)
NO_INVITATION = N_("Nie ma takiego zaproszenia.")
BAD_MODE = N_(
    'Tryb zaproszenia to "play" (telefon może wpisywać ruchy) albo "watch" (tylko ogląda).'
)


def now() -> datetime:
    """The clock every expiry is judged by (tests move it)."""
    return utcnow()


class InvitationGone(NotFound):
    """The invitation a guest phone holds was revoked or has expired: its game is a 404."""

    code = "invitation_gone"

    def __init__(self) -> None:
        super().__init__(gettext(GONE))


@dataclass(frozen=True)
class Invitation:
    """A live invitation as its owner sees it; `ends_at` is when it stops working unless revoked
    first (its hard cap, or the game's end plus `AFTER_END` once the game is over)."""

    id: int
    game_id: int
    mode: str
    created_at: datetime
    ends_at: datetime
    game_finished: bool


@dataclass(frozen=True)
class Guest:
    """A phone let in by a live invitation: the one game it may open, whose account it is."""

    invitation_id: int
    game_id: int
    account_id: int
    mode: str

    @property
    def watching(self) -> bool:
        return self.mode == WATCH


_inv = GameInvitation.__table__
_games = Game.__table__
# Not revoked, before its hard cap: whether its evening goes on is asked after (`_evening_on`).
_NOT_ENDED = (_inv.c.revoked_at.is_(None), _inv.c.expires_at > bindparam("now"))
_COLUMNS = (
    _inv.c.id,
    _inv.c.game_id,
    _inv.c.account_id,
    _inv.c.mode,
    _inv.c.token_hash,
    _inv.c.created_at,
    _inv.c.expires_at,
    _games.c.finished_at,
)
_LIVE_BY_DIGEST = (
    select(*_COLUMNS)
    .join(_games, _games.c.id == _inv.c.game_id)
    .where(_inv.c.token_hash == bindparam("digest"), *_NOT_ENDED)
)
_LIVE_OF_GAMES = (
    select(*_COLUMNS)
    .join(_games, _games.c.id == _inv.c.game_id)
    .where(
        _inv.c.game_id.in_(bindparam("game_ids", expanding=True)),
        _inv.c.account_id == bindparam("owner_id"),
        *_NOT_ENDED,
    )
    .order_by(_inv.c.id.desc())
)
# Inside a guest's write, after the game's lock: the invitation's row is locked too (on
# PostgreSQL; SQLite's write lock already serializes), so a revocation waits for the write.
_INVITATION_FOR_WRITE = (
    select(_inv.c.token_hash, _inv.c.revoked_at, _inv.c.expires_at, _inv.c.game_id)
    .where(_inv.c.id == bindparam("invitation_id"))
    .with_for_update()
)
_GAME_END = select(_games.c.finished_at).where(_games.c.id == bindparam("game_id"))
_REMATCH = select(_games.c.id, _games.c.started_at, _games.c.finished_at).where(
    _games.c.rematch_of_id == bindparam("game_id")
)
_earlier = _games.alias("earlier")
_EARLIER = (
    select(_earlier.c.id, _earlier.c.finished_at, _games.c.started_at)
    .join(_earlier, _earlier.c.id == _games.c.rematch_of_id)
    .where(_games.c.id == bindparam("game_id"))
)


def hand_to_rematch(game_id: int) -> None:
    """In the write that deletes the game: its invitations that still work go to its rematch,
    when the family played one the same evening. The phones joined by them are playing that
    rematch (`games_of`): deleting the evening's first game must not shut them out of it."""
    moment = now()
    finished_at = db.session.scalar(_GAME_END, {"game_id": game_id})
    if finished_at is None:
        return
    following = db.session.execute(_REMATCH, {"game_id": game_id}).first()
    if following is None or not _same_evening(finished_at, following.started_at):
        return
    if not _evening_on(game_id, finished_at, moment):
        return
    # The rematch's row locked first: a phone deleting it meanwhile is waited for, and then
    # found gone (the links stay with this game, into its trash), never a link handed to a
    # game that no longer exists (a foreign-key error on PostgreSQL).
    still_there = db.session.scalar(
        select(_games.c.id).where(_games.c.id == following.id).with_for_update()
    )
    if still_there is None:
        return
    db.session.execute(
        update(_inv).where(_inv.c.game_id == game_id, *_NOT_ENDED).values(game_id=following.id),
        {"now": moment},
    )


def kept(game_id: int) -> list[dict[str, str]]:
    """The game's invitations that still work (not revoked, before their hard cap, its evening
    not over), as the trash keeps them when the game is deleted: `make_again` brings them back
    with it."""
    moment = now()
    finished_at = db.session.scalar(_GAME_END, {"game_id": game_id})
    if not _evening_on(game_id, finished_at, moment):
        return []  # none works: the phone is told its link expired, not to wait for a restore
    # Locked (PostgreSQL; SQLite's write lock already serializes) until the deletion commits:
    # a revocation that came first is seen here, one that comes after waits and finds the
    # game gone, never revoked on the panel and then made again by the restore.
    rows = db.session.execute(
        select(_inv.c.mode, _inv.c.token_hash, _inv.c.created_at, _inv.c.expires_at)
        .where(_inv.c.game_id == game_id, *_NOT_ENDED)
        .order_by(_inv.c.id)
        .with_for_update(),
        {"now": moment},
    )
    return [
        {
            "mode": mode,
            "token_hash": token_hash,
            "created_at": created_at.isoformat(),
            "expires_at": expires_at.isoformat(),
        }
        for mode, token_hash, created_at, expires_at in rows
    ]


def make_again(account_id: int, game_id: int, invitations: list[dict[str, str]]) -> None:
    """In the caller's write: the invitations `kept` of a deleted game, made again for the game
    it was restored as (same links, same hard caps; each judged live as any other). One whose
    link is in use again (it cannot be) is left out."""
    for item in invitations:
        taken = db.session.scalar(select(_inv.c.id).where(_inv.c.token_hash == item["token_hash"]))
        if taken is not None or item["mode"] not in MODES:
            continue
        db.session.execute(
            _inv.insert().values(
                game_id=game_id,
                account_id=account_id,
                mode=item["mode"],
                token_hash=item["token_hash"],
                created_at=datetime.fromisoformat(item["created_at"]),
                expires_at=datetime.fromisoformat(item["expires_at"]),
            )
        )


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _ends_at(expires_at: datetime, finished_at: datetime | None) -> datetime:
    return expires_at if finished_at is None else min(expires_at, finished_at + AFTER_END)


def _evening_after(
    game_id: int, finished_at: datetime | None, conn: Connection | None = None
) -> list[tuple[int, datetime | None]]:
    """The games of the evening after `game_id` (which ended at `finished_at`, None while it
    goes on), in order, each with its end: its rematch, the rematch's („Rewanż” after
    „Rewanż”)… A rematch starts only from a finished game, so an unfinished game is the last;
    one started after the evening had ended (`_same_evening`) begins another evening."""
    run = conn.execute if conn is not None else db.session.execute
    after: list[tuple[int, datetime | None]] = []
    seen = {game_id}
    for _step in range(MAX_REMATCHES_FOLLOWED):
        if finished_at is None:
            break
        following = run(_REMATCH, {"game_id": game_id}).first()
        if following is None or following.id in seen:
            break
        if not _same_evening(finished_at, following.started_at):
            break
        game_id, finished_at = following.id, following.finished_at
        seen.add(game_id)
        after.append((game_id, finished_at))
    return after


def _evening_end(
    game_id: int, finished_at: datetime | None, conn: Connection | None = None
) -> datetime | None:
    """When the evening of `game_id` (which ended at `finished_at`) ended: the end of its last
    game (`_evening_after`), None while that one goes on."""
    after = _evening_after(game_id, finished_at, conn)
    return after[-1][1] if after else finished_at


def _same_evening(finished_at: datetime, rematch_started_at: datetime) -> bool:
    """Whether a rematch started while the evening of the game it follows (which ended at
    `finished_at`) still went on: a rematch tapped on an old end screen, once the links of
    that evening had stopped working, does not bring them back."""
    return rematch_started_at < finished_at + AFTER_END


def _evening_on(
    game_id: int, finished_at: datetime | None, moment: datetime, conn: Connection | None = None
) -> bool:
    """Whether the evening of an invitation's game (which ended at `finished_at`) still goes on
    at `moment`; its rematches are looked up only once the game itself has been over for long."""
    if finished_at is None or finished_at + AFTER_END > moment:
        return True
    end = _evening_end(game_id, finished_at, conn)
    return end is None or end + AFTER_END > moment


def _earlier_games(game_id: int) -> list[int]:
    """The games of the evening before `game_id`, latest first: the game it is the rematch
    of, that game's own… up to a rematch started after the evening before it had ended
    (`_same_evening`)."""
    chain: list[int] = []
    current = game_id
    for _step in range(MAX_REMATCHES_FOLLOWED):
        row = db.session.execute(_EARLIER, {"game_id": current}).first()
        if row is None or row.id == game_id or row.id in chain:
            break
        if row.finished_at is None or not _same_evening(row.finished_at, row.started_at):
            break
        chain.append(row.id)
        current = row.id
    return chain


def _guest(m: RowMapping) -> Guest:
    return Guest(m["id"], m["game_id"], m["account_id"], m["mode"])


def _owned_game_end(account_id: int, game_id: object, *, locked: bool = False) -> datetime | None:
    """When the account's game ended (None while it goes on); NotFound for a game it has not.
    `locked` (inside `store.writing`): the game's row stays locked until the write ends, so
    that it is neither deleted nor given another invitation meanwhile (it does not raise the
    game's version: the game itself does not change)."""
    if not is_game_id(game_id):
        raise NotFound(gettext(NO_GAME))
    query = select(Game.finished_at).where(Game.id == game_id, Game.account_id == account_id)
    row = db.session.execute(query.with_for_update() if locked else query).first()
    if row is None:
        raise NotFound(gettext(NO_GAME))
    return row[0]


# --- the owner's side ----------------------------------------------------------------------


def create(account_id: int, game_id: object, mode: object) -> tuple[Invitation, str]:
    """A new invitation to the account's game; its token is returned this once."""
    if mode not in MODES:
        raise InvalidInput(gettext(BAD_MODE), "mode")
    assert isinstance(mode, str)
    with game_store.writing():
        return _create(account_id, game_id, mode)


def _create(account_id: int, game_id: object, mode: str) -> tuple[Invitation, str]:
    """`create` inside its write: the game is locked first, then counted and written to, so
    that two phones inviting at once cannot pass the limit together, and a game deleted
    meanwhile is a 404."""
    finished_at = _owned_game_end(account_id, game_id, locked=True)
    assert isinstance(game_id, int)
    moment = now()
    end = _evening_end(game_id, finished_at)
    if end is not None and end + AFTER_END <= moment:
        raise Conflict(
            _("Ta gra skończyła się dawno: zaproszenie do niej już by nie działało."),
            "mode",
            GAME_LONG_OVER,
        )
    live_count = db.session.scalar(
        select(func.count())
        .select_from(_inv.join(_games, _games.c.id == _inv.c.game_id))
        .where(_inv.c.game_id == game_id, *_NOT_ENDED),
        {"now": moment},  # the evening goes on: so does every one not revoked nor capped
    )
    if (live_count or 0) >= MAX_LIVE_PER_GAME:
        raise Conflict(
            _(
                "Ta gra ma już %(num)d działających zaproszeń. Cofnij któreś, zanim dodasz "
                "następne.",
                num=MAX_LIVE_PER_GAME,
            ),
            "mode",
            INVITATION_LIMIT,
        )
    token = secrets.token_urlsafe(TOKEN_BYTES)
    invitation = GameInvitation(
        game_id=game_id,
        account_id=account_id,
        mode=mode,
        token_hash=digest(token),
        created_at=moment,
        expires_at=moment + MAX_LIFETIME,
    )
    db.session.add(invitation)
    db.session.flush()
    audit.record(
        audit.INVITATION_CREATED, account_id, f"gra {game_id}, zaproszenie {invitation.id} ({mode})"
    )
    db.session.commit()
    made = Invitation(
        invitation.id,
        game_id,
        mode,
        moment,
        _ends_at(invitation.expires_at, end),
        end is not None,
    )
    return made, token


def live(account_id: int, game_id: object) -> list[Invitation]:
    """The live invitations that let phones into the account's game, newest first: its own,
    and those of the earlier games of its evening (it is their rematch); NotFound for a game
    the account has not. Each ends with the evening (`ends_at`)."""
    finished_at = _owned_game_end(account_id, game_id)
    assert isinstance(game_id, int)
    moment = now()
    end = _evening_end(game_id, finished_at)
    if end is not None and end + AFTER_END <= moment:
        return []
    rows = db.session.execute(
        _LIVE_OF_GAMES,
        {"game_ids": [game_id, *_earlier_games(game_id)], "owner_id": account_id, "now": moment},
    )
    return [
        Invitation(
            id=m["id"],
            game_id=m["game_id"],
            mode=m["mode"],
            created_at=m["created_at"],
            ends_at=_ends_at(m["expires_at"], end),
            game_finished=end is not None,
        )
        for m in (row._mapping for row in rows)
    ]


def revoke(account_id: int, game_id: object, invitation_id: object) -> None:
    """End an invitation at once: the phones that joined by it get a 404 from their next
    request on. The game's own invitations, or those of the earlier games of its evening
    (`live` lists them with it). NotFound for another account's game or invitation, or one
    already revoked."""
    _owned_game_end(account_id, game_id)
    assert isinstance(game_id, int)
    if isinstance(invitation_id, bool) or not isinstance(invitation_id, int):
        raise NotFound(gettext(NO_INVITATION))
    result = db.session.execute(
        update(_inv)
        .where(
            _inv.c.id == invitation_id,
            _inv.c.game_id.in_([game_id, *_earlier_games(game_id)]),
            _inv.c.account_id == account_id,
            _inv.c.revoked_at.is_(None),
        )
        .values(revoked_at=now())
    )
    if result.rowcount == 0:  # type: ignore[attr-defined]
        db.session.rollback()
        raise NotFound(gettext(NO_INVITATION))
    audit.record(
        audit.INVITATION_REVOKED, account_id, f"gra {game_id}, zaproszenie {invitation_id}"
    )
    db.session.commit()


# --- the guest's side ----------------------------------------------------------------------


def by_token(token: str) -> Guest | None:
    """The guest a link's token lets in, or None: unknown, revoked or expired."""
    if not token or len(token) > TOKEN_MAX_LENGTH or not token.isascii():
        return None
    moment = now()
    row = db.session.execute(_LIVE_BY_DIGEST, {"digest": digest(token), "now": moment}).first()
    if row is None or not _evening_on(row.game_id, row.finished_at, moment):
        return None
    return _guest(row._mapping)


def guest(invitation_id: object, token_digest: object) -> Guest | None:
    """The guest a browser session names (the invitation's id and its token's digest), while
    that invitation is live; None otherwise. Asked on every request of a guest phone. The
    digest decides: a game restored from the trash makes its invitations again under new ids
    (`make_again`), and the phones joined by them play on."""
    if isinstance(invitation_id, bool) or not isinstance(invitation_id, int):
        return None
    if not isinstance(token_digest, str):
        return None
    moment = now()
    row = db.session.execute(_LIVE_BY_DIGEST, {"digest": token_digest, "now": moment}).first()
    if row is None or not _evening_on(row.game_id, row.finished_at, moment):
        return None
    return _guest(row._mapping)


def games_of(visitor: Guest) -> list[int]:
    """The games a guest phone may open: the game of its invitation, then the rest of its
    evening (`_evening_after`: the family tapped „Rewanż”, and the phones at the table follow
    without a new code). The invitation lives as long as that evening (`_evening_on`)."""
    conn = game_store.connection()
    finished_at = conn.execute(_GAME_END, {"game_id": visitor.game_id}).scalar()
    after = _evening_after(visitor.game_id, finished_at, conn)
    return [visitor.game_id, *(game_id for game_id, _end in after)]


def confirm_before_commit(visitor: Guest) -> None:
    """Every write of this request asks once more, inside its own transaction just before it
    commits (after the game's lock, the write's first statement): a revocation that came after
    the request was let in still stops the write, and one that comes during it waits for it.
    The write then fails with InvitationGone, a NotFound."""
    game_store.check_before_commit(lambda: confirm_for_write(visitor))


def confirm_for_write(visitor: Guest) -> None:
    """Inside a guest's write, once the game is locked: InvitationGone unless the invitation
    is still live now. The caller's transaction is left open (its commit writes the turn)."""
    conn = game_store.connection()  # the write's own, whichever runs it
    row = conn.execute(_INVITATION_FOR_WRITE, {"invitation_id": visitor.invitation_id}).first()
    moment = now()
    if row is None or row.revoked_at is not None or row.expires_at <= moment:
        raise InvitationGone()
    finished_at = conn.execute(_GAME_END, {"game_id": row.game_id}).scalar()
    if not _evening_on(row.game_id, finished_at, moment, conn):
        raise InvitationGone()


def record_use(visitor: Guest) -> None:
    """The audit log: a phone joined a game by an invitation."""
    audit.record(
        audit.INVITATION_USED,
        visitor.account_id,
        f"gra {visitor.game_id}, zaproszenie {visitor.invitation_id} ({visitor.mode})",
        commit=True,
    )
