"""Backups of the SQLite database: a consistent copy of a live database, restoring one, and
the automatic daily backups `serve` makes when `KOSCI_BACKUP_DIR` is set.

A copy is made with SQLite's online backup API (`sqlite3.Connection.backup`) in one step: it
reads the whole database in a single read transaction, so it is a snapshot of one moment even
while phones write turns (WAL: the writers do not wait for it). The copy is written to a
private temporary file (mode 0600), checked with `PRAGMA integrity_check`, then renamed into
place: a backup file is either whole and sound, or absent.

PostgreSQL has its own tools (`pg_dump`, `pg_restore`): `pg_advice` says how to call them.
Nothing here needs Flask.
"""

from __future__ import annotations

import logging
import os
import re
import shlex
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from sqlalchemy.engine import URL, make_url

logger = logging.getLogger(__name__)

DEFAULT_KEEP = 7
DAY_SECONDS = 24 * 60 * 60
STAMP = "%Y%m%d-%H%M%S"
SUFFIX = ".sqlite3"
# `flask --app tracker backup` names its copies kosci-<time>.sqlite3; the automatic ones are
# kosci-auto-<time>.sqlite3, and rotation never touches any other file.
MANUAL_PREFIX = "kosci-"
AUTO_PREFIX = "kosci-auto-"
AUTO_NAME = re.compile(rf"^{re.escape(AUTO_PREFIX)}\d{{8}}-\d{{6}}{re.escape(SUFFIX)}$")
# How long the copy waits for a writer that holds the database (WAL: only while it
# checkpoints or recovers), and how long a restore waits to write into the live file.
BUSY_TIMEOUT_SECONDS = 30.0


class BackupError(Exception):
    """A backup or a restore that cannot be done; the message says why, for the user."""


def sqlite_file(url: str | URL) -> Path | None:
    """The file of an SQLite database URL; None for another database, an in-memory one, or a
    URI filename (`?uri=true`), which these tools do not handle."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    database = parsed.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database)


def backup_name(now: datetime, prefix: str = MANUAL_PREFIX) -> str:
    return f"{prefix}{now.strftime(STAMP)}{SUFFIX}"


def backup_sqlite(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> Path:
    """Copy the SQLite database `source` (a path or an SQLite URL), live or not, to `target`
    (mode 0600; its folder is created 0700); the path written. The copy is a rollback-journal
    database on its own (no -wal file needed), checked before it takes `target`'s name."""
    database = _source_file(source)
    target = Path(target)
    if target.exists() and target.resolve() == database.resolve():
        raise BackupError(f"Kopia nie może zastąpić samej bazy danych: {target}.")
    if not target.parent.exists():
        target.parent.mkdir(mode=0o700, parents=True)
    with _private_temporary(target) as temporary:
        with (
            closing(_connect(database)) as source_db,
            closing(sqlite3.connect(temporary)) as copy_db,
        ):
            # pages=-1 (the default): one step, one read transaction, one moment's snapshot.
            # In steps, every write by another connection would restart the copy.
            source_db.backup(copy_db)
            copy_db.execute("PRAGMA journal_mode=DELETE")
        check_integrity(temporary)
        _fsync(temporary)
        os.replace(temporary, target)
    _fsync(target.parent)
    return target


def check_integrity(path: Path) -> None:
    """BackupError unless `path` is an SQLite database that passes `PRAGMA integrity_check`."""
    try:
        with closing(_connect(path)) as connection:
            result = [row[0] for row in connection.execute("PRAGMA integrity_check")]
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{path} nie jest bazą danych SQLite ({exc}).") from exc
    if result != ["ok"]:
        raise BackupError(f"{path} jest uszkodzony: {'; '.join(result[:5])}.")


def check_kosci_database(path: Path, known_revisions: set[str] | None = None) -> str:
    """The schema revision of the Kości database at `path`; BackupError if it is not sound,
    not a Kości database (no `alembic_version` table), or, given `known_revisions`, made by a
    newer version of Kości than this one."""
    if not path.is_file():
        raise BackupError(f"Nie ma pliku {path}.")
    check_integrity(path)
    with closing(_connect(path)) as connection:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
        if "alembic_version" not in tables:
            raise BackupError(f"{path} nie jest bazą danych Kości (brak tabeli alembic_version).")
        row = connection.execute("SELECT version_num FROM alembic_version").fetchone()
    if row is None:
        raise BackupError(f"{path} nie jest bazą danych Kości (pusta tabela alembic_version).")
    revision = str(row[0])
    if known_revisions is not None and revision not in known_revisions:
        raise BackupError(
            f"{path} pochodzi z nowszej wersji Kości (schemat {revision}): "
            "najpierw zaktualizuj program."
        )
    return revision


def restore_sqlite(backup: Path, database: Path, now: datetime) -> Path | None:
    """Replace the contents of `database` with the backup at `backup` (checked first), after
    copying the current database aside to `<database>.before-restore-<time>`; that path, or
    None if there was no database. The backup API writes into the live file, through SQLite:
    a WAL database stays one, and no stale -wal file can be replayed over the restored data."""
    if backup.resolve() == database.resolve():
        raise BackupError("Kopia i bieżąca baza danych to ten sam plik.")
    aside = None
    if database.exists():
        aside = database.with_name(f"{database.name}.before-restore-{now.strftime(STAMP)}")
        backup_sqlite(database, aside)
    else:
        _create_private(database)
    with closing(_connect(backup)) as source_db, closing(_connect(database)) as live_db:
        source_db.backup(live_db)
    check_integrity(database)
    return aside


