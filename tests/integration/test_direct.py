"""The turn path's statements run straight on the DB-API cursor (`tracker.store.direct`): the
same rows, types and errors as through `Connection.execute`, on SQLite and PostgreSQL."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import exc, select
from stats_builders import new_account

from tracker.extensions import db
from tracker.models import Game, GameSeat, Turn
from tracker.services import games
from tracker.store import games as store
from tracker.store.rows import TurnRow


def a_turn(seq: int, at: datetime) -> TurnRow:
    return TurnRow(
        id=0,
        seq=seq,
        seat=0,
        dice="66666",
        field="five_of_a_kind",
        column=None,
        points=50,
        extra_bonus=0,
        created_at=at,
    )


def test_a_turn_written_directly_reads_back_as_the_orm_wrote_it(app: Flask):
    at = datetime(2026, 12, 1, 18, 30, 15, 123456)
    with app.app_context():
        account = new_account("Kowalscy")
        game_id = games.create_game(account, "standard", ["Ala"]).game.id
        with store.writing():
            lock = store.lock_game(account, game_id)
            turn_id = store.insert_turn(game_id, a_turn(1, at))
            db.session.commit()
        turn = db.session.get(Turn, turn_id)
        version = db.session.scalar(select(Game.version).where(Game.id == game_id))

    assert lock is not None
    assert (lock.id, lock.version) == (game_id, version)
    assert version == 1  # created at 0, raised by the lock's `version + 1`
    assert turn is not None
    assert (turn.game_id, turn.seq, turn.dice, turn.field, turn.points) == (
        game_id,
        1,
        "66666",
        "five_of_a_kind",
        50,
    )
    assert turn.column is None
    assert turn.created_at == at  # the DateTime type's own storage, microseconds kept


def test_another_accounts_game_is_not_locked(app: Flask):
    with app.app_context():
        owner = new_account("Kowalscy")
        stranger = new_account("Nowakowie")
        game_id = games.create_game(owner, "standard", ["Ala"]).game.id
        with store.writing():
            assert store.lock_game(stranger, game_id) is None
            db.session.rollback()
        assert db.session.scalar(select(Game.version).where(Game.id == game_id)) == 0


def test_a_database_error_comes_out_as_sqlalchemys_and_the_write_rolls_back(app: Flask):
    at = datetime(2026, 12, 1, 18, 30)
    with app.app_context():
        account = new_account("Kowalscy")
        game_id = games.create_game(account, "standard", ["Ala"]).game.id
        with store.writing():
            store.lock_game(account, game_id)
            store.insert_turn(game_id, a_turn(1, at))
            with pytest.raises(exc.IntegrityError):
                store.insert_turn(game_id, a_turn(1, at))  # the same seq twice
            db.session.rollback()
        assert db.session.scalar(select(Game.version).where(Game.id == game_id)) == 0
        assert db.session.scalars(select(Turn).where(Turn.game_id == game_id)).all() == []


def test_seat_figures_are_written_for_every_seat_given(app: Flask):
    with app.app_context():
        account = new_account("Kowalscy")
        view = games.create_game(account, "standard", ["Ala", "Ola"])
        figures = {"place": 1, "upper_bonuses": 1, "generals": 2, "extra_bonuses": 0}
        with store.writing():
            store.update_seats(
                {"seat_id": seat.id, "total": 100 + i, "is_winner": i == 0, **figures}
                for i, seat in enumerate(view.seats)
            )
            db.session.commit()
        seats = db.session.scalars(
            select(GameSeat).where(GameSeat.game_id == view.game.id).order_by(GameSeat.seat)
        ).all()
    assert [(s.total, s.is_winner, s.generals, s.place) for s in seats] == [
        (100, True, 2, 1),
        (101, False, 2, 1),
    ]


@pytest.mark.parametrize("changed", [0, 1, 2])
def test_a_turn_is_written_with_the_figures_of_the_seats_it_changed(app: Flask, changed: int):
    """One seat (every turn but a game's last) is a single statement on PostgreSQL; none or
    several are the turn's row and then the seats', as on SQLite: the same rows either way."""
    at = datetime(2026, 12, 1, 18, 30)
    with app.app_context():
        account = new_account("Kowalscy")
        view = games.create_game(account, "standard", ["Ala", "Ola"])
        figures = {"place": 2, "upper_bonuses": 1, "generals": 1, "extra_bonuses": 0}
        seats = [
            {"seat_id": seat.id, "total": 40 + i, "is_winner": i == 1, **figures}
            for i, seat in enumerate(view.seats[:changed])
        ]
        with store.writing():
            store.lock_game(account, view.game.id)
            turn_id = store.insert_turn(view.game.id, a_turn(1, at), seats)
            db.session.commit()
        turn = db.session.get(Turn, turn_id)
        rows = db.session.scalars(
            select(GameSeat).where(GameSeat.game_id == view.game.id).order_by(GameSeat.seat)
        ).all()
    assert turn is not None
    assert (turn.game_id, turn.seq, turn.points) == (view.game.id, 1, 50)
    written = [(s.total, s.place, s.is_winner, s.upper_bonuses, s.generals) for s in rows]
    expected = [(40 + i, 2, i == 1, 1, 1) for i in range(changed)]
    untouched = [(s.total, s.place, s.is_winner, s.upper_bonuses, s.generals) for s in view.seats]
    assert written == expected + untouched[changed:]


@pytest.mark.parametrize("changed", [0, 1, 2])
@pytest.mark.parametrize(
    "moved", [None, "version", "uid", "owner"], ids=["as held", "written since", "uid", "owner"]
)
def test_a_turn_decided_before_the_lock_is_written_only_on_the_game_it_was_decided_on(
    app: Flask, changed: int, moved: str | None
):
    """`insert_turn_at_version` locks the game and writes the turn and its seats' figures
    (one statement on PostgreSQL for none or one seat) only while the game is the state the
    turn was decided on: the same version, uid and owner. Otherwise nothing at all: no turn,
    no seat's figures, the version as it was."""
    at = datetime(2026, 12, 1, 18, 30)
    with app.app_context():
        account = new_account("Kowalscy")
        view = games.create_game(account, "standard", ["Ala", "Ola"])
        game = view.game
        held = {
            None: game,
            "version": game.at_version(game.version - 1),
            "uid": replace(game, uid="0" * 32),
            "owner": replace(game, account_id=account + 1),
        }[moved]
        figures = {"place": 2, "upper_bonuses": 1, "generals": 1, "extra_bonuses": 0}
        seats = [
            {"seat_id": seat.id, "total": 40 + i, "is_winner": i == 1, **figures}
            for i, seat in enumerate(view.seats[:changed])
        ]
        with store.own_write():
            turn_id = store.insert_turn_at_version(held, a_turn(1, at), seats)
        rows = db.session.scalars(
            select(GameSeat).where(GameSeat.game_id == game.id).order_by(GameSeat.seat)
        ).all()
        turns = db.session.scalars(select(Turn).where(Turn.game_id == game.id)).all()
        version = version_of(game.id)
    written = [(s.total, s.place, s.is_winner, s.upper_bonuses, s.generals) for s in rows]
    untouched = [(s.total, s.place, s.is_winner, s.upper_bonuses, s.generals) for s in view.seats]
    if moved is None:
        assert [(t.id, t.seq, t.points) for t in turns] == [(turn_id, 1, 50)]
        assert written == [(40 + i, 2, i == 1, 1, 1) for i in range(changed)] + untouched[changed:]
        assert version == game.version + 1
    else:
        assert turn_id is None
        assert (turns, written, version) == ([], untouched, game.version)


class Refused(Exception):
    pass


@pytest.mark.parametrize("checked", [False, True], ids=["no check", "a commit check"])
def test_a_turn_that_is_the_whole_write_commits_by_itself_unless_a_check_must_run_first(
    app: Flask, checked: bool
):
    """`whole`: nothing else is written. On PostgreSQL the one statement then commits by
    itself (no BEGIN, no COMMIT: two round trips), unless the write has commit checks (a
    guest's invitation, asked after the lock and before the commit): then the turn waits in
    the transaction for the check, and goes if the check refuses. The connection is back to
    ordinary transactions afterwards: the next write is one transaction again."""
    at = datetime(2026, 12, 1, 18, 30)
    with app.app_context():
        account = new_account("Kowalscy")
        view = games.create_game(account, "standard", ["Ala", "Ola"])
        seats = [{"seat_id": view.seats[0].id, "total": 50, "is_winner": False, "place": None}]
        seats[0].update(upper_bonuses=0, generals=1, extra_bonuses=0)
        if checked:

            def refuse() -> None:
                raise Refused

            store.check_before_commit(refuse)
        postgres = db.engine.dialect.name == "postgresql"
        with contextlib.suppress(Refused), store.own_write() as write:
            turn_id = store.insert_turn_at_version(view.game, a_turn(1, at), seats, whole=True)
            dbapi = write.conn.connection.dbapi_connection
            if postgres:
                status = dbapi.info.transaction_status.name  # type: ignore[union-attr]
                assert status == ("INTRANS" if checked else "IDLE")
        assert turn_id is not None
        if postgres:
            assert dbapi.autocommit is False  # type: ignore[union-attr]
        written = db.session.scalars(select(Turn.id).where(Turn.game_id == view.game.id)).all()
        assert written == ([] if checked else [turn_id])
        assert version_of(view.game.id) == view.game.version + (0 if checked else 1)
        db.session.remove()

        with contextlib.suppress(Refused), store.own_write():  # two statements, one transaction
            store.lock_game(account, view.game.id)
            store.insert_turn(view.game.id, a_turn(2, at))
            raise Refused
        assert version_of(view.game.id) == view.game.version + (0 if checked else 1)


def test_a_connection_that_cannot_leave_autocommit_is_never_used_again(
    app: Flask, monkeypatch: pytest.MonkeyPatch
):
    """Interrupted inside the statement that commits by itself, psycopg cannot switch the
    connection back to transactions: the connection goes, and the next write, on a new one,
    is one transaction again."""
    at = datetime(2026, 12, 1, 18, 30)
    with app.app_context():
        if db.engine.dialect.name != "postgresql":
            pytest.skip("PostgreSQL only: SQLite's statements never commit by themselves here")
        account = new_account("Kowalscy")
        view = games.create_game(account, "standard", ["Ala"])
        with store.own_write() as write:
            dbapi = write.conn.connection.dbapi_connection
        kind = type(dbapi)
        real = kind.autocommit

        def stuck(connection: Any, value: bool) -> None:
            if not value:
                raise RuntimeError("can't change autocommit now: the query is still running")
            real.fset(connection, value)  # type: ignore[misc]

        monkeypatch.setattr(kind, "autocommit", property(real.fget, stuck))
        invalidated: list[bool] = []

        def one_turn_by_itself() -> None:
            with store.own_write() as write:
                store.insert_turn_at_version(view.game, a_turn(1, at), whole=True)
                invalidated.append(write.conn.invalidated)

        with pytest.raises(exc.PendingRollbackError):  # its commit finds it gone
            one_turn_by_itself()
        monkeypatch.undo()
        assert invalidated == [True]

        with contextlib.suppress(Refused), store.own_write() as write:
            assert write.conn.connection.dbapi_connection is not dbapi
            store.lock_game(account, view.game.id)
            store.insert_turn(view.game.id, a_turn(2, at))
            raise Refused
        assert version_of(view.game.id) == view.game.version + 1  # the first turn's only


# --- own_write: the turn's transaction on a connection of its own ----------------------------


def version_of(game_id: int) -> int:
    return int(db.session.scalar(select(Game.version).where(Game.id == game_id)))


def test_an_own_write_commits_when_its_block_ends_and_makes_no_orm_session(app: Flask):
    at = datetime(2026, 12, 1, 18, 30)
    with app.app_context():
        account = new_account("Kowalscy")
        game_id = games.create_game(account, "standard", ["Ala"]).game.id
        db.session.remove()
        with store.own_write():
            store.lock_game(account, game_id)
            store.insert_turn(game_id, a_turn(1, at))
            assert not db.session.registry.has()  # the statements ran on the write's own
        assert not db.session.registry.has()
        assert version_of(game_id) == 1
        assert len(db.session.scalars(select(Turn).where(Turn.game_id == game_id)).all()) == 1


def test_an_own_write_rolls_back_on_any_error(app: Flask):
    at = datetime(2026, 12, 1, 18, 30)

    def write(account: int, game_id: int, then: Callable[[], object]) -> None:
        with store.own_write():
            store.lock_game(account, game_id)
            store.insert_turn(game_id, a_turn(1, at))
            then()

    with app.app_context():
        account = new_account("Kowalscy")
        game_id = games.create_game(account, "standard", ["Ala"]).game.id
        with pytest.raises(exc.IntegrityError):  # the same seq twice
            write(account, game_id, lambda: store.insert_turn(game_id, a_turn(1, at)))
        with pytest.raises(ZeroDivisionError):
            write(account, game_id, lambda: 1 / 0)
        assert version_of(game_id) == 0
        assert db.session.scalars(select(Turn).where(Turn.game_id == game_id)).all() == []


def test_an_own_write_ended_by_rollback_keeps_nothing_and_runs_no_commit_check(app: Flask):
    checked: list[str] = []
    with app.test_request_context():
        account = new_account("Kowalscy")
        game_id = games.create_game(account, "standard", ["Ala"]).game.id
        store.check_before_commit(lambda: checked.append("asked"))
        with store.own_write() as write:
            store.lock_game(account, game_id)
            write.rollback()
        assert checked == []
        assert version_of(game_id) == 0


def test_the_requests_commit_checks_run_inside_both_kinds_of_write_and_can_stop_them(app: Flask):
    """A guest's write asks again before it commits (`invitations.confirm_before_commit`),
    whether the write is the ORM session's or its own."""

    class Refused(Exception):
        pass

    seen: list[int | None] = []

    def check() -> None:
        # Inside the write's transaction: it sees the version the write's lock raised.
        seen.append(store.connection().execute(select(Game.version)).scalar())
        raise Refused

    with app.test_request_context():
        account = new_account("Kowalscy")
        game_id = games.create_game(account, "standard", ["Ala"]).game.id
        store.check_before_commit(check)

        def own() -> None:
            with store.own_write():
                store.lock_game(account, game_id)

        def sessions() -> None:
            with store.writing():
                store.lock_game(account, game_id)
                db.session.commit()

        with pytest.raises(Refused):
            own()
        with pytest.raises(Refused):
            sessions()
        assert seen == [1, 1]
        assert version_of(game_id) == 0


def test_own_writes_do_not_nest(app: Flask):
    with app.app_context(), store.own_write(), pytest.raises(RuntimeError):
        store.own_write().__enter__()


def test_an_own_write_inside_a_session_write_on_sqlite_is_refused_at_once(app: Flask):
    """It would wait for the session's write lock for the busy timeout and then fail."""
    with app.app_context():
        account = new_account("Kowalscy")
        game_id = games.create_game(account, "standard", ["Ala"]).game.id
        if db.engine.dialect.name != "sqlite":
            pytest.skip("PostgreSQL: row locks, no file lock to wait for")
        with store.writing():
            store.lock_game(account, game_id)  # the session now writes
            with pytest.raises(RuntimeError):
                store.own_write().__enter__()
            db.session.rollback()
        db.session.scalar(select(Game.version))  # a session that only read is no obstacle
        with store.own_write():
            store.lock_game(account, game_id)
        assert version_of(game_id) == 1
