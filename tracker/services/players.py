"""Players: named people of an account. Games refer to a player by id, so renaming changes no
result; merging two players gives one of them the other's seats (the same person entered twice);
a player without a game can be deleted.

Every change to a player that a game shows (its name, whose seat it is) raises the version of
each of those games in the same transaction: phones following a game see it (ETag), and no
cached table state of the game is used again.

A rename, a deletion or a merge decides on the players as they are under its lock: it reads
them again, locked (`_locked`), so that of two phones changing the same player at once the
second finds what the first did (a player gone is a 404), and two merges of the same two
players cannot wait on each other. A game started meanwhile with the player either waits for
the change (its seat's foreign key) and shows the new name, or is seen by it and raised.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError

from ..collation import polish_sorted
from ..extensions import db
from ..i18n import N_, _, gettext, ngettext
from ..models import DeletedGame, Game, GameSeat, Player, PlayerMerge, name_key, utcnow
from ..store import games as store
from ..store import skill as skill_store
from . import audit
from .accounts import clean_name
from .errors import PLAYER_GONE, Conflict, InvalidInput, NotFound
from .names import char_label, graphemes, has_visible_core, refused_character

NAME_MAX = 30  # characters as people count them: "👨‍👩‍👧 Kowalscy" has 10
# What the column holds (code points): room for 30 characters with a few emoji among them.
NAME_CODE_POINTS = 120
NO_PLAYER = N_("Nie ma takiego gracza.")  # shown through gettext
# How long a merge can be undone („Cofnij połączenie”, the players page lists them).
MERGE_UNDO_DAYS = 30
NO_MERGE = N_("Tego połączenia nie da się już cofnąć: minęło %(days)d dni albo go nie było.")
MERGE_UNDONE = "merge_undone"  # the refusal's code: undone already (another phone)
NAME_TAKEN = "name_taken"


class PlayerHasGames(Conflict):
    """Only a player without a game can be deleted: the games would lose a seat."""

    code = "player_has_games"


class PlayersShareAGame(Conflict):
    """Two players who sat at one table are two people: one game cannot seat a player twice."""

    code = "players_share_a_game"


@dataclass(frozen=True)
class PlayerRow:
    """A player of the players page, with the number of games they sat in: `finished` is the
    number the player's statistics count, `unfinished` the games still going on (or abandoned)."""

    player: Player
    finished: int
    unfinished: int

    @property
    def games(self) -> int:
        """Every game the player sat in, over or not (a player with none may be deleted)."""
        return self.finished + self.unfinished


def validate_name(raw: str | None) -> str:
    """The name as stored: spaces collapsed, Unicode composed (NFC); InvalidInput (field
    `name`) that says what is wrong, naming the character when one is refused."""
    name = unicodedata.normalize("NFC", clean_name(raw))
    if not name:
        raise InvalidInput(_("Podaj imię gracza."), "name")
    if len(graphemes(name)) > NAME_MAX:
        raise InvalidInput(
            _("Imię gracza może mieć najwyżej %(num)d znaków.", num=NAME_MAX), "name"
        )
    refused = refused_character(name)
    if refused is not None:
        raise InvalidInput(
            _("Znak %(char)s nie może być w imieniu.", char=char_label(refused)), "name"
        )
    if len(name) > NAME_CODE_POINTS or len(name_key(name)) > NAME_CODE_POINTS:
        # 30 characters, but many of them emoji of several code points, or piled-up accents.
        raise InvalidInput(_("Imię gracza jest za długie: skróć je albo użyj mniej emoji."), "name")
    if not has_visible_core(name):
        raise InvalidInput(_("Imię gracza musi zawierać literę, cyfrę albo emoji."), "name")
    return name


def list_players(account_id: int) -> list[Player]:
    """The account's players in Polish alphabetical order (Łukasz after Lucyna, not after Zoë)."""
    found = db.session.scalars(select(Player).where(Player.account_id == account_id))
    return polish_sorted(found, key=lambda p: p.name)


def list_players_with_games(account_id: int) -> list[PlayerRow]:
    """The account's players in Polish alphabetical order, each with the games they sat in,
    finished and unfinished apart."""
    counts: dict[tuple[int, bool], int] = {
        (player_id, finished): n
        for player_id, finished, n in db.session.execute(
            select(GameSeat.player_id, Game.finished_at.is_not(None), func.count())
            .join(Game, Game.id == GameSeat.game_id)
            .where(Game.account_id == account_id)
            .group_by(GameSeat.player_id, Game.finished_at.is_not(None))
        ).all()
    }
    return [
        PlayerRow(p, counts.get((p.id, True), 0), counts.get((p.id, False), 0))
        for p in list_players(account_id)
    ]


@dataclass(frozen=True)
class Merged:
    """A merge done: the player that stayed, how many games changed hands, and the merge's id
    (for „Cofnij połączenie”)."""

    target: Player
    moved: int
    merge_id: int


