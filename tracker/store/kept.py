"""The Core connection each thread keeps for its own writes (`store.own_write`).

Checking a connection out of SQLAlchemy's pool and back costs every turn a tenth of its CPU
on SQLite (docs/benchmarks.md, "Kept connections"): a new `Connection`, the pool's queue and
its condition, the checkout's and the checkin's bookkeeping; on PostgreSQL also the pool's
check of the connection, a round trip to the server. A thread writes one turn at a time, so
the first own write of a thread checks a connection out of the engine's pool and the thread
keeps it: each later write begins and commits its transaction on it. The connection goes
back to the pool when the thread ends (granian ends idle threads), when the database reports
an error on it, or when its engine is disposed.

A kept connection is used again only by the thread that keeps it, for the same engine, in
the same process (a connection never crosses a fork), from the same pool (`engine.dispose()`,
before `serve` forks its workers or a restore replaces the file, makes every thread check
out a new one), and while SQLAlchemy has not invalidated it. On a database server, one left
unused for `IDLE_CHECK_SECONDS` is checked first, as the pool checks every connection it
hands out: a server restarted while the table was thinking costs no turn. (The kept
connections are checked out of the same pool as the session's: on PostgreSQL a process holds
up to twice `KOSCI_DB_POOL_SIZE` connections, within its limit of that pool + 10.)
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
import weakref

from sqlalchemy import Connection, Engine, event

# Connections a forked process found in the thread it was forked from: the parent's. They
# are never used, closed or handed to the garbage collector (whose clean-up would close the
# parent's SQLite file handles in the child).
_inherited: list[Connection] = []
# Each engine's dispose count: a connection checked out before the last dispose is not kept.
_disposals: weakref.WeakKeyDictionary[Engine, int] = weakref.WeakKeyDictionary()
_disposals_lock = threading.Lock()
# A kept connection to a database server unused for this long is checked before it is used.
IDLE_CHECK_SECONDS = 1.0


class _Kept:
    """A thread's kept connection, returned to its pool when the thread ends."""

    def __init__(self, conn: Connection, engine: Engine, disposal: int) -> None:
        self.conn = conn
        self.engine = engine
        self.disposal = disposal
        self.pid = os.getpid()
        self.used = time.monotonic()

    def usable_for(self, engine: Engine) -> bool:
        conn = self.conn
        return (
            self.engine is engine
            and self.pid == os.getpid()
            and self.disposal == _disposals.get(engine, 0)
            and not conn.closed
            and not conn.invalidated
        )

    def give_back(self) -> None:
        """Return the connection to its pool; if that pool was disposed meanwhile, close it
        for good (a disposed pool would keep it open, and with it SQLite's WAL unmerged into
        the file a restore or a copy is about to replace); in a forked process, leave it."""
        conn = self.conn
        if self.pid != os.getpid():
            _inherited.append(conn)
            return
        if conn.closed:
            return
        if not conn.invalidated and self.disposal != _disposals.get(self.engine, 0):
            conn.detach()  # closed, not pooled, when `close` below lets it go
        conn.close()

    def __del__(self) -> None:  # the thread has ended: its locals go
        # Nothing to tell anyone at a thread's or the process's end.
        with contextlib.suppress(Exception):
            self.give_back()


class _Local(threading.local):
    kept: _Kept | None = None


_local = _Local()


def connection(engine: Engine) -> Connection:
    """This thread's kept connection to `engine`'s database, checked out now if it has none
    that may be used (its old one, if any, goes back to its pool first)."""
    kept = _local.kept
    if kept is not None:
        if kept.usable_for(engine) and _answers(kept):
            kept.used = time.monotonic()
            return kept.conn
        _local.kept = None
        kept.give_back()
    _watch(engine)
    disposal = _disposals.get(engine, 0)
    conn = engine.connect()
    _local.kept = _Kept(conn, engine, disposal)
    return conn


def _answers(kept: _Kept) -> bool:
    """Whether a kept connection still reaches its database: always on SQLite (a file opened in
    this process); on a server, if it was used within `IDLE_CHECK_SECONDS`, or answers a ping
    (else it is invalidated: the pool drops it)."""
    engine = kept.engine
    if engine.dialect.name == "sqlite" or time.monotonic() - kept.used < IDLE_CHECK_SECONDS:
        return True
    conn = kept.conn
    dbapi = conn.connection.dbapi_connection
    try:
        if dbapi is None:
            return False
        engine.dialect.do_ping(dbapi)
    except engine.dialect.loaded_dbapi.Error:
        conn.invalidate()
        return False
    return True


def drop(conn: Connection) -> None:
    """Stop keeping `conn` (the database reported an error on it) and return it to its pool:
    the next write checks out a fresh one, as the pool would give any request."""
    kept = _local.kept
    if kept is not None and kept.conn is conn:
        _local.kept = None
        kept.give_back()


def _watch(engine: Engine) -> None:
    with _disposals_lock:
        if engine not in _disposals:
            _disposals[engine] = 0
            event.listen(engine, "engine_disposed", _disposed)


def _disposed(engine: Engine) -> None:
    with _disposals_lock:
        _disposals[engine] = _disposals.get(engine, 0) + 1
    kept = _local.kept  # the disposing thread's own goes back now; the others' at their next use
    if kept is not None and kept.engine is engine:
        _local.kept = None
        kept.give_back()
