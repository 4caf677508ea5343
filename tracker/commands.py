"""Account and maintenance commands: `create-account`, `create-token`, `create-invite`,
`reset-password`, `audit`, `recompute`, `backup`, `restore`.

Each runs in the app context (`with_appcontext`): the `flask` command pushes one anyway, but
`app.test_cli_runner()` and other callers of `app.cli` do not."""

from __future__ import annotations

import functools
import os
import sqlite3
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import click
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import current_app
from flask.cli import with_appcontext
from sqlalchemy import inspect, select

from . import backup
from .extensions import MIGRATIONS_DIR, db
from .models import Account, name_key
from .services import ServiceError, accounts, audit, results, signup, trash
from .settings import NEWER_SCHEMA, reach_database
from .store import cache

F = TypeVar("F", bound=Callable[..., Any])

UPGRADE = "flask --app tracker db upgrade"


def database_ready(command: F) -> F:
    """Run `command` only on a database that answers and holds this version's schema; else
    one sentence saying what to run first (an admin's `create-invite` before the first
    `serve`), not a traceback about a missing table. The database is left as it is: a
    `serve` of an older version may still be running on it."""

    @functools.wraps(command)
    def checked(*args: Any, **kwargs: Any) -> Any:
        reach_database(db.engine)
        with db.engine.connect() as connection:
            current = set(MigrationContext.configure(connection).get_current_heads())
            tables = current or inspect(connection).has_table(Account.__tablename__)
        if not tables:
            raise click.ClickException(
                "Baza danych nie ma jeszcze tabel Kości: utwórz je poleceniem "
                f"`{UPGRADE}` (robi to też pierwsze uruchomienie `serve`) i spróbuj ponownie."
            )
        # No revision but the tables there: a schema made from the models (the tests').
        heads = set(ScriptDirectory(str(MIGRATIONS_DIR)).get_heads())
        if current and current != heads:
            if not current <= _known_revisions():
                raise click.ClickException(NEWER_SCHEMA)
            raise click.ClickException(
                "Baza danych jest w starszej wersji Kości niż ta instalacja: uaktualnij ją "
                f"poleceniem `{UPGRADE}` (albo uruchom `serve`) i spróbuj ponownie."
            )
        return command(*args, **kwargs)

    return checked  # type: ignore[return-value]


@click.command("create-account")
@with_appcontext
@database_ready
@click.argument("name")
@click.option("--password", prompt="Hasło", hide_input=True, confirmation_prompt="Powtórz hasło")
def create_account_command(name: str, password: str) -> None:
    """Create an account (a household or club) named NAME."""
    try:
        account = accounts.create_account(name, password)
    except ServiceError as exc:
        raise click.ClickException(exc.message) from exc
    click.echo(f"Utworzono konto {account.name}.")


@click.command("create-token")
@with_appcontext
@database_ready
@click.argument("name")
@click.option("--label", default="CLI", show_default=True, help="A name to tell tokens apart.")
def create_token_command(name: str, label: str) -> None:
    """Create an API token for account NAME; the token is the last line of output."""
    account = db.session.scalar(select(Account).where(Account.name_key == name_key(name)))
    if account is None:
        raise click.ClickException(f"Nie ma konta {name!r}.")
    _, plain = accounts.create_token(account.id, label)
    click.echo(f"Token API dla konta {account.name} (pokazywany tylko raz):")
    click.echo(plain)


@click.command("create-invite")
@with_appcontext
@database_ready
@click.option(
    "--days",
    type=click.IntRange(1, signup.INVITE_DAYS_MAX),
    default=signup.INVITE_DAYS,
    show_default=True,
    help="How many days the code stays valid.",
)
def create_invite_command(days: int) -> None:
    """Create a one-time sign-up invite code (KOSCI_SIGNUP=invite); the code is the last line
    of output."""
    invite, code = signup.create_invite(None, days)
    if signup.policy() != "invite":
        click.echo(
            f"Uwaga: KOSCI_SIGNUP={signup.policy()}; kod zadziała tylko przy KOSCI_SIGNUP=invite.",
            err=True,
        )
    until = invite.expires_at.strftime("%Y-%m-%d %H:%M")
    click.echo(f"Kod zaproszenia, jednorazowy, ważny do {until} UTC (pokazywany tylko raz):")
    click.echo(code)


@click.command("recompute")
@with_appcontext
@database_ready
def recompute_command() -> None:
    """Recompute every cached figure (points, totals, places, winners) from the turns."""
    count = results.recompute_all()
    click.echo(f"Przeliczono gry: {count}.")


@click.command("purge-trash")
@with_appcontext
@database_ready
def purge_trash_command() -> None:
    """Remove for good the deleted games that have been in the trash („Kosz”) longer than
    its days, of every account. Deleting or restoring a game does this for its own account;
    run it from cron when games are seldom deleted."""
    removed = trash.purge_all()
    click.echo(f"Usunięto z koszy gry starsze niż {trash.KEEP_DAYS} dni: {removed}.")


