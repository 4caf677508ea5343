"""The app factory: configuration, extensions, blueprints, errors, security headers, CLI."""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click
import flask_migrate
from flask import Flask, Request, Response, g, request
from flask.cli import FlaskGroup
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from itsdangerous import URLSafeTimedSerializer
from sqlalchemy.exc import DBAPIError
from werkzeug.exceptions import HTTPException
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import IntegerConverter

from tracker import api, arbiter, auth, games, history, join, main, settings, stats, transfer
from tracker.advisor_cli import advisor_cli
from tracker.api import API_PATH_PREFIX
from tracker.backup import sqlite_file
from tracker.cli import DEFAULT_THREADS, serve_command
from tracker.commands import (
    audit_command,
    backup_command,
    create_account_command,
    create_invite_command,
    create_token_command,
    purge_trash_command,
    recompute_command,
    reset_password_command,
    restore_command,
)
from tracker.errors import KosciRequest, database_unavailable, mark_own_answer, render_error
from tracker.extensions import (
    COMPRESS_MIMETYPES,
    DEFAULT_SQLITE_SYNCHRONOUS,
    compress,
    csrf,
    db,
    login_manager,
    migrate,
    sqlite_file_created_private,
    use_sqlite_pragmas,
)
from tracker.i18n import init_i18n
from tracker.jsontext import TextJSONProvider
from tracker.services import signup
from tracker.web import register_web

DATABASE_FILE = "kosci.sqlite3"
SECRET_KEY_FILE = "secret_key"


def create_app(
    test_config: Mapping[str, Any] | None = None,
    *,
    instance_path: str | os.PathLike[str] | None = None,
) -> Flask:
    """Build the app.

    Configuration comes from the environment (`DATABASE_URL`, `SECRET_KEY`, `KOSCI_TIMEZONE`,
    `KOSCI_PROXY_HOPS`, `KOSCI_HTTPS`), then from `test_config`, which overrides it. The
    instance folder (the database, the generated secret key) is `instance_path`, else
    `$KOSCI_INSTANCE_PATH`, else Flask's default: the top-level `instance/` folder of an
    editable install.
    """
    instance_path = instance_path or os.environ.get("KOSCI_INSTANCE_PATH") or None
    app = Flask(
        "tracker",  # the package: its folder is the root of templates/, static/, instance/
        template_folder="../templates",
        static_folder="../static",
        instance_relative_config=True,
        instance_path=os.path.abspath(instance_path) if instance_path else None,
    )
    _configure(app, test_config)
    _register_extensions(app)
    init_i18n(app)
    register_web(app)
    _register_blueprints(app)
    _register_error_handlers(app)
    _register_security_headers(app)
    _register_cli(app)
    if _started_by_flask_run():
        # `flask --app tracker run` (the development server) brings the database up to date
        # like `serve` does, so a fresh clone works with either. No other command does:
        # `flask db current`, `db stamp` and `db downgrade` must see the database as it is.
        with app.app_context():
            flask_migrate.upgrade()
    return app


def _started_by_flask_run() -> bool:
    """Whether the app is being built for Flask's own `run` command (the CLI loads the app
    from inside the command it runs). `FLASK_RUN_FROM_CLI` cannot tell: Flask sets it for
    every command."""
    context = click.get_current_context(silent=True)
    return (
        context is not None
        and context.command.name == "run"
        and isinstance(context.find_root().command, FlaskGroup)
    )


class RowIdConverter(IntegerConverter):
    """`<int:...>` limited to what SQLite can store: a larger id in a URL is a 404, not a
    driver OverflowError (500)."""

    max_id = 2**63 - 1

    def __init__(self, map: Any, *args: Any, **kwargs: Any) -> None:  # noqa: A002
        kwargs.setdefault("max", self.max_id)
        super().__init__(map, *args, **kwargs)


class PostgresRowIdConverter(RowIdConverter):
    """The same on PostgreSQL, whose INTEGER ids are 32 bits: a larger id would be a
    NumericValueOutOfRange error (500), not a row that does not exist."""

    max_id = 2**31 - 1


