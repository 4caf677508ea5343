"""The trash („Kosz”): a deleted game is kept for `KEEP_DAYS` and can be brought back.

A tap on „Tak, usuń grę” is easy to make by mistake at a table, and a game is part of years of
family history. So deleting a game (`delete_game`) first writes it here, in the same
transaction: the game as the export writes it (`transfer.export.game_document`, a one-game
`kosci-export` document), the ids of its seats' players, and the game that was its rematch.
The game itself is deleted as before, so no list, statistic or API answer ever has to leave
trashed games out.

Restoring replays the document through the rules (`transfer.parse`), as an import does, and
writes the game again (`transfer.write.write_game`) under a new id (ids are never used twice,
so a phone still showing the deleted game cannot write into it), in one transaction with the
entry marked restored: two phones tapping „Przywróć” at once get one game, and the second is
told it is back already. A seat's player is the same player as before when the account still
has them (renamed meanwhile or not); else the player of that name, else a new one.

Entries older than `KEEP_DAYS` are removed (`purge`: at every deletion and every restore, and
by `flask --app tracker purge-trash`); they are never listed or restored. Until then an entry
also answers for the game's old id (`gone`): a phone still on the deleted game's page is told
it was deleted, or led to the game it was restored as.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, delete, func, insert, null, select, update

from ..extensions import db
from ..i18n import N_, _, gettext
from ..models import DeletedGame, Game, Player, PlayerMerge, utcnow
from ..store import cache
from ..store import games as store
from . import audit, invitations, skill
from .errors import Conflict, NotFound
from .games import get_game, locked_game
from .transfer.document import Refused
from .transfer.export import game_document
from .transfer.parse import parse_document
from .transfer.write import write_game

KEEP_DAYS = 30

# Codes of the refusals (the API's "code" when the API asks; callers branch on them).
ALREADY_RESTORED = "already_restored"
PLAYERS_JOINED = "players_joined"

logger = logging.getLogger(__name__)

_entries = DeletedGame.__table__
_players = Player.__table__
_games = Game.__table__
_merges = PlayerMerge.__table__


@dataclass(frozen=True)
class Restored:
    """What a restore did: the game it is now, and whether the account had it already (an
    import of a backup brought it back before), in which case nothing was written but the
    entry's end."""

    game_id: int
    variant: str
    names: list[str]
    was_there: bool = False


@dataclass(frozen=True)
class TrashEntry:
    """A deleted game as the trash lists it."""

    id: int
    variant: str
    names: list[str]
    started_at: datetime
    finished_at: datetime | None
    deleted_at: datetime

    @property
    def expires_at(self) -> datetime:
        return self.deleted_at + timedelta(days=KEEP_DAYS)


class AlreadyRestored(Conflict):
    """The entry was restored already (on another phone, or by a second tap): `game_id` is the
    game it became, None if that game is gone again."""

    code = ALREADY_RESTORED

    def __init__(self, message: str, game_id: int | None) -> None:
        super().__init__(message)
        self.game_id = game_id


def _cutoff(now: datetime | None = None) -> datetime:
    return (now or utcnow()) - timedelta(days=KEEP_DAYS)


def delete_game(account_id: int, game_id: int) -> int:
    """Delete the account's game, keeping it here (`keep`, in the same transaction) for
    `KEEP_DAYS`; the trash entry's id, for „Cofnij”. NotFound for a game the account does not
    have."""
    with locked_game(account_id, game_id):
        game = get_game(account_id, game_id)
        entry_id = keep(account_id, game)
        audit.record(audit.GAME_DELETED, account_id, f"gra {game_id} ({game.variant})")
        db.session.delete(game)
        db.session.commit()
    cache.drop(game_id)
    return entry_id


