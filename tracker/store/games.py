"""Reading and writing games, seats and turns with Core statements built once at import.

Every write to a game starts with `lock_game`: its first statement takes the lock the rest of
the write is decided under (SQLite's write lock, a row lock on PostgreSQL) and raises the
game's version. What is read after it, in the same transaction, is the state the write decides
on.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from contextvars import ContextVar
from datetime import datetime
from typing import Any

from flask import g, has_app_context
from sqlalchemy import (
    CTE,
    Connection,
    Engine,
    bindparam,
    event,
    exists,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.exc import SQLAlchemyError

from ..backup import sqlite_file
from ..extensions import db
from ..models import Game, GameSeat, Player, Turn
from . import kept
from .direct import Direct
from .rows import GameLock, GameRow, PlayerRef, SeatRow, TurnRow, stamp_of
from .writers import WriterQueue, queue_for

_games = Game.__table__
_seats = GameSeat.__table__
_players = Player.__table__
_turns = Turn.__table__

_GAME_COLUMNS = (
    _games.c.id,
    _games.c.account_id,
    _games.c.variant,
    _games.c.options,
    _games.c.started_at,
    _games.c.finished_at,
    _games.c.rematch_of_id,
    _games.c.uid,
    _games.c.version,
    _games.c.hints,
)
_SEAT_COLUMNS = (
    _seats.c.id,
    _seats.c.seat,
    _players.c.id.label("player_id"),
    _players.c.name,
    _seats.c.total,
    _seats.c.place,
    _seats.c.is_winner,
    _seats.c.upper_bonuses,
    _seats.c.generals,
    _seats.c.extra_bonuses,
)
_OWNED = (_games.c.id == bindparam("game_id")) & (_games.c.account_id == bindparam("owner_id"))
# The game and its seats in one statement: the turn path runs it on every request.
_GAME_WITH_SEATS = (
    select(*_GAME_COLUMNS, *_SEAT_COLUMNS)
    .select_from(_games)
    .join(_seats, _seats.c.game_id == _games.c.id)
    .join(_players, _players.c.id == _seats.c.player_id)
    .where(_OWNED)
    .order_by(_seats.c.seat)
)
# What a phone polling a game compares: the game's uid and version (every write raises it).
_STAMP = select(_games.c.uid, _games.c.version).where(_OWNED)
_INSERT_GAME = insert(_games).returning(*_GAME_COLUMNS)
_INSERT_SEAT = insert(_seats)
_GAME_BY_ID = select(*_GAME_COLUMNS).where(_games.c.id == bindparam("game_id"))
_SEATS = (
    select(*_SEAT_COLUMNS)
    .join(_players, _players.c.id == _seats.c.player_id)
    .where(_seats.c.game_id == bindparam("game_id"))
    .order_by(_seats.c.seat)
)
_GAME_IDS = select(_games.c.id).order_by(_games.c.id)
_PLAYERS_BY_KEY = select(_players.c.name_key, _players.c.id).where(
    _players.c.account_id == bindparam("account_id"),
    _players.c.name_key.in_(bindparam("keys", expanding=True)),
)
_INSERT_PLAYER = insert(_players).returning(_players.c.id)
# The first statement of every write: the lock, the version every write raises, and the game
# as it now is, in one round trip.
_LOCK = Direct(
    update(_games)
    .where(_OWNED)
    .values(version=_games.c.version + 1)
    .returning(_games.c.id, _games.c.uid, _games.c.variant, _games.c.version)
)
# The same lock for a write decided on this process's state of the game (`store.cache`) before
# any statement: taken only while the game is still that state (the same uid, owner and
# version). Nothing matches once another write has come first.
_LOCK_AT_VERSION = (
    update(_games)
    .where(_OWNED, _games.c.uid == bindparam("uid"), _games.c.version == bindparam("version"))
    .values(version=_games.c.version + 1)
    .returning(_games.c.id)
)
_LOCK_IF_AT_VERSION = Direct(_LOCK_AT_VERSION)
_BUMP_VERSION = (
    update(_games).where(_games.c.id == bindparam("game_id")).values(version=_games.c.version + 1)
)
_SET_FINISHED = (
    update(_games)
    .where(_games.c.id == bindparam("game_id"))
    .values(finished_at=bindparam("finished_at"))
)
_REMATCH = select(_games.c.id).where(_games.c.rematch_of_id == bindparam("game_id"))

_TURN_COLUMNS = (
    _turns.c.id,
    _turns.c.seq,
    _turns.c.seat,
    _turns.c.dice,
    _turns.c.field,
    _turns.c.column,
    _turns.c.points,
    _turns.c.extra_bonus,
    _turns.c.created_at,
    _turns.c.undone_at,
)
_LOG = select(*_TURN_COLUMNS).where(_turns.c.game_id == bindparam("game_id")).order_by(_turns.c.id)
# The turn path needs neither timestamps (parsing them is a real share of a request) nor the
# corrected turns.
_IN_FORCE = (
    select(*_TURN_COLUMNS[:8])
    .where(_turns.c.game_id == bindparam("game_id"), _turns.c.undone_at.is_(None))
    .order_by(_turns.c.seq)
)
_TURN_VALUES = ("game_id", "seq", "seat", "dice", "field", "column", "points", "extra_bonus")
_TURN_INSERT = (
    insert(_turns)
    .values({name: bindparam(name) for name in (*_TURN_VALUES, "created_at")})
    .returning(_turns.c.id)
)
_INSERT_TURN = Direct(_TURN_INSERT)
_MARK_UNDONE = update(_turns).where(_turns.c.id == bindparam("turn_id"))
_UPDATE_POINTS = (
    update(_turns)
    .where(_turns.c.id == bindparam("turn_id"))
    .values(points=bindparam("new_points"), extra_bonus=bindparam("new_extra_bonus"))
)
_SEAT_FIGURES = ("total", "place", "is_winner", "upper_bonuses", "generals", "extra_bonuses")
_SET_SEAT = (
    update(_seats)
    .where(_seats.c.id == bindparam("seat_id"))
    .values({name: bindparam(name) for name in _SEAT_FIGURES})
)
_UPDATE_SEAT = Direct(_SET_SEAT)


def _seat_after(new_turn: CTE, *before: CTE) -> Direct:
    """PostgreSQL: the seat's new figures set in the statement that writes the turn (the
    data-modifying CTE `new_turn`, after `before`), one round trip to the server instead of
    two (SQLite has no DML in CTEs, and needs no round trips); only if the turn was written.
    Answers the turn's id."""
    return Direct(
        _SET_SEAT.where(exists(select(new_turn.c.id)))
        .add_cte(*before, new_turn)
        .returning(select(new_turn.c.id).scalar_subquery())
    )


