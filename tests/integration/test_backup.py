"""Data at rest and backups: a private instance folder and database file, `flask --app tracker
backup` of a database that is being written, `restore`, the automatic daily backups of
`serve` with their rotation, and what both commands say for PostgreSQL.

A copy is judged through the services: every game's turns in force are numbered 1..n, and
recomputing every cached figure from the turns (`results.recompute_all`) changes nothing.
"""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import stat
import subprocess
import threading
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskCliRunner
from sqlalchemy import func, select

from tracker import backup, cli, create_app
from tracker.backup import BackupSchedule
from tracker.extensions import db
from tracker.models import Account, Game, GameSeat, Turn
from tracker.services import accounts, results
from tracker.services import games as game_service
from tracker.store import cache

from .apps import DATABASE_FILE, dispose_engines, make_app
from .test_api_games import FILLER, STANDARD_ORDER

pytestmark = pytest.mark.sqlite_only("copies of an SQLite file; PostgreSQL has pg_dump")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def umask_022() -> Iterator[None]:
    """The usual umask, under which SQLite would create a database file 0644."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def new_account(app: Flask, name: str = "Dom") -> int:
    with app.app_context():
        return accounts.create_account(name, "hasło-123456").id


def play_turns(app: Flask, account_id: int, game_id: int, count: int) -> None:
    """`count` more turns of a two-player standard game, filling the sheets in order."""
    with app.app_context():
        written = db.session.scalar(
            select(func.count())
            .select_from(Turn)
            .where(Turn.game_id == game_id, Turn.undone_at.is_(None))
        )
        for index in range(written, written + count):
            field = STANDARD_ORDER[index // 2]
            game_service.record_turn(account_id, game_id, FILLER[field], field)


def turns_in_force(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(
            select(func.count()).select_from(Turn).where(Turn.undone_at.is_(None))
        )


def database_of(app: Flask) -> Path:
    return Path(app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///"))


# --- private files ---------------------------------------------------------------------------


@pytest.mark.usefixtures("umask_022")
def test_a_fresh_instance_folder_and_its_database_are_readable_by_their_owner_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    instance = tmp_path / "instance"
    app = create_app({"SECRET_KEY": "x"}, instance_path=instance)
    database = instance / "kosci.sqlite3"
    try:
        with app.app_context():
            db.create_all()
            db.session.add(Account(name="Dom", name_key="dom", password_hash="!"))
            db.session.commit()
            wal = Path(f"{database}-wal")
            assert wal.exists()  # checked while the app holds the database open
            assert mode(wal) == 0o600
            assert mode(Path(f"{database}-shm")) == 0o600
    finally:
        dispose_engines(app)

    assert mode(instance) == 0o700
    assert mode(database) == 0o600


def test_an_existing_open_instance_folder_is_kept_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
):
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "kosci.sqlite3.before-restore-1").write_bytes(b"")  # a folder in use
    instance.chmod(0o755)

    with caplog.at_level(logging.WARNING):
        app = make_app(tmp_path)
    dispose_engines(app)

    assert mode(instance) == 0o755  # not changed behind the owner's back
    assert f"chmod 700 {instance}" in caplog.text


def test_a_fresh_clones_instance_folder_is_made_private_without_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
):
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / ".gitkeep").write_bytes(b"")
    instance.chmod(0o755)  # as git creates it

    with caplog.at_level(logging.WARNING):
        app = make_app(tmp_path)
    dispose_engines(app)

    assert mode(instance) == 0o700
    assert "chmod" not in caplog.text


# --- backup -----------------------------------------------------------------------------------


def test_backup_of_a_database_being_written_is_a_consistent_copy(
    app: Flask, runner: FlaskCliRunner, tmp_path: Path
):
    account_id = new_account(app)
    written = [0]
    errors: list[BaseException] = []
    stop = threading.Event()
    writing = threading.Event()

    def writer() -> None:
        """Whole games, turn after turn, and an undo every seventh turn, until told to stop."""
        try:
            with app.app_context():
                while not stop.is_set():
                    game_id = game_service.create_game(account_id, "standard", ["Ala", "Ola"]).id
                    for index in range(2 * len(STANDARD_ORDER)):
                        field = STANDARD_ORDER[index // 2]
                        game_service.record_turn(account_id, game_id, FILLER[field], field)
                        if index % 7 == 6:
                            game_service.undo_last_turn(account_id, game_id)
                            game_service.record_turn(account_id, game_id, FILLER[field], field)
                        written[0] += 1
                        if written[0] >= 20:
                            writing.set()
                        if stop.is_set():
                            break
        except BaseException as exc:
            errors.append(exc)
            writing.set()

    thread = threading.Thread(target=writer)
    thread.start()
    copies = []
    try:
        assert writing.wait(30)
        before = written[0]
        # Copies until the writer has written at least 30 more turns meanwhile.
        while len(copies) < 20 and (written[0] - before < 30 or len(copies) < 3):
            target = tmp_path / "copies" / f"copy-{len(copies)}.sqlite3"
            result = runner.invoke(args=["backup", str(target)])
            assert result.exit_code == 0, result.output
            assert str(target) in result.output
            copies.append(target)
            time.sleep(0.005)
        during = written[0] - before
    finally:
        stop.set()
        thread.join(30)
    assert not errors, errors
    assert during > 0  # the copies were made while turns were being written

    for index, copy in enumerate(copies):
        assert mode(copy) == 0o600
        with sqlite3.connect(copy) as connection:
            assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            assert connection.execute("PRAGMA journal_mode").fetchone() == ("delete",)
        connection.close()
        assert_consistent(copy, tmp_path / f"check-{index}")


def assert_consistent(copy: Path, directory: Path) -> None:
    """The copy opened as an app: turns in force 1..n in every game, and recomputing every
    figure from the turns changes no seat and no game (no version is raised)."""
    directory.mkdir()
    shutil.copyfile(copy, directory / DATABASE_FILE)
    app = make_app(directory, TESTING=True)
    try:
        with app.app_context():
            games = db.session.scalars(select(Game).order_by(Game.id)).all()
            assert games
            for game in games:
                seqs = db.session.scalars(
                    select(Turn.seq)
                    .where(Turn.game_id == game.id, Turn.undone_at.is_(None))
                    .order_by(Turn.seq)
                ).all()
                assert seqs == list(range(1, len(seqs) + 1)), game.id
            before = figures()
            results.recompute_all()
            db.session.expire_all()
            assert figures() == before
    finally:
        dispose_engines(app)
        cache.clear()


def figures() -> dict[str, Any]:
    seats = db.session.execute(
        select(GameSeat.id, GameSeat.total, GameSeat.place, GameSeat.is_winner)
    ).all()
    games = db.session.execute(select(Game.id, Game.version, Game.finished_at)).all()
    return {"seats": sorted(map(tuple, seats)), "games": sorted(map(tuple, games))}


def test_a_path_ending_in_a_slash_is_a_folder_even_before_it_exists(
    app: Flask, runner: FlaskCliRunner, tmp_path: Path
):
    """`backup /media/pendrive/kosci/` on a stick that has no such folder yet: a folder with a
    dated copy in it, not a file named `kosci`."""
    folder = tmp_path / "pendrive" / "kosci"

    result = runner.invoke(args=["backup", f"{folder}{os.sep}"])

    assert result.exit_code == 0, result.output
    assert folder.is_dir()
    [copy] = folder.glob("kosci-*.sqlite3")
    assert str(copy) in result.output
    assert mode(copy) == 0o600


def test_backup_without_a_path_goes_to_the_instance_folder(
    app: Flask, runner: FlaskCliRunner, tmp_path: Path
):
    result = runner.invoke(args=["backup"])

    assert result.exit_code == 0, result.output
    folder = Path(app.instance_path) / "backups"
    [copy] = folder.glob("kosci-*.sqlite3")
    assert str(copy) in result.output
    assert mode(folder) == 0o700
    assert mode(copy) == 0o600


def test_backup_refuses_to_write_over_the_database_itself(app: Flask, runner: FlaskCliRunner):
    result = runner.invoke(args=["backup", str(database_of(app))])

    assert result.exit_code == 1
    assert "nie może zastąpić" in result.output


# --- restore ----------------------------------------------------------------------------------


@pytest.mark.migrations  # a Kości database has an alembic_version table
def test_restore_brings_back_the_backup_and_keeps_the_old_database_aside(
    app: Flask, runner: FlaskCliRunner, tmp_path: Path
):
    account_id = new_account(app)
    with app.app_context():
        game_id = game_service.create_game(account_id, "standard", ["Ala", "Ola"]).id
    play_turns(app, account_id, game_id, 3)
    copy = tmp_path / "copy.sqlite3"
    assert runner.invoke(args=["backup", str(copy)]).exit_code == 0
    play_turns(app, account_id, game_id, 1)  # written after the backup
    assert turns_in_force(app) == 4

    refused = runner.invoke(args=["restore", str(copy)])
    assert refused.exit_code == 1
    assert "--yes" in refused.output
    assert turns_in_force(app) == 4

    result = runner.invoke(args=["restore", str(copy), "--yes"])

    assert result.exit_code == 0, result.output
    assert "serve" in result.output
    dispose_engines(app)
    assert turns_in_force(app) == 3  # the turn written after the backup is gone
    play_turns(app, account_id, game_id, 1)  # and the game goes on
    assert turns_in_force(app) == 4
    database = database_of(app)
    [aside] = database.parent.glob(f"{database.name}.before-restore-*")
    assert str(aside) in result.output
    assert mode(aside) == 0o600
    with sqlite3.connect(aside) as old:
        assert old.execute("SELECT count(*) FROM turns").fetchone() == (4,)
    old.close()
    with sqlite3.connect(database) as live:
        assert live.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    live.close()


@pytest.mark.parametrize("content", [b"", b"not a database at all " * 100], ids=["empty", "text"])
def test_restore_refuses_a_file_that_is_not_a_kosci_database(
    app: Flask, runner: FlaskCliRunner, tmp_path: Path, content: bytes
):
    bogus = tmp_path / "bogus.sqlite3"
    bogus.write_bytes(content)
    account_id = new_account(app)

    result = runner.invoke(args=["restore", str(bogus), "--yes"])

    assert result.exit_code == 1
    assert "Kości" in result.output or "SQLite" in result.output
    with app.app_context():
        assert db.session.get(Account, account_id) is not None
    database = database_of(app)
    assert not list(database.parent.glob(f"{database.name}.before-restore-*"))


# --- PostgreSQL --------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [["backup"], ["restore", "kosci.dump", "--yes"]], ids=" ".join)
def test_on_postgresql_both_commands_say_how_to_use_pg_dump_and_fail(
    tmp_path: Path, args: list[str]
):
    app = create_app(
        {
            "SECRET_KEY": "x",
            "SQLALCHEMY_DATABASE_URI": "postgresql+psycopg://kosci:tajne@db.example:5433/rodzina",
        },
        instance_path=tmp_path / "instance",
    )

    result = app.test_cli_runner().invoke(args=args)

    assert result.exit_code == 1
    assert "pg_dump --format=custom --host=db.example --port=5433 --username=kosci" in result.output
    assert "pg_restore" in result.output
    assert "rodzina" in result.output
    assert "tajne" not in result.output


def test_on_postgresql_the_restore_it_prints_starts_from_an_empty_database(tmp_path: Path):
    """`pg_restore --clean` drops only the objects the dump holds: the tables a later version
    added stay, with foreign keys to the dumped ones, so a dump taken before an upgrade (as
    "Upgrades" asks) could not be restored over the upgraded database, and `serve` then
    stopped at "relation … already exists". The restore goes into a database made anew."""
    app = create_app(
        {
            "SECRET_KEY": "x",
            "SQLALCHEMY_DATABASE_URI": "postgresql+psycopg://kosci:tajne@db.example:5433/rodzina",
        },
        instance_path=tmp_path / "instance",
    )

    result = app.test_cli_runner().invoke(args=["restore", "kosci.dump", "--yes"])

    lines = [line.strip() for line in result.output.splitlines()]
    remake = 'su postgres -c "dropdb rodzina && createdb --owner=kosci rodzina"'
    restore = "pg_restore --host=db.example --port=5433 --username=kosci --dbname=rodzina PLIK.dump"
    assert remake in lines
    assert restore in lines
    assert lines.index(remake) < lines.index(restore)
    assert "--clean" not in result.output


@pytest.mark.skipif(os.name != "posix", reason="file modes and sh are POSIX")
def test_the_pg_dump_line_it_prints_makes_a_file_only_its_owner_can_read(tmp_path: Path):
    """A dump holds every password hash and the audit log: the command printed for it
    must make the file private even where the admin's umask lets everyone read new files."""
    app = create_app(
        {
            "SECRET_KEY": "x",
            "SQLALCHEMY_DATABASE_URI": "postgresql+psycopg://kosci:tajne@db.example:5433/rodzina",
        },
        instance_path=tmp_path / "instance",
    )
    result = app.test_cli_runner().invoke(args=["backup"])
    line = next(x.strip() for x in result.output.splitlines() if "pg_dump " in x)
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "pg_dump").write_text(
        '#!/bin/sh\nfor a in "$@"; do case "$a" in --file=*) echo dump > "${a#--file=}";; '
        "esac; done\n"
    )
    (fake / "pg_dump").chmod(0o755)
    work = tmp_path / "work"
    work.mkdir()

    subprocess.run(
        ["sh", "-c", f"umask 022; {line}"],
        cwd=work,
        env={**os.environ, "PATH": f"{fake}{os.pathsep}{os.environ['PATH']}"},
        check=True,
    )

    (dump,) = work.glob("kosci-*.dump")
    assert stat.S_IMODE(dump.stat().st_mode) == 0o600