def keep(account_id: int, game: Game) -> int:
    """Put the account's game into the trash, in the caller's write transaction (the caller
    deletes the game and commits); the entry's id. Older entries of the account go."""
    document = game_document(game)
    invitations.hand_to_rematch(game.id)  # the phones playing its rematch keep their links
    rematch_uid = db.session.scalar(select(_games.c.uid).where(_games.c.rematch_of_id == game.id))
    purge(account_id)
    return int(
        db.session.execute(
            insert(_entries).returning(_entries.c.id),
            {
                "account_id": account_id,
                "uid": game.uid,
                "game_id": game.id,
                "variant": game.variant,
                "names": [seat.player.name for seat in game.seats],
                "started_at": game.started_at,
                "finished_at": game.finished_at,
                "deleted_at": utcnow(),
                "document": document,
                "player_ids": [seat.player_id for seat in game.seats],
                "rematch_uid": rematch_uid,
                # The phones joined by a link play on when the game comes back (`restore`).
                "invitations": invitations.kept(game.id) or null(),  # SQL NULL, not JSON null
            },
        ).scalar_one()
    )


def _in_trash(account_id: int) -> list[ColumnElement[bool]]:
    """The account's entries that are in its trash: deleted in the last `KEEP_DAYS`, not
    restored."""
    return [
        _entries.c.account_id == account_id,
        _entries.c.restored_at.is_(None),
        _entries.c.deleted_at > _cutoff(),
    ]


def entries(account_id: int) -> list[TrashEntry]:
    """The account's trash, the latest deletion first."""
    rows = db.session.execute(
        select(
            _entries.c.id,
            _entries.c.variant,
            _entries.c.names,
            _entries.c.started_at,
            _entries.c.finished_at,
            _entries.c.deleted_at,
        )
        .where(*_in_trash(account_id))
        .order_by(_entries.c.deleted_at.desc(), _entries.c.id.desc())
    ).all()
    return [TrashEntry(*row) for row in rows]


def count(account_id: int) -> int:
    """How many games the account's trash holds (the history's „Kosz (n)”)."""
    return db.session.scalar(select(func.count()).where(*_in_trash(account_id))) or 0


def purge(account_id: int | None = None) -> int:
    """Remove the entries older than `KEEP_DAYS` (of one account, or of all), in the caller's
    transaction; how many."""
    statement = delete(_entries).where(_entries.c.deleted_at <= _cutoff())
    if account_id is not None:
        statement = statement.where(_entries.c.account_id == account_id)
    return int(db.session.execute(statement).rowcount)  # type: ignore[attr-defined]


def purge_all() -> int:
    """`purge` of every account, as a write of its own (`flask --app tracker purge-trash`)."""
    with store.writing():
        removed = purge()
        db.session.commit()
    return removed


_NO_ENTRY = N_(
    "Tej gry nie ma w koszu. Gra leży w koszu %(days)d dni od usunięcia, potem znika na zawsze."
)