_INSERT_TURN_AND_SET_SEAT = _seat_after(_TURN_INSERT.cte("new_turn"))
# PostgreSQL: that lock, the turn's row and its seat's figures in one statement, each part
# written only if the one before it was (an empty CTE inserts and updates nothing).
_LOCKED = _LOCK_AT_VERSION.cte("locked")
_NEW_TURN_IF_LOCKED = (
    insert(_turns)
    .from_select(
        _TURN_VALUES + ("created_at",),
        select(
            _LOCKED.c.id,
            *(bindparam(name, type_=_turns.c[name].type) for name in _TURN_VALUES[1:]),
            bindparam("created_at", type_=_turns.c.created_at.type),
        ),
    )
    .returning(_turns.c.id)
    .cte("new_turn")
)
_LOCK_AND_INSERT_TURN = Direct(
    select(_NEW_TURN_IF_LOCKED.c.id).add_cte(_LOCKED).add_cte(_NEW_TURN_IF_LOCKED)
)
_LOCK_INSERT_TURN_AND_SET_SEAT = _seat_after(_NEW_TURN_IF_LOCKED, _LOCKED)
_TURNS_PLAYED = (
    select(_turns.c.game_id, func.count())
    .where(_turns.c.game_id.in_(bindparam("game_ids", expanding=True)))
    .where(_turns.c.undone_at.is_(None))
    .group_by(_turns.c.game_id)
)


# The write this context is in when it has a connection of its own (`own_write`).
_own: ContextVar[Connection | None] = ContextVar("kosci_own_write", default=None)


def connection() -> Connection:
    """The connection this module's statements run on: the write's own (`own_write`) while
    one runs in this context, else the ORM session's."""
    conn = _own.get()
    return db.session.connection() if conn is None else conn