@click.command("reset-password")
@with_appcontext
@database_ready
@click.argument("name")
@click.option(
    "--password", prompt="Nowe hasło", hide_input=True, confirmation_prompt="Powtórz nowe hasło"
)
def reset_password_command(name: str, password: str) -> None:
    """Set a new password for account NAME (asked twice unless --password is given); every
    browser signed in to the account is signed out. For the person who runs the server."""
    try:
        account = accounts.reset_password(name, password)
    except ServiceError as exc:
        raise click.ClickException(exc.message) from exc
    click.echo(f"Nowe hasło konta {account.name} ustawione; wszystkie jego sesje zakończone.")


@click.command("audit")
@with_appcontext
@database_ready
@click.option("--account", "account_name", default=None, help="Only this account's events.")
@click.option("--limit", default=50, show_default=True, type=click.IntRange(min=1))
def audit_command(account_name: str | None, limit: int) -> None:
    """Print the audit log, the newest LIMIT events, oldest first (times in UTC): sign-ins and
    failed ones, sign-outs, passwords changed and reset, API tokens, imports, deleted and
    restored games."""
    if account_name is not None and not db.session.scalar(
        select(Account.id).where(Account.name_key == name_key(account_name))
    ):
        raise click.ClickException(f"Nie ma konta {account_name!r}.")
    for event, name in audit.events(account_name, limit):
        click.echo(
            "\t".join(
                (
                    f"{event.at:%Y-%m-%d %H:%M:%S}Z",
                    event.event,
                    name or "-",
                    event.remote_addr or "-",
                    event.detail,
                )
            )
        )


@click.command("backup")
@with_appcontext
@click.argument("target", metavar="[PATH]", required=False, type=click.Path())
def backup_command(target: str | None) -> None:
    """Copy the database to PATH, consistently even while `serve` is writing to it.

    PATH defaults to instance/backups/kosci-DATE-TIME.sqlite3; a folder (or a path ending in
    a slash, created if missing) gets a file of that name. The copy is private (0600) and
    checked before the command says it is done."""
    database = _sqlite_database_or_advice()
    if target is None:
        path = Path(current_app.instance_path) / "backups" / backup.backup_name(datetime.now())
    else:
        path = Path(target)
        # Path() drops a trailing slash: read it from what was typed, so that a folder not
        # made yet gets a dated copy inside, not a file of the folder's name.
        if path.is_dir() or target.endswith(("/", os.sep)):
            path = path / backup.backup_name(datetime.now())
    try:
        written = backup.backup_sqlite(database, path)
    except (backup.BackupError, OSError, sqlite3.Error) as exc:
        raise click.ClickException(f"Nie udało się zrobić kopii: {exc}") from exc
    click.echo(f"Kopia bazy danych: {written}")


@click.command("restore")
@with_appcontext
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--yes", is_flag=True, help="Confirm: serve is stopped; replace the database.")
def restore_command(path: Path, yes: bool) -> None:
    """Replace the database with the backup at PATH (made by `backup`).

    Stop `serve` first, and start it again afterwards. The current database is copied aside
    first, to kosci.sqlite3.before-restore-DATE-TIME beside it."""
    database = _sqlite_database_or_advice()
    try:
        revision = backup.check_kosci_database(path, _known_revisions())
    except (backup.BackupError, sqlite3.Error) as exc:
        raise click.ClickException(str(exc)) from exc
    if not yes:
        raise click.ClickException(
            f"To zastąpi bazę danych {database} kopią {path} (schemat {revision}). "
            "Zatrzymaj serve, potem powtórz polecenie z --yes."
        )
    # This process's own pooled connections must not hold the old database open.
    for engine in db.engines.values():
        engine.dispose()
    try:
        aside = backup.restore_sqlite(path, database, datetime.now())
    except (backup.BackupError, OSError, sqlite3.Error) as exc:
        raise click.ClickException(f"Nie udało się przywrócić kopii: {exc}") from exc
    cache.clear()
    accounts.clear_caches()
    click.echo(f"Przywrócono bazę danych {database} z kopii {path}.")
    if aside is not None:
        click.echo(f"Poprzednia baza danych zostaje w {aside}.")
    click.echo("Uruchom serve ponownie: doprowadzi schemat bazy do bieżącej wersji Kości.")


def _sqlite_database_or_advice() -> Path:
    """The SQLite file of the app's database; for PostgreSQL, how to use pg_dump and
    pg_restore instead, and exit 1."""
    url = db.engine.url
    database = backup.sqlite_file(url)
    if database is not None:
        return database
    if url.get_backend_name() == "postgresql":
        click.echo(backup.pg_advice(url), err=True)
        raise click.exceptions.Exit(1)
    raise click.ClickException(
        f"Kopie tym poleceniem robi się tylko z pliku SQLite, nie z {url.get_backend_name()}."
    )


def _known_revisions() -> set[str]:
    """The schema revisions this version of Kości knows (its migrations)."""
    script = ScriptDirectory(str(MIGRATIONS_DIR))
    return {revision.revision for revision in script.walk_revisions()}