def _uses_postgresql(app: Flask) -> bool:
    return str(app.config["SQLALCHEMY_DATABASE_URI"]).startswith("postgresql")


def _configure(app: Flask, test_config: Mapping[str, Any] | None) -> None:
    _make_instance_folder(app)
    default_database_url = "sqlite:///" + os.path.join(app.instance_path, DATABASE_FILE)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=os.environ.get("DATABASE_URL") or default_database_url,
        SECRET_KEY=os.environ.get("SECRET_KEY") or None,
        # Dates are shown, and filtered, in the family's time zone.
        KOSCI_TIMEZONE=os.environ.get("KOSCI_TIMEZONE") or "Europe/Warsaw",
        # Automatic daily backups by `serve` (tracker/backup.py): off unless a folder is given.
        KOSCI_BACKUP_DIR=os.environ.get("KOSCI_BACKUP_DIR") or None,
        KOSCI_BACKUP_KEEP=os.environ.get("KOSCI_BACKUP_KEEP") or None,
        # A game lasts longer than Flask-WTF's default hour: a form left open on a phone
        # must still submit, so the token lives as long as the session.
        WTF_CSRF_TIME_LIMIT=None,
        # Score sheets are small; refuse anything that is not.
        MAX_CONTENT_LENGTH=1024 * 1024,
        SESSION_COOKIE_SAMESITE="Lax",
        # The session cookie goes out only with an answer that changed it. A guest phone's
        # session is permanent (tracker/guests.py), and Flask would send it back with every
        # answer: a poll sent before the phone opened another game's link, and answered after
        # it, would put the old game's invitation back in the cookie (the next game a 404).
        # The cookie outlives what it holds: 31 days from the join, an invitation at most 7.
        SESSION_REFRESH_EACH_REQUEST=False,
        # Flask-Login's "remember me" cookie (every sign-in sets it): never sent by a
        # cross-site form post, never readable by script.
        REMEMBER_COOKIE_SAMESITE="Lax",
        REMEMBER_COOKIE_HTTPONLY=True,
        # Behind a reverse proxy: how many proxies in front of the app set X-Forwarded-For,
        # -Proto and -Host. 0 (the default): the app is reached directly and ignores them.
        KOSCI_PROXY_HOPS=settings.env_int("KOSCI_PROXY_HOPS", 0),
        # Served over HTTPS (by that proxy): Secure cookies, `__Host-` names, HSTS.
        KOSCI_HTTPS=settings.env_flag("KOSCI_HTTPS", False),
        # Who may sign up: open, invite (a code from an account or the CLI) or closed; and
        # how many sign-up attempts one address may make an hour (README "Sign-up").
        KOSCI_SIGNUP=os.environ.get("KOSCI_SIGNUP") or signup.DEFAULT_POLICY,
        KOSCI_SIGNUP_PER_HOUR=settings.env_int("KOSCI_SIGNUP_PER_HOUR", signup.DEFAULT_PER_HOUR),
        # A database server (PostgreSQL): connections kept open per worker process, one per
        # thread by default (README "Production on PostgreSQL"). SQLite keeps its own pool.
        KOSCI_DB_POOL_SIZE=settings.env_int("KOSCI_DB_POOL_SIZE", DEFAULT_THREADS, minimum=1),
        # SQLite: NORMAL (the default) or FULL, an fsync per commit (README "Durability").
        KOSCI_SQLITE_SYNCHRONOUS=(
            os.environ.get("KOSCI_SQLITE_SYNCHRONOUS") or DEFAULT_SQLITE_SYNCHRONOUS
        ).upper(),
    )
    if test_config is not None:
        app.config.from_mapping(test_config)
    # A wrong value stops the start with one sentence (tracker/settings.py), not a traceback.
    settings.check_database_url(app.config["SQLALCHEMY_DATABASE_URI"])
    if app.config["KOSCI_TIMEZONE"]:
        settings.check_timezone("KOSCI_TIMEZONE", app.config["KOSCI_TIMEZONE"])
    app.url_map.converters["int"] = (
        PostgresRowIdConverter if _uses_postgresql(app) else RowIdConverter
    )
    _configure_engine(app)
    signup.check_config(app.config)
    if app.config["KOSCI_HTTPS"]:
        overridden = test_config or {}
        for key, value in _https_settings(app.config).items():
            if key not in overridden:
                app.config[key] = value
    hops = int(app.config["KOSCI_PROXY_HOPS"])
    if hops > 0:
        # Only the last `hops` values of each header are believed: a client cannot forge its
        # address past the proxy, which appends the address it sees.
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops
        )
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = _load_or_create_secret_key(
            Path(app.instance_path) / SECRET_KEY_FILE
        )
    app.request_class = KosciRequest
    app.session_interface = SigningOnceSessionInterface()
    # Readable Polish in curl, keys in the documented order, and no string that is not text.
    app.json = TextJSONProvider(app)