_writer_queues: weakref.WeakKeyDictionary[Engine, WriterQueue | None] = weakref.WeakKeyDictionary()


@contextmanager
def writing() -> Iterator[None]:
    """A write transaction: on SQLite it first waits its turn in the writers' queue
    (`store.writers`), and any error rolls it back. The caller commits inside the block."""
    queue = writer_queue()
    with nullcontext() if queue is None else queue.turn():
        try:
            yield
        except BaseException:
            db.session.rollback()
            raise


def lock_key(key: str) -> None:
    """Inside `writing()`: serialise this write with every other write that locks `key`, until
    it ends. On SQLite the writers' queue already lets one write in at a time; on PostgreSQL a
    transaction-level advisory lock on the key's hash (a rare collision only serialises two
    unrelated writes)."""
    if db.session.get_bind().dialect.name == "postgresql":
        db.session.execute(_ADVISORY_LOCK, {"key": key})


_ADVISORY_LOCK = text("SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))")


class OwnWrite:
    """The transaction of an `own_write` block."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    def rollback(self) -> None:
        """End the write here without changing anything (the block then commits nothing)."""
        self.conn.rollback()


@contextmanager
def own_write() -> Iterator[OwnWrite]:
    """A write on a Core connection of its own, outside the ORM session: the turn path's.

    The session costs a request about 0.1 ms (its begin, state machine, commit and close:
    docs/benchmarks.md, "The evening"), a sixth of a turn's work. The block waits its turn
    in the writers' queue like `writing`, runs this module's statements on the connection,
    runs the request's commit checks (`check_before_commit`) and commits when it ends; any
    error rolls it back. It must not nest in a session write (the session would hold SQLite's
    write lock), and no ORM object may be written in it.

    The connection is the one this thread keeps for its own writes (`store.kept`: checking one
    out of the pool and back would cost a tenth of a turn)."""
    if _own.get() is not None:
        raise RuntimeError("own_write does not nest")
    engine = db.engine
    queue = writer_queue(engine)
    if queue is not None and _session_is_writing():
        # It would wait for the session's SQLite write lock until the busy timeout, then fail.
        raise RuntimeError("own_write inside a write of the ORM session")
    conn = kept.connection(engine)
    try:
        # The other writers wait only for the transaction, not for a connection.
        with nullcontext() if queue is None else queue.turn(), _transaction(conn) as write:
            yield write
    except Exception as exc:
        # Anything else was rolled back (a failed rollback raises the database's error): the
        # connection is as good as new. After the database's own error it goes back.
        if isinstance(exc, SQLAlchemyError):
            kept.drop(conn)
        raise
    except BaseException:  # interrupted, perhaps inside the driver
        kept.drop(conn)
        raise


@contextmanager
def _transaction(conn: Connection) -> Iterator[OwnWrite]:
    token = _own.set(conn)
    try:
        write = OwnWrite(conn)
        with conn.begin():
            yield write
            if conn.in_transaction():
                _run_commit_checks()
    finally:
        _own.reset(token)


def _session_is_writing() -> bool:
    """Whether this context's ORM session has begun a write on SQLite (its driver then holds
    or waits for the file's write lock until the session commits)."""
    if not db.session.registry.has():
        return False
    session = db.session()
    if not session.in_transaction():
        return False
    dbapi = session.connection().connection.dbapi_connection
    return bool(getattr(dbapi, "in_transaction", False))


def check_before_commit(check: Callable[[], None]) -> None:
    """Run `check` inside every write of this request just before it commits (it may raise to
    stop the write), whether the write is the ORM session's or its own (`own_write`)."""
    checks: list[Callable[[], None]] = g.setdefault("commit_checks", [])
    checks.append(check)


def _commit_checks() -> list[Callable[[], None]]:
    return g.get("commit_checks", []) if has_app_context() else []


def _run_commit_checks(*_args: object) -> None:
    for check in _commit_checks():
        check()


# Every commit of the ORM session (of every request) runs the request's checks.
event.listen(db.session, "before_commit", _run_commit_checks)


