"""Flask extensions, created unbound here and bound to an app in `create_app`."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar
from urllib.parse import urlsplit

from flask import Response, current_app, flash, redirect, request
from flask_compress import Compress
from flask_login import LoginManager
from flask_login.config import COOKIE_NAME
from flask_login.signals import user_unauthorized
from flask_login.utils import login_url as make_login_url
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy import Engine, MetaData, Table, event
from sqlalchemy.orm import DeclarativeBase
from werkzeug.wrappers import Response as BaseResponse

from . import settings
from .backup import sqlite_file
from .i18n import N_

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"

# Alembic can only alter or drop a constraint it can name, and SQLite's batch mode rebuilds
# tables by name: give every constraint a predictable one.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# How durable a commit is (`KOSCI_SQLITE_SYNCHRONOUS`, README "Durability"). NORMAL, the
# default: with WAL a power cut or an OS crash may lose the last commits (a turn written a
# moment before), never corrupt the file or half-write a turn; a crash of the app alone loses
# nothing. FULL: every commit is on the disk before its answer (an fsync per commit), so a
# written turn survives a power cut too, at a measured cost per commit (docs/benchmarks.md).
SQLITE_SYNCHRONOUS = ("NORMAL", "FULL")
DEFAULT_SQLITE_SYNCHRONOUS = "NORMAL"

SQLITE_PRAGMAS = (
    # Readers never block the writer and vice versa: several phones at one table.
    "PRAGMA journal_mode=WAL",
    # SQLite ignores foreign keys unless asked, per connection.
    "PRAGMA foreign_keys=ON",
    # Wait for a concurrent writer instead of failing at once with "database is locked".
    "PRAGMA busy_timeout=5000",
)


class Base(DeclarativeBase):
    """Base class of the typed models (`Mapped[...]`, `mapped_column`)."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


# Objects stay readable after commit: a service returns what it wrote without reloading it.
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
if TYPE_CHECKING:
    from flask_sqlalchemy.model import Model as _FSAModel

    class Model(Base, _FSAModel):
        """What `db.Model` is at run time: a class Flask-SQLAlchemy builds from `Base` and its
        own mixins, which a type checker sees only as a variable and cannot take as a base."""

        __abstract__ = True
        # Every model is mapped to one table (SQLAlchemy allows a join or a subquery).
        __table__: ClassVar[Table]

else:
    Model = db.Model
migrate = Migrate(directory=str(MIGRATIONS_DIR), render_as_batch=True)
csrf = CSRFProtect()
# Pages, stylesheets and scripts go out gzipped: a phone on a weak Wi-Fi gets the turn screen
# in a third of the bytes. JSON is left alone: API clients are scripts on the same network,
# and compressing every turn's answer would cost the server more than it saves.
compress = Compress()
COMPRESS_MIMETYPES = ["text/html", "text/css", "text/javascript", "image/svg+xml"]


class KosciLoginManager(LoginManager):
    """Flask-Login's manager, sending a form posted after the session ended back to its page
    after sign-in, and deleting the remember cookie with the attributes it was set
    with. Over HTTPS the cookie is `__Host-remember_token`, which a browser takes, and so
    deletes, only with Secure: Flask-Login 0.6 deletes it without, the browser refuses that,
    and the token of a browser signed out stayed on it (refused by the server, but kept)."""

    def unauthorized(self) -> BaseResponse:
        """To the sign-in page, as Flask-Login sends. A form sent after the session ended (a
        turn tapped after „Wyloguj na wszystkich urządzeniach” on another phone) comes back,
        after sign-in, to the page it was sent from: its own address takes only POSTs."""
        if request.method in ("GET", "HEAD") or not self.login_view:
            return super().unauthorized()
        user_unauthorized.send(current_app._get_current_object())  # type: ignore[attr-defined]
        if self.login_message:
            message = self.login_message
            flash(
                self.localize_callback(message) if self.localize_callback else message,
                self.login_message_category,
            )
        came_from = urlsplit(request.referrer or "")
        back = came_from.path if came_from.netloc == request.host else ""
        return redirect(make_login_url(self.login_view, next_url=back or None))

    def _clear_cookie(self, response: Response) -> None:
        config = current_app.config
        response.delete_cookie(
            config.get("REMEMBER_COOKIE_NAME", COOKIE_NAME),
            domain=config.get("REMEMBER_COOKIE_DOMAIN"),
            path=config.get("REMEMBER_COOKIE_PATH", "/"),
            secure=bool(config.get("REMEMBER_COOKIE_SECURE", False)),
            httponly=bool(config.get("REMEMBER_COOKIE_HTTPONLY", True)),
            samesite=config.get("REMEMBER_COOKIE_SAMESITE"),
        )


login_manager = KosciLoginManager()
login_manager.login_view = "auth.sign_in"
# Translated when flashed (`localize_callback`, set by tracker.i18n.init_i18n).
login_manager.login_message = N_("Zaloguj się, aby kontynuować.")
login_manager.login_message_category = "info"


def sqlite_file_created_private(engine: Engine) -> Path | None:
    """The database file of `engine` if it is an SQLite file; it will be created readable and
    writable by its owner only (0600) on the first connection, if it is missing then.

    SQLite itself would create it 0644 (less the umask): readable by every user of the
    computer, and so would be its -wal and -shm files, which SQLite creates with the mode of
    the database file. An empty file is a new SQLite database.
    """
    path = sqlite_file(engine.url)
    if path is None:
        return None

    def create_private(*_args: Any) -> None:
        # There already, or no folder for it: SQLite opens it, or says why it cannot.
        with contextlib.suppress(OSError):
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))

    event.listen(engine, "do_connect", create_private)
    return path


def use_sqlite_pragmas(engine: Engine, synchronous: str = DEFAULT_SQLITE_SYNCHRONOUS) -> None:
    """Run `SQLITE_PRAGMAS` and the `synchronous` level (one of `SQLITE_SYNCHRONOUS`) on every
    new connection of `engine` if it is SQLite."""
    settings.check_choice("KOSCI_SQLITE_SYNCHRONOUS", synchronous, SQLITE_SYNCHRONOUS)
    if engine.dialect.name == "sqlite":
        pragmas = (*SQLITE_PRAGMAS, f"PRAGMA synchronous={synchronous}")

        def set_pragmas(dbapi_connection: sqlite3.Connection, _record: Any) -> None:
            _run_pragmas(dbapi_connection, pragmas)

        event.listen(engine, "connect", set_pragmas)


def _run_pragmas(dbapi_connection: sqlite3.Connection, pragmas: tuple[str, ...]) -> None:
    cursor = dbapi_connection.cursor()
    try:
        for pragma in pragmas:
            cursor.execute(pragma)
    finally:
        cursor.close()