class SigningOnceSessionInterface(SecureCookieSessionInterface):
    """Flask's cookie session, with its signing serializer built once per key rather than on
    every request (building it runs a test serialisation each time: a measurable share of a
    request that does little else, docs/benchmarks.md). A changed key or fallback list builds a
    new one.

    An API request that carries a bearer token gets no session at all (Flask's null session:
    reading finds it empty, writing fails loudly): the token speaks for it, and neither
    opening nor saving a cookie it does not need is paid on every turn an API client writes."""

    def __init__(self) -> None:
        self._made: tuple[object, URLSafeTimedSerializer | None] | None = None

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        if request.path.startswith("/api/") and request.headers.get(
            "Authorization", ""
        ).lower().startswith("bearer "):
            return None  # Flask then uses `make_null_session`
        return super().open_session(app, request)

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        keys = (app.secret_key, tuple(app.config["SECRET_KEY_FALLBACKS"] or ()))
        made = self._made
        if made is None or made[0] != keys:
            made = self._made = (keys, super().get_signing_serializer(app))
        return made[1]


def _configure_engine(app: Flask) -> None:
    """On a database server: a pool of `KOSCI_DB_POOL_SIZE` connections per process (and up to
    10 more in a burst, SQLAlchemy's default), each checked before use, so a restarted server
    costs no request; each thread keeps one of them for its own writes (`store.kept`).
    On SQLite: SQLAlchemy's pool of 5, with no limit on connections beyond it (each thread
    keeps one for its own writes, and a file opened in this process is no scarce resource:
    `serve --threads 12` must not make a request wait for a connection).
    On both, a database error never carries the statement's values into the log (a password
    hash, a name, an address): the statement itself is enough to find the fault.
    `SQLALCHEMY_ENGINE_OPTIONS` set by hand win."""
    options: dict[str, Any] = {"hide_parameters": True}
    if str(app.config["SQLALCHEMY_DATABASE_URI"]).startswith("sqlite"):
        if sqlite_file(app.config["SQLALCHEMY_DATABASE_URI"]) is not None:  # not in memory
            options["max_overflow"] = -1
    else:
        pool_size = settings.check_count("KOSCI_DB_POOL_SIZE", app.config["KOSCI_DB_POOL_SIZE"], 1)
        options.update(pool_size=pool_size, pool_pre_ping=True)
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {
        **options,
        **app.config.get("SQLALCHEMY_ENGINE_OPTIONS", {}),
    }


# HSTS: once a browser has seen the site over HTTPS, it refuses plain HTTP to it for a year.
HSTS = "max-age=31536000"