def writer_queue(engine: Engine | None = None) -> WriterQueue | None:
    """The queue game writes wait in (`store.writers`) for an SQLite file; None on PostgreSQL.
    `engine`: the app's (`db.engine`), when the caller has it at hand."""
    engine = db.engine if engine is None else engine
    try:
        return _writer_queues[engine]
    except KeyError:
        database = sqlite_file(engine.url)
        queue = _writer_queues[engine] = None if database is None else queue_for(database)
        return queue


def _seat_row(r: Sequence[Any]) -> SeatRow:
    return SeatRow(r[0], r[1], PlayerRef(r[2], r[3]), *r[4:])


def _turn_row(r: Sequence[Any]) -> TurnRow:
    return TurnRow(*r)


def lock_game(account_id: int, game_id: int) -> GameLock | None:
    """Take the game's write lock for this transaction and raise its version (a write changes
    the game, or rolls back and the version with it): the game's identity and new version, or
    None when the account has no such game. Only a few plain columns come back: the rest of
    the row is read when this process does not hold the game (`store.cache`)."""
    row = _LOCK.first(connection(), {"game_id": game_id, "owner_id": account_id})
    return None if row is None else GameLock(*row)


def game_stamp(account_id: int, game_id: int) -> str | None:
    """The game's state in one word, `<uid>.<version>`, which changes with every write to it
    and is never repeated by another game; None when the account has no such game."""
    row = connection().execute(_STAMP, {"game_id": game_id, "owner_id": account_id}).first()
    return None if row is None else stamp_of(row[0], row[1])


def insert_game(
    account_id: int,
    variant: str,
    options: dict[str, Any],
    player_ids: list[int],
    rematch_of: int | None = None,
    hints: bool = False,
) -> tuple[GameRow, list[SeatRow]]:
    """A new game with its players seated in this order; the game as stored."""
    conn = connection()
    values = {
        "account_id": account_id,
        "variant": variant,
        "options": options,
        "rematch_of_id": rematch_of,
        "hints": hints,
    }
    game = GameRow(*conn.execute(_INSERT_GAME, values).one())
    conn.execute(
        _INSERT_SEAT,
        [
            {"game_id": game.id, "player_id": player_id, "seat": seat}
            for seat, player_id in enumerate(player_ids)
        ],
    )
    return game, read_seats(game.id)


def player_ids(account_id: int, keys: list[str]) -> dict[str, int]:
    """The ids of the account's players with these name keys (`models.name_key`), by key."""
    rows = connection().execute(_PLAYERS_BY_KEY, {"account_id": account_id, "keys": keys})
    return {key: player_id for key, player_id in rows}


def insert_player(account_id: int, name: str, key: str, created_at: datetime | None = None) -> int:
    """A new player of the account; its id. IntegrityError when the key is taken.
    `created_at`: when the player was first created (one brought back), else now."""
    values = {"account_id": account_id, "name": name, "name_key": key}
    if created_at is not None:
        values["created_at"] = created_at
    return int(connection().execute(_INSERT_PLAYER, values).scalar_one())


def read_seats(game_id: int) -> list[SeatRow]:
    return [_seat_row(r) for r in connection().execute(_SEATS, {"game_id": game_id})]


def read_game(account_id: int, game_id: int) -> tuple[GameRow, list[SeatRow]] | None:
    """The account's game and its seats, or None (another account's game is none of its)."""
    rows = (
        connection().execute(_GAME_WITH_SEATS, {"game_id": game_id, "owner_id": account_id}).all()
    )
    if not rows:
        return None
    width = len(_GAME_COLUMNS)
    return GameRow(*rows[0][:width]), [_seat_row(r[width:]) for r in rows]


def read_game_by_id(game_id: int) -> tuple[GameRow, list[SeatRow]]:
    """Any account's game (for maintenance: recomputing, importing)."""
    conn = connection()
    game = GameRow(*tuple(conn.execute(_GAME_BY_ID, {"game_id": game_id}).one()))
    return game, read_seats(game_id)


def game_ids() -> list[int]:
    return list(connection().execute(_GAME_IDS).scalars())


def turns_in_force(game_id: int) -> list[TurnRow]:
    return [_turn_row(r) for r in connection().execute(_IN_FORCE, {"game_id": game_id})]