@dataclass(frozen=True)
class MergeEntry:
    """A merge that can still be undone, as the players page lists it."""

    id: int
    source_name: str
    target_name: str
    games: int
    merged_at: datetime
    source_id: int | None = None


def get_player(account_id: int, player_id: int) -> Player:
    player = db.session.get(Player, player_id)
    if player is None or player.account_id != account_id:
        raise NotFound(gettext(NO_PLAYER))
    return player


def _locked(account_id: int, *player_ids: int) -> dict[int, Player]:
    """The account's players with these ids, read afresh and locked until the write ends, by
    id; a player deleted or merged away meanwhile is absent. Locked in id order, and before
    any game (every write that locks players and games takes the players first), so that two
    writes on the same players queue instead of deadlocking. SQLite has no row locks: the
    writers' queue (`store.writing`) already lets one write in at a time."""
    found = db.session.scalars(
        select(Player)
        .where(Player.account_id == account_id, Player.id.in_(player_ids))
        .order_by(Player.id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    return {player.id: player for player in found}


def _locked_player(account_id: int, player_id: int) -> Player:
    player = _locked(account_id, player_id).get(player_id)
    if player is None:
        raise NotFound(gettext(NO_PLAYER))
    return player


def games_of(player_id: int) -> int:
    """How many games the player sat in."""
    return (
        db.session.scalar(
            select(func.count()).select_from(GameSeat).where(GameSeat.player_id == player_id)
        )
        or 0
    )


def player_ids_by_names(account_id: int, names: list[str]) -> list[int]:
    """The ids of the account's players with these names (case ignored), in the caller's
    write; new names become new players (IntegrityError if another write made one meanwhile)."""
    cleaned = [validate_name(n) for n in names]
    keys = [name_key(n) for n in cleaned]
    if len(set(keys)) != len(keys):
        raise InvalidInput(_("Każdy gracz może siedzieć przy stole tylko raz."), "players")
    existing = store.player_ids(account_id, keys)
    return [
        existing[key] if key in existing else store.insert_player(account_id, name, key)
        for name, key in zip(cleaned, keys, strict=True)
    ]


def rename_player(account_id: int, player_id: int, new_name: str) -> Player:
    get_player(account_id, player_id)  # another account's player: 404 before the name's checks
    name = validate_name(new_name)
    with store.writing():
        player = _locked_player(account_id, player_id)
        if name == player.name:
            db.session.rollback()  # nothing to write: the lock goes now
            return player
        store.bump_versions_of_player(player.id)  # every game of theirs shows the new name
        player.name = name
        player.name_key = name_key(name)
        try:  # the unique key decides, also against a rename on another phone at the same moment
            db.session.commit()
        except IntegrityError:
            # Rolled back before the message: choosing its language may read the account.
            db.session.rollback()
            raise InvalidInput(_("Inny gracz ma już takie imię."), "name") from None
    return player


def delete_player(account_id: int, player_id: int) -> str:
    """Delete a player who sat in no game (a game deleted leaves its players); their name.
    A player with games is refused (PlayerHasGames): merge them into another instead."""
    get_player(account_id, player_id)
    with store.writing():
        store.lock_key(f"trash {account_id}")  # a restore of their game decides first, or after
        player = _locked_player(account_id, player_id)  # 404 for the second of two deletes
        name = player.name
        games = games_of(player.id)
        if games:
            raise PlayerHasGames(
                ngettext(
                    "Nie można usunąć gracza %(name)s: jest zapisany w %(num)d grze. Usunąć "
                    "można tylko gracza bez gier; tę samą osobę zapisaną dwa razy połącz w "
                    "jednego gracza.",
                    "Nie można usunąć gracza %(name)s: jest zapisany w %(num)d grach. Usunąć "
                    "można tylko gracza bez gier; tę samą osobę zapisaną dwa razy połącz w "
                    "jednego gracza.",
                    games,
                    name=name,
                )
            )
        audit.record(audit.PLAYER_DELETED, account_id, f"gracz {player.id} ({name})")
        db.session.delete(player)
        try:  # a game started with them meanwhile: the seat's foreign key refuses
            db.session.commit()
        except IntegrityError:
            db.session.rollback()  # before the message (its language may read the account)
            raise PlayerHasGames(
                _(
                    "Nie można usunąć gracza %(name)s: właśnie zaczęła się gra z jego udziałem.",
                    name=name,
                )
            ) from None
    return name


def merge_players(account_id: int, source_id: int, target_id: int) -> Merged:
    """Merge `source` into `target` (one person entered under two names): every seat of source
    becomes target's, then source is deleted, in one transaction. The figures cached on a seat
    are the seat's own, so nothing is recomputed; statistics and history read seats by player
    id and show source's games under target. Refused when both sat in one game
    (PlayersShareAGame). The merge is recorded (`PlayerMerge`) so that `undo_merge` can take
    it apart for `MERGE_UNDO_DAYS`."""
    get_player(account_id, source_id)
    chosen = get_player(account_id, target_id).name
    if source_id == target_id:
        raise InvalidInput(_("Wybierz innego gracza niż ten, którego łączysz."), "target")
    with store.writing():
        # Before the players (as `trash.restore` takes it): a game of source restored from the
        # trash at this moment is written before the merge (which moves its seat) or after it
        # (which gives it to target), never with a seat of the player the merge deletes.
        store.lock_key(f"trash {account_id}")
        pair = _locked(account_id, source_id, target_id)
        source, target = pair.get(source_id), pair.get(target_id)
        if source is None:  # merged or deleted by another phone meanwhile
            raise NotFound(gettext(NO_PLAYER))
        if target is None:
            raise Conflict(
                _(
                    "Gracza %(name)s właśnie usunięto albo połączono z innym: wybierz innego.",
                    name=chosen,
                ),
                "target",
                PLAYER_GONE,
            )
        names = (source.name, target.name)
        shared = _shared_games(source.id, target.id)
        if shared:
            raise PlayersShareAGame(
                ngettext(
                    "Nie można połączyć graczy %(first)s i %(second)s: siedzą razem przy stole "
                    "w %(num)d grze, a w jednej grze każdy ma jedno miejsce. To dwie różne osoby.",
                    "Nie można połączyć graczy %(first)s i %(second)s: siedzą razem przy stole "
                    "w %(num)d grach, a w jednej grze każdy ma jedno miejsce. To dwie różne "
                    "osoby.",
                    shared,
                    first=names[0],
                    second=names[1],
                )
            )
        try:
            locked = store.bump_versions_of_player(source.id)  # their seats get another name
            moved = store.move_seats(source.id, target.id)
            skill_store.move_reviews(source.id, target.id)  # who plays best follows
            store.bump_versions(sorted(set(moved) - set(locked)))  # a game started meanwhile
            merge = PlayerMerge(
                account_id=account_id,
                source_name=source.name,
                source_created_at=source.created_at,
                source_id=source.id,
                target_id=target.id,
                game_ids=moved,
            )
            db.session.add(merge)
            db.session.execute(delete(Player).where(Player.id == source.id))
            audit.record(
                audit.PLAYERS_MERGED,
                account_id,
                f"gracz {source.id} ({names[0]}) → {target.id} ({names[1]}), gier: {len(moved)}",
            )
            db.session.commit()
        except IntegrityError:  # a game that seats both was started meanwhile
            db.session.rollback()  # before the message (its language may read the account)
            raise PlayersShareAGame(
                _(
                    "Nie można połączyć graczy %(first)s i %(second)s: właśnie zaczęli wspólną "
                    "grę.",
                    first=names[0],
                    second=names[1],
                )
            ) from None
    db.session.expire_all()  # the session's seats and players still say who sat where before
    return Merged(get_player(account_id, target_id), len(moved), merge.id)


def recent_merges(account_id: int) -> list[MergeEntry]:
    """The account's merges of the last `MERGE_UNDO_DAYS` not undone, whose remaining player
    is still there (one merged away since cannot be taken apart), the latest first."""
    since = utcnow() - timedelta(days=MERGE_UNDO_DAYS)
    rows = db.session.execute(
        select(PlayerMerge, Player.name)
        .join(Player, Player.id == PlayerMerge.target_id)
        .where(
            PlayerMerge.account_id == account_id,
            Player.account_id == account_id,
            PlayerMerge.undone_at.is_(None),
            PlayerMerge.merged_at > since,
        )
        .order_by(PlayerMerge.merged_at.desc(), PlayerMerge.id.desc())
    )
    return [
        MergeEntry(
            merge.id, merge.source_name, name, len(merge.game_ids), merge.merged_at, merge.source_id
        )
        for merge, name in rows
    ]


def undo_merge(account_id: int, merge_id: int) -> tuple[Player, Player]:
    """Take a merge apart: a player of the merged-away name again (a new player, created when
    the first was), with exactly the seats (and reviews) the merge moved, of the games still
    there; the games started since stay the remaining player's. Returns (the player back, the
    player that remains).

    NotFound for a merge the account does not have or older than `MERGE_UNDO_DAYS`; Conflict
    when it was undone already (`MERGE_UNDONE`), when the remaining player has been merged away
    or deleted since (`PLAYER_GONE`), or when another player has the name now (`NAME_TAKEN`)."""
    since = utcnow() - timedelta(days=MERGE_UNDO_DAYS)
    with store.writing():
        # Before any row (as `trash.restore` takes it): a restore of one of the merge's games
        # and this undo decide one after the other, so that the game's seat is given back.
        store.lock_key(f"trash {account_id}")
        merge = db.session.scalar(
            select(PlayerMerge)
            .where(PlayerMerge.id == merge_id, PlayerMerge.account_id == account_id)
            .with_for_update()
            .execution_options(populate_existing=True)
        )
        if merge is None or merge.merged_at <= since:
            raise NotFound(gettext(NO_MERGE, days=MERGE_UNDO_DAYS))
        if merge.undone_at is not None:
            raise Conflict(
                _("To połączenie już cofnięto (może na innym telefonie)."), code=MERGE_UNDONE
            )
        target = _locked(account_id, merge.target_id).get(merge.target_id)
        if target is None:
            later = _merge_of(account_id, merge.target_id)
            if later is not None:  # A into B, then B into C: B→C is to be undone first
                raise Conflict(
                    _(
                        "Nie da się cofnąć: gracza %(target)s, z którym połączono %(name)s, "
                        "połączono potem z graczem %(other)s. Najpierw cofnij tamto połączenie "
                        "(%(target)s → %(other)s), potem to.",
                        name=merge.source_name,
                        target=later.source_name,
                        other=later.target_name,
                    ),
                    code=PLAYER_GONE,
                )
            raise Conflict(
                _(
                    "Nie da się cofnąć: gracza, z którym połączono %(name)s, połączono tymczasem "
                    "z innym.",
                    name=merge.source_name,
                ),
                code=PLAYER_GONE,
            )
        name, key = merge.source_name, name_key(merge.source_name)
        if store.player_ids(account_id, [key]):
            raise Conflict(
                _(
                    "Nie da się cofnąć: imię %(name)s ma teraz inny gracz. Zmień mu imię i cofnij "
                    "jeszcze raz.",
                    name=merge.source_name,
                ),
                code=NAME_TAKEN,
            )
        try:  # the name taken meanwhile (PostgreSQL: by a game started with it) refuses
            back_id = store.insert_player(account_id, name, key, merge.source_created_at)
            # Their seats get another name again. The games first, then their seats, as every
            # write to a game locks them (else a deletion of one of them at this moment deadlocks).
            store.bump_versions(sorted(merge.game_ids))
            moved = store.move_seats_in(target.id, back_id, list(merge.game_ids))
            skill_store.move_reviews_in(target.id, back_id, moved)
            _give_back_in_trash(
                account_id, [g for g in merge.game_ids if g not in moved], target.id, back_id
            )
            if merge.source_id is not None:
                # A into B, then B into C, and this (B into C) undone: A was merged into B, who is
                # back now, so A's merge can be undone again (from B, who has A's games back).
                db.session.execute(
                    update(PlayerMerge)
                    .where(
                        PlayerMerge.account_id == account_id,
                        PlayerMerge.target_id == merge.source_id,
                        PlayerMerge.undone_at.is_(None),
                    )
                    .values(target_id=back_id)
                )
            merge.undone_at = utcnow()
            audit.record(
                audit.PLAYERS_UNMERGED,
                account_id,
                f"gracz {target.id} ({target.name}) → {back_id} ({name}), gier: {len(moved)}",
            )
            db.session.commit()
        except IntegrityError:
            db.session.rollback()
            raise Conflict(
                _("Nie da się cofnąć: imię %(name)s właśnie dostał inny gracz.", name=name),
                code=NAME_TAKEN,
            ) from None
    db.session.expire_all()
    return get_player(account_id, back_id), get_player(account_id, target.id)


def _merge_of(account_id: int, player_id: int) -> MergeEntry | None:
    """The merge (not undone) that took this player away, as the players page lists it, when
    the player it went to is still there."""
    return next((m for m in recent_merges(account_id) if m.source_id == player_id), None)


def _give_back_in_trash(account_id: int, game_ids: list[int], target: int, back: int) -> None:
    """The merge's games deleted since, in the trash: their seat of the remaining player is
    the player back's again, so that restoring one gives it to them."""
    if not game_ids:
        return
    entries = DeletedGame.__table__
    for entry_id, player_ids in db.session.execute(
        select(entries.c.id, entries.c.player_ids).where(
            entries.c.account_id == account_id,
            entries.c.restored_at.is_(None),
            entries.c.game_id.in_(game_ids),
        )
    ).all():
        db.session.execute(
            update(entries)
            .where(entries.c.id == entry_id)
            .values(player_ids=[back if p == target else p for p in player_ids])
        )


def _shared_games(a: int, b: int) -> int:
    """How many games seat both players."""
    theirs = select(GameSeat.game_id).where(GameSeat.player_id == b)
    return (
        db.session.scalar(
            select(func.count())
            .select_from(GameSeat)
            .where(GameSeat.player_id == a, GameSeat.game_id.in_(theirs))
        )
        or 0
    )