def _https_settings(config: Mapping[str, Any]) -> dict[str, Any]:
    """What `KOSCI_HTTPS=1` changes: cookies only over HTTPS, and named `__Host-...` where
    the browser allows that prefix (Secure, Path=/, no Domain), so that no other site on the
    same domain, nor a plain-HTTP page, can set or overwrite them."""
    settings: dict[str, Any] = {
        "SESSION_COOKIE_SECURE": True,
        "REMEMBER_COOKIE_SECURE": True,
        "PREFERRED_URL_SCHEME": "https",
    }
    session_path = config.get("SESSION_COOKIE_PATH") or config.get("APPLICATION_ROOT") or "/"
    if not config.get("SESSION_COOKIE_DOMAIN") and session_path == "/":
        settings["SESSION_COOKIE_NAME"] = "__Host-session"
    remember_path = config.get("REMEMBER_COOKIE_PATH") or "/"
    if not config.get("REMEMBER_COOKIE_DOMAIN") and remember_path == "/":
        settings["REMEMBER_COOKIE_NAME"] = "__Host-remember_token"
    return settings


def _make_instance_folder(app: Flask) -> None:
    """Create the instance folder readable by its owner only (0700): it holds the database and
    the secret key. A folder that holds nothing yet (a fresh clone's `instance/`, which git
    creates 0755 with only `.gitkeep` in it) is tightened to 0700; one already in use keeps its
    mode, with a warning if other users of the computer can read it."""
    path = Path(app.instance_path)
    try:
        path.mkdir(mode=0o700, parents=True)
    except FileExistsError:
        if {child.name for child in path.iterdir()} <= {".gitkeep"}:
            path.chmod(0o700)
        warn_if_readable_by_others(app, path)


def warn_if_readable_by_others(app: Flask, path: Path) -> None:
    """Log a warning if `path` (the instance folder, the database) is open to the group or to
    every user of this computer, and how to close it; nothing on Windows."""
    if os.name != "posix":
        return
    try:
        mode = path.stat().st_mode & 0o777
    except OSError:
        return
    if mode & 0o077:
        private = 0o700 if path.is_dir() else 0o600
        app.logger.warning(
            "%s can be read by other users of this computer (mode %03o): "
            "run `chmod %03o %s` to keep the games and the secret key private.",
            path,
            mode,
            private,
            path,
        )


def _load_or_create_secret_key(path: Path) -> str:
    """The key stored at `path`, created there (mode 0600) on first use.

    Several processes may start at once (gunicorn workers, tests): the key is written to a
    private temporary file and hard-linked into place, which fails if another process got
    there first, so every process ends up with the same key.

    A key this user may not read or write (the instance folder made by root, the service run
    as another user, as README's systemd unit does) stops the start with one sentence.
    """
    try:
        return _stored_secret_key(path)
    except PermissionError as exc:
        raise settings.inaccessible_secret_key(path, exc) from exc


def _stored_secret_key(path: Path) -> str:
    try:
        return _read_secret_key(path)
    except FileNotFoundError:
        pass
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="ascii") as file:
        file.write(secrets.token_hex(32) + "\n")
    try:
        os.link(temporary, path)
    except FileExistsError:
        pass
    finally:
        temporary.unlink()
    return _read_secret_key(path)


def _read_secret_key(path: Path) -> str:
    key = path.read_text(encoding="ascii").strip()
    if not key:
        raise settings.empty_secret_key(path)
    return key


def _register_extensions(app: Flask) -> None:
    db.init_app(app)
    migrate.init_app(app, db)
    csrf.init_app(app)
    login_manager.init_app(app)
    app.config.setdefault("COMPRESS_MIMETYPES", COMPRESS_MIMETYPES)
    compress.init_app(app)

    @app.after_request  # after_request hooks run in reverse: this one before Flask-Compress's
    def buffer_static_files(response: Response) -> Response:
        """Static files are small and sent as file streams, which Flask-Compress compresses
        without gzip and without closing the file; read them into the response instead."""
        if request.endpoint == "static" and response.status_code == 200:
            response.direct_passthrough = False
            response.get_data()  # the file is closed when the server closes the response
        return response

    # The models must be known before the first query and to `flask db migrate`.
    from tracker import models  # noqa: F401

    with app.app_context():
        for engine in db.engines.values():
            use_sqlite_pragmas(engine, app.config["KOSCI_SQLITE_SYNCHRONOUS"])
            database = sqlite_file_created_private(engine)
            if database is not None:
                warn_if_readable_by_others(app, database)