def restore(account_id: int, entry_id: int) -> Restored:
    """Bring the game of the account's trash entry back, as a new game.

    NotFound for an entry the account does not have (or no longer: older than `KEEP_DAYS`),
    AlreadyRestored when it was restored already, Conflict when two of its players have become
    one. When the account has the game again (an import of a backup brought it back), the
    entry ends and leads to that game."""
    with store.writing():
        store.lock_key(f"trash {account_id}")
        purge(account_id)
        row = db.session.execute(
            select(
                _entries.c.variant,
                _entries.c.names,
                _entries.c.document,
                _entries.c.player_ids,
                _entries.c.rematch_uid,
                _entries.c.restored_at,
                _entries.c.restored_game_id,
                _entries.c.game_id,
                _entries.c.invitations,
            ).where(_entries.c.id == entry_id, _entries.c.account_id == account_id)
        ).first()
        if row is None:
            raise NotFound(gettext(_NO_ENTRY, days=KEEP_DAYS))
        (
            variant,
            names,
            document,
            player_ids,
            rematch_uid,
            restored_at,
            restored_game_id,
            old_id,
            kept_invitations,
        ) = row
        if restored_at is not None:
            raise AlreadyRestored(
                _("Tę grę już przywrócono (może na innym telefonie)."),
                _existing(account_id, restored_game_id),
            )
        try:
            players, (game,) = parse_document(document)
        except Refused as exc:  # written by this app: never, unless the rules changed since
            logger.error("Trash entry %s cannot be replayed: %s", entry_id, exc.message)
            raise Conflict(_("Tej gry nie da się przywrócić: %(why)s", why=exc.message)) from exc
        there = db.session.scalar(
            select(_games.c.id).where(_games.c.account_id == account_id, _games.c.uid == game.uid)
        )
        if there is not None:
            _mark_restored(entry_id, there)
            db.session.commit()
            return Restored(int(there), variant, names, was_there=True)
        seat_players = _seat_players(account_id, game.players, player_ids, players)
        parent_id = None
        if game.rematch_of is not None:
            parent_id = _free_parent(account_id, game.rematch_of)
        game_id = write_game(account_id, game, seat_players, parent_id)
        if rematch_uid is not None:
            db.session.execute(
                update(_games)
                .where(
                    _games.c.account_id == account_id,
                    _games.c.uid == rematch_uid,
                    _games.c.rematch_of_id.is_(None),
                )
                .values(rematch_of_id=game_id)
            )
        if old_id is not None:
            _follow_game(account_id, int(old_id), game_id)
        if kept_invitations:
            invitations.make_again(account_id, game_id, kept_invitations)
        _mark_restored(entry_id, game_id)
        audit.record(audit.GAME_RESTORED, account_id, f"gra {game_id} ({game.variant})")
        db.session.commit()
    _review(game_id)
    return Restored(game_id, variant, names)


def _mark_restored(entry_id: int, game_id: int) -> None:
    db.session.execute(
        update(_entries)
        .where(_entries.c.id == entry_id)
        .values(restored_at=utcnow(), restored_game_id=game_id)
    )


def _follow_game(account_id: int, old_id: int, new_id: int) -> None:
    """The merges (not undone) that moved a seat of the game restored now know it by its new
    id, so that undoing one gives the seat back here too."""
    for merge_id, game_ids in db.session.execute(
        select(_merges.c.id, _merges.c.game_ids).where(
            _merges.c.account_id == account_id, _merges.c.undone_at.is_(None)
        )
    ).all():
        if old_id in game_ids:
            db.session.execute(
                update(_merges)
                .where(_merges.c.id == merge_id)
                .values(game_ids=sorted({*game_ids, new_id} - {old_id}))
            )


def _existing(account_id: int, game_id: int | None) -> int | None:
    if game_id is None:
        return None
    found = db.session.scalar(
        select(_games.c.id).where(_games.c.id == game_id, _games.c.account_id == account_id)
    )
    return None if found is None else int(found)


def _seat_players(
    account_id: int,
    keys: list[str],
    stored_ids: list[int],
    players: dict[str, tuple[str, datetime | None]],
) -> dict[str, int]:
    """Each seat's player (name key → player id): the player the seat had when the account
    still has them, or the player they were merged into since (`_merged_into`), else the
    account's player of that name, else a new player of that name.
    Conflict when two seats would become one player (one was merged into the other)."""
    owned = {
        player_id: key
        for player_id, key in db.session.execute(
            select(_players.c.id, _players.c.name_key).where(_players.c.account_id == account_id)
        )
    }
    by_key = {key: player_id for player_id, key in owned.items()}
    chosen: dict[str, int] = {}
    for key, stored in zip(keys, stored_ids, strict=True):
        merged_into = _merged_into(account_id, stored, owned)
        if merged_into is not None:
            chosen[key] = merged_into
        elif key in by_key:
            chosen[key] = by_key[key]
        else:
            name, created_at = players[key]
            by_key[key] = chosen[key] = store.insert_player(account_id, name, key, created_at)
    seen: dict[int, str] = {}
    for key, player_id in chosen.items():
        if player_id in seen:
            now = db.session.scalar(select(_players.c.name).where(_players.c.id == player_id))
            raise Conflict(
                _(
                    "Tej gry nie da się przywrócić: grali w niej %(first)s i %(second)s, a to "
                    "teraz jeden gracz, %(name)s. Jeśli połączono ich przez pomyłkę, cofnij to "
                    "połączenie na stronie Gracze i przywróć grę jeszcze raz.",
                    first=players[seen[player_id]][0],
                    second=players[key][0],
                    name=now,
                ),
                code=PLAYERS_JOINED,
            )
        seen[player_id] = key
    return chosen