@dataclass
class BackupSchedule:
    """Automatic backups of `database` into `directory`: one at start, then one every
    `interval` seconds, keeping the newest `keep` (the thread just calls
    `run_scheduled_backup`)."""

    database: Path
    directory: Path
    keep: int = DEFAULT_KEEP
    interval: float = DAY_SECONDS
    _stopped: threading.Event = field(default_factory=threading.Event, repr=False)

    def run_scheduled_backup(self, now: datetime) -> Path:
        """Back up now into `kosci-auto-<time>.sqlite3`, then delete all but the newest
        `keep` automatic backups; the path written."""
        target = backup_sqlite(self.database, self.directory / backup_name(now, AUTO_PREFIX))
        rotate(self.directory, self.keep)
        return target

    def start(self) -> threading.Thread:
        thread = threading.Thread(target=self._run, name="kosci-backups", daemon=True)
        thread.start()
        return thread

    def stop(self) -> None:
        self._stopped.set()

    def _run(self) -> None:
        while not self._stopped.is_set():
            try:
                target = self.run_scheduled_backup(datetime.now())
                logger.info("Backup written: %s", target)
            except Exception:  # logged; the server goes on serving without this backup
                logger.exception("Automatic backup of %s failed", self.database)
            self._stopped.wait(self.interval)


def rotate(directory: Path, keep: int) -> list[Path]:
    """Delete all but the newest `keep` automatic backups in `directory` (by the time in
    their names); the paths deleted. Other files are left alone."""
    backups = sorted(p for p in directory.iterdir() if AUTO_NAME.match(p.name))
    stale = backups[: max(len(backups) - keep, 0)]
    for path in stale:
        path.unlink(missing_ok=True)
    return stale


def parse_keep(raw: object) -> int:
    """`KOSCI_BACKUP_KEEP`: how many automatic backups to keep, at least 1."""
    if raw is None or raw == "":
        return DEFAULT_KEEP
    try:
        keep = int(str(raw))
    except ValueError:
        keep = 0
    if keep < 1:
        raise BackupError(f"KOSCI_BACKUP_KEEP musi być liczbą całkowitą, co najmniej 1: {raw!r}.")
    return keep


def pg_advice(url: str | URL) -> str:
    """How to back up and restore the PostgreSQL database at `url` with pg_dump and
    pg_restore; never the password."""
    parsed = make_url(url)
    options = []
    if parsed.host:
        options.append(f"--host={shlex.quote(parsed.host)}")
    if parsed.port:
        options.append(f"--port={parsed.port}")
    if parsed.username:
        options.append(f"--username={shlex.quote(parsed.username)}")
    connection = " ".join(options)
    name = shlex.quote(parsed.database or "kosci")
    owner = f" --owner={shlex.quote(parsed.username)}" if parsed.username else ""
    return "\n".join(
        (
            "Baza danych to PostgreSQL: kopie robi i przywraca sam PostgreSQL.",
            # The dump holds password hashes and the audit log's addresses: private from the
            # start, whatever the admin's umask (a subshell, so the umask goes no further).
            "  kopia (plik tylko dla właściciela):",
            "    (umask 077 && pg_dump --format=custom"
            f" {connection} --file=kosci-$(date +%Y%m%d-%H%M%S).dump {name})",
            # Into an empty database: `pg_restore --clean` drops only what the dump holds, and
            # the tables a later version added keep foreign keys to those, so a backup from
            # before an upgrade failed halfway and the next `serve` stopped at "relation
            # already exists" in the migrations.
            "  przywrócenie (najpierw zatrzymaj serve, potem uruchom je ponownie) do pustej bazy,",
            "  założonej od nowa na serwerze bazy przez administratora PostgreSQL:",
            f'    su postgres -c "dropdb {name} && createdb{owner} {name}"',
            f"    pg_restore {connection} --dbname={name} PLIK.dump",
            "Hasło podaj w zmiennej PGPASSWORD albo w pliku ~/.pgpass.",
        )
    )


def _source_file(source: str | os.PathLike[str]) -> Path:
    if isinstance(source, str) and "://" in source:
        database = sqlite_file(source)
        if database is None:
            raise BackupError("Kopię tym poleceniem można zrobić tylko z pliku SQLite.")
    else:
        database = Path(source)
    if not database.is_file():
        raise BackupError(f"Nie ma bazy danych {database}.")
    return database


def _connect(path: Path) -> sqlite3.Connection:
    """A connection to an existing database file (never creating one)."""
    if not path.is_file():
        raise BackupError(f"Nie ma pliku {path}.")
    return sqlite3.connect(path, timeout=BUSY_TIMEOUT_SECONDS)


@contextmanager
def _private_temporary(target: Path) -> Iterator[Path]:
    """An empty file (mode 0600) beside `target`, removed unless the caller renamed it."""
    temporary = target.with_name(f".{target.name}.{os.getpid()}-{threading.get_ident()}.tmp")
    temporary.unlink(missing_ok=True)  # left by a crash, perhaps with another mode
    _create_private(temporary)
    try:
        yield temporary
    finally:
        temporary.unlink(missing_ok=True)


def _create_private(path: Path) -> None:
    """Create `path` empty, readable and writable by its owner only (an empty file is a new
    SQLite database)."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def _fsync(path: Path) -> None:
    """Flush `path` (a file, or a folder after a rename) to the disk, where the OS allows."""
    try:
        descriptor = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)