def _register_blueprints(app: Flask) -> None:
    app.register_blueprint(main.bp)
    app.register_blueprint(auth.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(arbiter.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(join.bp)
    app.register_blueprint(join.panel)
    app.register_blueprint(stats.bp)
    app.register_blueprint(history.bp)
    app.register_blueprint(transfer.bp)


def _register_error_handlers(app: Flask) -> None:
    # Unhandled exceptions reach this handler as InternalServerError, a subclass of
    # HTTPException, after Flask has logged them: no traceback page is ever shown.
    app.register_error_handler(HTTPException, render_error)
    # The database not answering (PostgreSQL restarting) is a 503 with one line in the log.
    app.register_error_handler(DBAPIError, database_unavailable)
    # A 503 of the app's own is shown on the phone as it is, a gateway's is not (static/js/sw.js).
    app.after_request(mark_own_answer)


# Every asset comes from the app itself (it must work on a home network with no internet), and
# no page runs inline script: the policy turns both into rules the browser enforces.
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "object-src 'none'",
    )
)


# The app uses no device or browser feature: refuse them all to any page or frame, so that
# a script that got in somehow cannot ask either. Screen Wake Lock (keeping a phone's screen on
# during a game) is left to the app's own pages.
PERMISSIONS_POLICY = ", ".join(
    (
        *(
            f"{feature}=()"
            for feature in (
                "accelerometer",
                "camera",
                "display-capture",
                "geolocation",
                "gyroscope",
                "hid",
                "magnetometer",
                "microphone",
                "midi",
                "payment",
                "serial",
                "usb",
            )
        ),
        "screen-wake-lock=(self)",
    )
)


SECURITY_HEADERS = (
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "same-origin"),
    ("X-Frame-Options", "DENY"),
    ("Permissions-Policy", PERMISSIONS_POLICY),
    ("Cross-Origin-Opener-Policy", "same-origin"),
)


def _register_security_headers(app: Flask) -> None:
    https = bool(app.config["KOSCI_HTTPS"])

    @app.after_request
    def add_security_headers(response: Response) -> Response:
        headers = response.headers
        # What a view set itself stands; the rest is added in one pass (every answer pays
        # for this hook: one scan of the headers, not one per header).
        present = {name.lower() for name in headers.keys()}  # noqa: SIM118 (Headers)
        headers.extend(
            [(name, value) for name, value in SECURITY_HEADERS if name.lower() not in present]
        )
        # Browsers ignore HSTS sent over plain HTTP; behind a proxy the request is secure when
        # the proxy says so (X-Forwarded-Proto, trusted through KOSCI_PROXY_HOPS).
        if https and "strict-transport-security" not in present and request.is_secure:
            headers["Strict-Transport-Security"] = HSTS
        if _is_private():
            headers["Cache-Control"] = "no-store"
        return response


def _is_private() -> bool:
    """Whether the answer must not be stored by the browser or any cache on the way: every API
    answer, and every page built for a signed-in account (a shared phone's back button or a
    proxy must not show it to the next person). Static files keep their caching. Only an
    account the request has already loaded counts (Flask-Login keeps it in `g._login_user`): an
    answer that never looked at the account (`/healthz`) does not depend on it, and asking here
    would open the session and query the database for nothing."""
    if request.path.startswith(API_PATH_PREFIX):
        return True
    if request.endpoint == "static":
        return False
    user = g.get("_login_user")
    return bool(user is not None and user.is_authenticated)


def _register_cli(app: Flask) -> None:
    for command in (
        serve_command,
        create_account_command,
        create_token_command,
        create_invite_command,
        recompute_command,
        purge_trash_command,
        backup_command,
        restore_command,
        reset_password_command,
        audit_command,
        advisor_cli,
    ):
        app.cli.add_command(command)