# --- automatic backups --------------------------------------------------------------------------


@pytest.fixture
def live_database(tmp_path: Path) -> Path:
    """A small SQLite database in WAL mode, as the app keeps it."""
    path = tmp_path / "live.sqlite3"
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("CREATE TABLE turns (id INTEGER PRIMARY KEY, dice TEXT)")
        connection.execute("INSERT INTO turns (dice) VALUES ('66666')")
    connection.close()
    return path


def test_scheduled_backups_keep_the_newest_and_nothing_else_is_touched(
    live_database: Path, tmp_path: Path
):
    folder = tmp_path / "backups"
    folder.mkdir()
    manual = folder / "kosci-20260101-120000.sqlite3"
    notes = folder / "notes.txt"
    manual.write_bytes(b"a manual backup")
    notes.write_text("mine")
    schedule = BackupSchedule(live_database, folder, keep=3)

    for day in range(1, 6):
        written = schedule.run_scheduled_backup(datetime(2026, 3, day, 4, 30))
        assert written.name == f"kosci-auto-202603{day:02d}-043000.sqlite3"

    kept = sorted(p.name for p in folder.glob("kosci-auto-*"))
    assert kept == [f"kosci-auto-202603{day:02d}-043000.sqlite3" for day in (3, 4, 5)]
    assert manual.read_bytes() == b"a manual backup"
    assert notes.read_text() == "mine"
    for name in kept:
        assert mode(folder / name) == 0o600
        with sqlite3.connect(folder / name) as connection:
            assert connection.execute("SELECT dice FROM turns").fetchall() == [("66666",)]
        connection.close()