def turn_log(game_id: int) -> list[TurnRow]:
    """Every turn ever written, corrected ones included, in order of writing."""
    return [_turn_row(r) for r in connection().execute(_LOG, {"game_id": game_id})]


_LOGS = (
    select(_turns.c.game_id, *_TURN_COLUMNS)
    .where(_turns.c.game_id.in_(bindparam("game_ids", expanding=True)))
    .order_by(_turns.c.game_id, _turns.c.id)
)


def turn_logs(game_ids: list[int]) -> dict[int, list[TurnRow]]:
    """`turn_log` of many games in one query (an export: three years of a family are ~95,000
    turns, which as ORM objects took 2 of its 2.5 s); a game without turns has an empty list."""
    logs: dict[int, list[TurnRow]] = {game_id: [] for game_id in game_ids}
    if game_ids:
        for game_id, *turn in connection().execute(_LOGS, {"game_ids": game_ids}):
            logs[game_id].append(_turn_row(turn))
    return logs


def insert_turn(game_id: int, turn: TurnRow, seats: Sequence[dict[str, Any]] = ()) -> int:
    """Write a turn's row, and the new figures of the seats it changed (dicts of `seat_id` and
    the `SeatRow` figures, as `update_seats` takes them); the turn's id. On PostgreSQL a turn
    that changed one seat (every turn but a game's last) is one statement."""
    conn = connection()
    values = _turn_values(game_id, turn)
    if len(seats) == 1 and conn.dialect.name == "postgresql":
        row = _INSERT_TURN_AND_SET_SEAT.first(conn, {**values, **seats[0]})
    else:
        row = _INSERT_TURN.first(conn, values)
        update_seats(seats)
    assert row is not None  # RETURNING answers with the row inserted (and the seat exists)
    return int(row[0])


def insert_turn_at_version(
    game: GameRow, turn: TurnRow, seats: Sequence[dict[str, Any]] = (), *, whole: bool = False
) -> int | None:
    """Lock the game and write a turn decided on this process's state of it (`store.cache`),
    only while the game is still that state: the same game (uid) of the same account at the
    same version, which the lock raises by one. The turn's id (its seats' figures written as
    `insert_turn` writes them); None when another write has come first: nothing is written
    and nothing locked, and the caller takes the lock (`lock_game`) and decides again.

    On PostgreSQL a turn that changes at most one seat is this one statement. `whole`: the
    caller writes nothing else in this write. When the write has run no statement yet and has
    no commit checks (`check_before_commit`), the statement then commits by itself: a single
    statement is a transaction of its own, and BEGIN and COMMIT would be two more round trips
    to the server (the write's own commit then has nothing left to do)."""
    conn = connection()
    at = {
        "game_id": game.id,
        "owner_id": game.account_id,
        "uid": game.uid,
        "version": game.version,
    }
    if len(seats) <= 1 and conn.dialect.name == "postgresql":
        values = {**at, **_turn_values(game.id, turn)}
        with _by_itself(conn) if whole and not _commit_checks() else nullcontext():
            if seats:
                row = _LOCK_INSERT_TURN_AND_SET_SEAT.first(conn, {**values, **seats[0]})
            else:
                row = _LOCK_AND_INSERT_TURN.first(conn, values)
        return None if row is None else int(row[0])
    if _LOCK_IF_AT_VERSION.first(conn, at) is None:
        return None
    return insert_turn(game.id, turn, seats)


@contextmanager
def _by_itself(conn: Connection) -> Iterator[None]:
    """PostgreSQL (psycopg): the statements run in this block commit each by itself, if the
    connection's transaction has not begun (psycopg begins it with the first statement), as
    SQLAlchemy's own ping does for psycopg. SQLAlchemy's commit and rollback of the write then
    find no transaction on the server and send nothing."""
    dbapi = conn.connection.dbapi_connection
    if dbapi.info.transaction_status.name != "IDLE":  # type: ignore[union-attr]
        yield
        return
    dbapi.autocommit = True  # type: ignore[union-attr]
    try:
        yield
    finally:
        try:
            dbapi.autocommit = False  # type: ignore[union-attr]
        except Exception:
            # Interrupted inside the statement: the connection cannot go back to transactions
            # now, and must never run another write (each statement would commit alone).
            conn.invalidate()


