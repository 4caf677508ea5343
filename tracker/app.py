"""The app factory: configuration, extensions, blueprints, errors, security headers, CLI."""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click
import flask_migrate
from flask import Flask, Response, request
from flask.cli import FlaskGroup
from werkzeug.exceptions import HTTPException
from werkzeug.routing import IntegerConverter

from tracker import api, arbiter, auth, games, history, main, stats, transfer
from tracker.cli import serve_command
from tracker.commands import create_account_command, create_token_command, recompute_command
from tracker.errors import KosciRequest, render_error
from tracker.extensions import (
    COMPRESS_MIMETYPES,
    compress,
    csrf,
    db,
    login_manager,
    migrate,
    use_sqlite_pragmas,
)
from tracker.web import register_web

DATABASE_FILE = "kosci.sqlite3"
SECRET_KEY_FILE = "secret_key"


def create_app(
    test_config: Mapping[str, Any] | None = None,
    *,
    instance_path: str | os.PathLike[str] | None = None,
) -> Flask:
    """Build the app.

    Configuration comes from the environment (`DATABASE_URL`, `SECRET_KEY`), then from
    `test_config`, which overrides it. The instance folder (the database, the generated secret
    key) is `instance_path`, else `$KOSCI_INSTANCE_PATH`, else Flask's default: the top-level
    `instance/` folder of an editable install.
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

    def __init__(self, map: Any, *args: Any, **kwargs: Any) -> None:  # noqa: A002
        kwargs.setdefault("max", 2**63 - 1)
        super().__init__(map, *args, **kwargs)


def _configure(app: Flask, test_config: Mapping[str, Any] | None) -> None:
    app.url_map.converters["int"] = RowIdConverter
    os.makedirs(app.instance_path, exist_ok=True)
    default_database_url = "sqlite:///" + os.path.join(app.instance_path, DATABASE_FILE)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=os.environ.get("DATABASE_URL") or default_database_url,
        SECRET_KEY=os.environ.get("SECRET_KEY") or None,
        # Dates are shown, and filtered, in the family's time zone.
        KOSCI_TIMEZONE=os.environ.get("KOSCI_TIMEZONE") or "Europe/Warsaw",
        # A game lasts longer than Flask-WTF's default hour: a form left open on a phone
        # must still submit, so the token lives as long as the session.
        WTF_CSRF_TIME_LIMIT=None,
        # Score sheets are small; refuse anything that is not.
        MAX_CONTENT_LENGTH=1024 * 1024,
        SESSION_COOKIE_SAMESITE="Lax",
    )
    if test_config is not None:
        app.config.from_mapping(test_config)
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = _load_or_create_secret_key(
            Path(app.instance_path) / SECRET_KEY_FILE
        )
    app.request_class = KosciRequest
    app.json.ensure_ascii = False  # readable Polish in curl
    app.json.sort_keys = False  # keys in the documented order, and no sorting cost per answer


def _load_or_create_secret_key(path: Path) -> str:
    """The key stored at `path`, created there (mode 0600) on first use.

    Several processes may start at once (gunicorn workers, tests): the key is written to a
    private temporary file and hard-linked into place, which fails if another process got
    there first, so every process ends up with the same key.
    """
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
        raise RuntimeError(f"{path} is empty: delete it to generate a new secret key.")
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
            use_sqlite_pragmas(engine)


def _register_blueprints(app: Flask) -> None:
    app.register_blueprint(main.bp)
    app.register_blueprint(auth.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(arbiter.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(stats.bp)
    app.register_blueprint(history.bp)
    app.register_blueprint(transfer.bp)


def _register_error_handlers(app: Flask) -> None:
    # Unhandled exceptions reach this handler as InternalServerError, a subclass of
    # HTTPException, after Flask has logged them: no traceback page is ever shown.
    app.register_error_handler(HTTPException, render_error)


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


def _register_security_headers(app: Flask) -> None:
    @app.after_request
    def add_security_headers(response: Response) -> Response:
        headers = response.headers
        headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        headers.setdefault("X-Content-Type-Options", "nosniff")
        headers.setdefault("Referrer-Policy", "same-origin")
        headers.setdefault("X-Frame-Options", "DENY")
        return response


def _register_cli(app: Flask) -> None:
    for command in (
        serve_command,
        create_account_command,
        create_token_command,
        recompute_command,
    ):
        app.cli.add_command(command)
