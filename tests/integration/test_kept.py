"""Each thread keeps one Core connection for its own writes (`tracker.store.kept`): the same
connection write after write, a fresh one after a write that broke it, after a dispose, in a
forked process or (on a database server) when the kept one no longer answers, and every kept
connection back in the pool when its thread ends."""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import exc, select, text
from stats_builders import new_account

from tracker.extensions import db
from tracker.models import Game
from tracker.services import games
from tracker.store import games as store
from tracker.store import kept
from tracker.store.rows import TurnRow


def a_game(app: Flask) -> tuple[int, int]:
    with app.app_context():
        account = new_account("Kowalscy")
        game_id = games.create_game(account, "standard", ["Ala"]).game.id
        db.session.remove()
    return account, game_id


def write(app: Flask, account: int, game_id: int, then: Callable[[], object] = lambda: None) -> Any:
    """One own write (the game's lock); the DB-API connection it ran on."""
    with app.app_context(), store.own_write():
        store.lock_game(account, game_id)
        dbapi = store.connection().connection.dbapi_connection
        then()
        return dbapi


def checked_out(app: Flask) -> int:
    with app.app_context():
        return int(db.engine.pool.checkedout())


def dbapi_error(app: Flask) -> type[Exception]:
    with app.app_context():
        return db.engine.dialect.loaded_dbapi.Error  # type: ignore[no-any-return]


def version_of(app: Flask, game_id: int) -> int:
    with app.app_context():
        return int(db.session.scalar(select(Game.version).where(Game.id == game_id)))


def test_a_thread_writes_again_and_again_on_the_connection_it_keeps(app: Flask):
    account, game_id = a_game(app)
    first = write(app, account, game_id)
    assert write(app, account, game_id) is first
    assert write(app, account, game_id) is first
    assert checked_out(app) == 1  # kept between the writes, not returned and taken again
    assert version_of(app, game_id) == 3  # and every write committed


def test_a_write_that_rolled_back_cleanly_keeps_its_connection_one_that_broke_it_does_not(
    app: Flask,
):
    account, game_id = a_game(app)
    first = write(app, account, game_id)
    with pytest.raises(ZeroDivisionError):  # a refused move, a bug: rolled back, still sound
        write(app, account, game_id, lambda: 1 / 0)
    assert write(app, account, game_id) is first

    def break_it() -> None:
        store.connection().invalidate()
        raise RuntimeError("the connection broke")

    with pytest.raises(RuntimeError):
        write(app, account, game_id, break_it)
    fresh = write(app, account, game_id)
    assert fresh is not first
    assert checked_out(app) == 1
    assert version_of(app, game_id) == 3  # the failed writes wrote nothing


def test_after_the_databases_own_error_the_next_write_gets_a_fresh_connection(app: Flask):
    account, game_id = a_game(app)
    first = write(app, account, game_id)

    def same_seq_twice() -> None:
        turn = TurnRow(0, 1, 0, "66666", "five_of_a_kind", None, 50, 0, datetime(2026, 12, 1))
        store.insert_turn(game_id, turn)
        store.insert_turn(game_id, turn)

    with pytest.raises(exc.IntegrityError):
        write(app, account, game_id, same_seq_twice)
    assert write(app, account, game_id) is not first
    assert checked_out(app) == 1  # the old one went back to the pool
    assert version_of(app, game_id) == 2


def test_a_connection_goes_back_to_the_pool_when_its_thread_ends(app: Flask):
    account, game_id = a_game(app)
    mine = checked_out(app)  # this thread keeps one too: it created the game
    assert mine == 1
    thread = threading.Thread(target=write, args=(app, account, game_id))
    thread.start()
    thread.join()
    gc.collect()
    assert checked_out(app) == mine
    assert version_of(app, game_id) == 1


def test_after_a_dispose_every_thread_checks_out_a_new_connection(app: Flask):
    """`serve` disposes the engine before it forks its workers, a restore before it replaces
    the file: no thread may go on writing through a connection opened before, and none stays
    open in the disposed pool (SQLite merges its WAL into the file when the last one closes)."""
    account, game_id = a_game(app)
    with ThreadPoolExecutor(max_workers=1) as worker:  # a thread that lives on, like granian's
        before = worker.submit(write, app, account, game_id).result()
        mine = write(app, account, game_id)
        with app.app_context():
            db.engine.dispose()
        assert checked_out(app) == 0  # the disposing thread's own went at once
        with pytest.raises(dbapi_error(app)):  # closed, not kept in the old pool
            mine.execute("SELECT 1")
        after = worker.submit(write, app, account, game_id).result()
        assert after is not before
        with pytest.raises(dbapi_error(app)):  # the other thread's, at its next write
            before.execute("SELECT 1")
        assert write(app, account, game_id) is not mine
    assert version_of(app, game_id) == 4


def test_a_forked_process_never_touches_the_connection_its_parent_kept(
    app: Flask, monkeypatch: pytest.MonkeyPatch
):
    account, game_id = a_game(app)
    parents = write(app, account, game_id)
    monkeypatch.setattr(kept.os, "getpid", lambda: -1)  # as a forked child sees it
    childs = write(app, account, game_id)
    assert childs is not parents
    assert any(c.connection.dbapi_connection is parents for c in kept._inherited)
    # Left open for the parent: neither closed nor returned to a pool by the child.
    parents.execute("SELECT 1").fetchone()


@pytest.mark.sqlite_only("the SQLite pool's size")
@pytest.mark.parametrize("app_config", [{"SQLALCHEMY_ENGINE_OPTIONS": {"pool_timeout": 1}}])
def test_threads_keeping_connections_never_make_a_request_wait_for_one(app: Flask):
    """`serve --threads 12`: more kept connections than SQLAlchemy's pool of 5 + 10."""
    account, game_id = a_game(app)
    threads = 20
    all_written = threading.Barrier(threads + 1)

    connections: list[object] = []

    def writer() -> None:
        connections.append(write(app, account, game_id))
        all_written.wait(10)  # every thread alive, each keeping its connection

    pool = [threading.Thread(target=writer) for _ in range(threads)]
    for thread in pool:
        thread.start()
    try:
        all_written.wait(10)
        assert len({id(c) for c in connections}) == threads  # each keeps its own
        with app.app_context():  # a request's session still gets a connection at once
            assert db.session.execute(text("SELECT 1")).scalar() == 1
            db.session.remove()
    finally:
        for thread in pool:
            thread.join()
    assert version_of(app, game_id) == threads


def test_a_kept_connection_the_server_dropped_is_replaced_before_a_write_needs_it(
    app: Flask, backend: str, monkeypatch: pytest.MonkeyPatch
):
    """PostgreSQL restarted while the table was thinking: the pool would check a connection
    before handing it out; a kept one unused for a while is checked too."""
    if backend != "postgresql":
        pytest.skip("a database server: a SQLite file is opened in this process")
    account, game_id = a_game(app)
    first = write(app, account, game_id)
    with app.app_context():
        gone = {"pid": first.info.backend_pid}
        db.session.execute(text("SELECT pg_terminate_backend(:pid)"), gone)
        db.session.remove()
    monkeypatch.setattr(kept, "IDLE_CHECK_SECONDS", 0.0)
    fresh = write(app, account, game_id)
    assert fresh is not first
    assert version_of(app, game_id) == 2