def _turn_values(game_id: int, turn: TurnRow) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "seq": turn.seq,
        "seat": turn.seat,
        "dice": turn.dice,
        "field": turn.field,
        "column": turn.column,
        "points": turn.points,
        "extra_bonus": turn.extra_bonus,
        "created_at": turn.created_at,
    }


def mark_undone(turn_id: int, at: datetime) -> None:
    connection().execute(_MARK_UNDONE.values(undone_at=at), {"turn_id": turn_id})


def rewrite_points(turn: TurnRow) -> None:
    connection().execute(
        _UPDATE_POINTS,
        {"turn_id": turn.id, "new_points": turn.points, "new_extra_bonus": turn.extra_bonus},
    )


def update_seats(changed: Iterable[dict[str, Any]]) -> None:
    """Rewrite the cached results of seats: dicts of `seat_id` and the `SeatRow` figures."""
    rows = list(changed)
    if rows:
        _UPDATE_SEAT.many(connection(), rows)


def set_finished(game_id: int, finished_at: datetime | None) -> None:
    connection().execute(_SET_FINISHED, {"game_id": game_id, "finished_at": finished_at})


def bump_version(game_id: int) -> None:
    connection().execute(_BUMP_VERSION, {"game_id": game_id})


# The games a player sits in, locked in id order (PostgreSQL; SQLite has one writer anyway), so
# that two writes to several games at once cannot wait for each other in a circle.
_GAMES_OF_PLAYER = (
    select(_games.c.id)
    .where(
        _games.c.id.in_(
            select(_seats.c.game_id).where(_seats.c.player_id == bindparam("player_id"))
        )
    )
    .order_by(_games.c.id)
    .with_for_update()
)
_BUMP_VERSIONS = (
    update(_games)
    .where(_games.c.id.in_(bindparam("game_ids", expanding=True)))
    .values(version=_games.c.version + 1)
)


_MOVE_SEATS = (
    update(_seats)
    .where(_seats.c.player_id == bindparam("from_player"))
    .values(player_id=bindparam("to_player"))
    .returning(_seats.c.game_id)
)


def bump_versions_of_player(player_id: int) -> list[int]:
    """Raise the version of every game the player sits in (their name or seat there changes);
    the ids of those games, locked until the transaction ends."""
    game_ids = list(connection().execute(_GAMES_OF_PLAYER, {"player_id": player_id}).scalars())
    bump_versions(game_ids)
    return game_ids


def bump_versions(game_ids: list[int]) -> None:
    if game_ids:
        connection().execute(_BUMP_VERSIONS, {"game_ids": game_ids})


def move_seats(from_player: int, to_player: int) -> list[int]:
    """Give every seat of one player to another; the ids of the games those seats are in.
    IntegrityError when a game seats both (one seat per player and game)."""
    result = connection().execute(_MOVE_SEATS, {"from_player": from_player, "to_player": to_player})
    return sorted(result.scalars())


_MOVE_SEATS_IN = (
    update(_seats)
    .where(
        _seats.c.player_id == bindparam("from_player"),
        _seats.c.game_id.in_(bindparam("game_ids", expanding=True)),
    )
    .values(player_id=bindparam("to_player"))
    .returning(_seats.c.game_id)
)


def move_seats_in(from_player: int, to_player: int, game_ids: list[int]) -> list[int]:
    """`move_seats` for these games only (a merge undone); the ids of the games whose seat
    moved (a game deleted meanwhile has none)."""
    if not game_ids:
        return []
    result = connection().execute(
        _MOVE_SEATS_IN,
        {"from_player": from_player, "to_player": to_player, "game_ids": game_ids},
    )
    return sorted(result.scalars())


def rematch_of(game_id: int) -> int | None:
    """The rematch already started of this game, if any."""
    found = connection().execute(_REMATCH, {"game_id": game_id}).scalar()
    return None if found is None else int(found)


def turns_played(game_ids: list[int]) -> dict[int, int]:
    """Turns in force per game, for a list of games, in one query (games with none are absent)."""
    if not game_ids:
        return {}
    return {
        game_id: count
        for game_id, count in connection().execute(_TURNS_PLAYED, {"game_ids": game_ids})
    }