def test_the_backup_thread_backs_up_at_once_and_logs_errors_without_stopping(
    live_database: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
):
    good = BackupSchedule(live_database, tmp_path / "good", keep=2, interval=3600)
    bad = BackupSchedule(tmp_path / "missing.sqlite3", tmp_path / "bad", keep=2, interval=3600)

    with caplog.at_level(logging.INFO, logger="tracker.backup"):
        threads = [good.start(), bad.start()]
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not (
            list((tmp_path / "good").glob("kosci-auto-*.sqlite3"))
            and "Automatic backup" in caplog.text
        ):
            time.sleep(0.01)
        assert all(thread.is_alive() for thread in threads)  # an error stops nothing
        good.stop()
        bad.stop()
        for thread in threads:
            thread.join(5)

    assert not any(thread.is_alive() for thread in threads)
    assert len(list((tmp_path / "good").glob("kosci-auto-*.sqlite3"))) == 1
    assert "Automatic backup of" in caplog.text
    assert "missing.sqlite3" in caplog.text


@pytest.mark.parametrize(
    "app_config", [{"KOSCI_BACKUP_DIR": "backups-here", "KOSCI_BACKUP_KEEP": "5"}]
)
def test_serve_starts_the_backups_when_the_server_starts(
    app: Flask, monkeypatch: pytest.MonkeyPatch
):
    hooks: list[Any] = []
    started: list[BackupSchedule] = []

    class FakeGranian:
        def __init__(self, target: str, **settings: Any) -> None:
            pass

        def on_startup(self, hook: Any) -> None:
            hooks.append(hook)

        def serve(self, **kwargs: Any) -> None:
            pass

    monkeypatch.setattr("granian.server.Server", FakeGranian)
    monkeypatch.setattr(cli.sys, "platform", "linux")
    monkeypatch.setattr(BackupSchedule, "start", lambda schedule: started.append(schedule))

    cli.run_server(app, "127.0.0.1", 8000, 2, 4)
    assert not started  # not before the server starts (in its main process, once)
    [hook] = hooks
    hook()

    [schedule] = started
    assert schedule.directory == Path("backups-here").resolve()
    assert schedule.keep == 5
    assert schedule.database == database_of(app)


@pytest.mark.parametrize("app_config", [{"KOSCI_BACKUP_DIR": "x", "KOSCI_BACKUP_KEEP": "zero"}])
def test_serve_refuses_a_backup_count_that_is_not_one(
    app: Flask, runner: FlaskCliRunner, monkeypatch: pytest.MonkeyPatch
):
    served = []
    monkeypatch.setattr(cli, "run_server", lambda *args, **kwargs: served.append(args))
    monkeypatch.setattr(cli, "check_port_free", lambda *_: None)  # 8000 may be taken here

    result = runner.invoke(args=["serve"])

    assert result.exit_code == 1
    assert "KOSCI_BACKUP_KEEP" in result.output
    assert not served


def test_backup_schedule_is_off_without_a_folder(app: Flask):
    assert cli.backup_schedule(app) is None
    assert backup.parse_keep(None) == backup.DEFAULT_KEEP