def _merged_into(account_id: int, player_id: int, owned: Mapping[int, str]) -> int | None:
    """The account's player that has the seats of `player_id` now: the player, or the one they
    were merged into (and so on, A into B into C), unless that merge was undone; None when
    there is none (the player was deleted, or the merge undone: the name decides then)."""
    seen: set[int] = set()
    while player_id not in owned:
        if player_id in seen:
            return None
        seen.add(player_id)
        target = db.session.scalar(
            select(_merges.c.target_id)
            .where(
                _merges.c.account_id == account_id,
                _merges.c.source_id == player_id,
                _merges.c.undone_at.is_(None),
            )
            .order_by(_merges.c.id.desc())
            .limit(1)
        )
        if target is None:
            return None
        player_id = int(target)
    return player_id


def _free_parent(account_id: int, uid: str) -> int | None:
    """The game of `uid` (the one this game was a rematch of), when it is still there and has
    no other rematch now; else None, and the game comes back as a game of its own."""
    parent = db.session.scalar(
        select(_games.c.id).where(_games.c.account_id == account_id, _games.c.uid == uid)
    )
    if parent is None:
        return None
    taken = db.session.scalar(select(_games.c.id).where(_games.c.rematch_of_id == parent))
    return None if taken is not None else int(parent)


def _review(game_id: int) -> None:
    """The restored game's seat reviews („who plays best”), judged from its turns like every
    derived figure, after the restore has committed; a failure is logged, never the restore's
    (`flask --app tracker advisor recompute` fills them in)."""
    try:
        skill.review_games([game_id], only_missing=True)
    except Exception:
        db.session.rollback()
        logger.exception("Restored game %s: its seat reviews were not stored.", game_id)


@dataclass(frozen=True)
class Gone:
    """What became of a game the account had under an id it has no longer (`gone`)."""

    deleted_at: datetime
    restored_as: int | None  # the game it was restored as, when it is still there
    in_trash: bool  # it can still be restored


def keeps_invitation(game_id: int, token_digest: str) -> bool:
    """Whether the game `game_id` is in a trash (deleted, not restored) with the invitation
    whose token has this digest among those it keeps (`keep`): the phone joined by it is told
    that its game was deleted and may come back, not that its link expired."""
    rows = db.session.execute(
        select(_entries.c.invitations).where(
            _entries.c.game_id == game_id,
            _entries.c.restored_at.is_(None),
            _entries.c.deleted_at > _cutoff(),
        )
    )
    return any(
        isinstance(item, dict) and item.get("token_hash") == token_digest
        for (kept,) in rows
        for item in kept or ()
    )


def gone(account_id: int, game_id: int) -> Gone | None:
    """What became of the account's game `game_id` that is not there: deleted (in the trash or
    past its days), or restored under another id; None when the account never deleted a game
    of that id (or deleted it before the trash kept ids). For the old address of a game that
    another phone deleted or restored."""
    row = db.session.execute(
        select(_entries.c.deleted_at, _entries.c.restored_game_id)
        .where(_entries.c.account_id == account_id, _entries.c.game_id == game_id)
        .order_by(_entries.c.id.desc())
        .limit(1)
    ).first()
    if row is None:
        return None
    deleted_at, restored_id = row
    restored_as = _existing(account_id, restored_id)
    in_trash = restored_id is None and deleted_at > _cutoff()
    return Gone(deleted_at, restored_as, in_trash)
