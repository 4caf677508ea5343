"""`flask --app tracker serve`, without starting a real server."""

from __future__ import annotations

import ipaddress
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any, ClassVar

import click.testing
import pytest
from alembic.config import Config as AlembicConfig
from alembic.script import ScriptDirectory
from click.testing import CliRunner
from flask import Flask, has_app_context
from flask.cli import cli as flask_cli
from flask.testing import FlaskCliRunner
from sqlalchemy import inspect

from tracker import cli, create_app
from tracker.extensions import MIGRATIONS_DIR, db
from tracker.services import reviewer


def test_serve_help_lists_its_options(runner: FlaskCliRunner):
    result = runner.invoke(args=["serve", "--help"])

    assert result.exit_code == 0, result.output
    for option in ("--host", "--port", "--workers"):
        assert option in result.output


def test_serve_upgrades_the_database_then_prints_where_to_open_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    app = create_app(
        {"SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'db.sqlite3'}"},
        instance_path=tmp_path,
    )
    served = []
    monkeypatch.setattr(cli, "run_server", lambda *args, **kwargs: served.append((args, kwargs)))
    monkeypatch.setattr(cli, "lan_address", lambda: "192.168.1.23")
    monkeypatch.setattr(cli, "check_port_free", lambda *_: None)  # 8765 may be taken here

    result = app.test_cli_runner().invoke(args=["serve", "--port", "8765", "--workers", "3"])

    assert result.exit_code == 0, result.output
    assert "http://localhost:8765" in result.output
    assert "http://192.168.1.23:8765" in result.output
    assert served == [((app, "0.0.0.0", 8765, 3, cli.DEFAULT_THREADS), {"access_log": True})]
    with app.app_context():
        assert "alembic_version" in inspect(db.engine).get_table_names()
        db.engine.dispose()


def test_serve_on_localhost_says_phones_cannot_connect():
    message = cli.startup_message("127.0.0.1", 8000)

    assert "http://localhost:8000" in message
    assert "--host 0.0.0.0" in message


def test_serve_behind_a_proxy_names_the_address_the_proxy_reaches():
    """Behind a proxy the phones open the proxy's address: `serve` must not advise listening
    on every address (a phone could then reach the app past the proxy, and name any address
    it likes in X-Forwarded-For), and says so when it does."""
    local = cli.startup_message("127.0.0.1", 8000, proxy_hops=1)
    everywhere = cli.startup_message("0.0.0.0", 8000, proxy_hops=1)

    assert "za serwerem proxy (KOSCI_PROXY_HOPS=1)" in local
    assert "proxy łączy się z: http://127.0.0.1:8000" in local
    assert "--host 0.0.0.0" not in local
    assert "Uwaga" not in local
    assert "z pominięciem proxy" in everywhere
    assert "--host 127.0.0.1" in everywhere


def test_serve_without_a_known_lan_address_still_says_what_to_do(
    monkeypatch: pytest.MonkeyPatch,
):
    monkeypatch.setattr(cli, "lan_address", lambda: None)

    message = cli.startup_message("0.0.0.0", 8000)

    assert "http://localhost:8000" in message
    assert "port 8000" in message


def test_lan_address_is_none_or_a_reachable_ipv4_address():
    address = cli.lan_address()

    if address is not None:
        ip = ipaddress.IPv4Address(address)
        assert not ip.is_loopback
        assert not ip.is_unspecified


def test_default_workers_is_two_to_four():
    assert 2 <= cli.default_workers() <= 4


def _flask(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, *args: str) -> click.testing.Result:
    """`flask --app tracker ARGS` as a family types it, on the database in `tmp_path`."""
    monkeypatch.setenv("KOSCI_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("SECRET_KEY", "x")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'db.sqlite3'}")
    # Flask's CLI sets this for whatever runs next; the test must not leak it.
    monkeypatch.setenv("FLASK_RUN_FROM_CLI", "")
    return CliRunner().invoke(flask_cli, ["--app", "tracker", *args], catch_exceptions=False)


def _revision(tmp_path: Path) -> str | None:
    with sqlite3.connect(tmp_path / "db.sqlite3") as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        if "alembic_version" not in tables:
            return None
        return conn.execute("SELECT version_num FROM alembic_version").fetchone()[0]


def test_flask_run_brings_a_fresh_database_up_to_date(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    started = []
    monkeypatch.setattr("flask.cli.run_simple", lambda *a, **k: started.append(a))

    result = _flask(monkeypatch, tmp_path, "run", "--port", "8765")

    assert result.exit_code == 0, result.output
    assert started  # the development server was asked to start
    assert _revision(tmp_path) == _head()


@pytest.mark.parametrize(
    "args", [["routes"], ["db", "current"], ["create-account", "--help"]], ids=" ".join
)
def test_other_commands_leave_the_database_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]
):
    result = _flask(monkeypatch, tmp_path, *args)

    assert result.exit_code == 0, result.output
    assert _revision(tmp_path) is None


def test_db_current_shows_a_database_that_is_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    first = _flask(monkeypatch, tmp_path, "db", "upgrade", _first_revision())
    assert first.exit_code == 0, first.output

    result = _flask(monkeypatch, tmp_path, "db", "current")

    assert result.exit_code == 0, result.output
    assert _revision(tmp_path) == _first_revision()
    assert "(head)" not in result.output


ACCOUNT_COMMANDS = [
    ["create-account", "Kowalscy", "--password", "tajne haslo 123"],
    ["create-token", "Kowalscy"],
    ["create-invite"],
    ["reset-password", "Kowalscy", "--password", "nowe haslo 123"],
    ["audit"],
    ["recompute"],
]


@pytest.mark.parametrize("args", ACCOUNT_COMMANDS, ids=lambda args: args[0])
def test_a_command_on_a_database_not_yet_made_says_how_to_make_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]
):
    """A club's admin runs `create-invite` (or another account command) before the first
    `serve`: one sentence saying what to run, not a traceback about a missing table, and the
    database left as it is."""
    result = _flask(monkeypatch, tmp_path, *args)

    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert "Baza danych nie ma jeszcze tabel Kości" in result.output
    assert "flask --app tracker db upgrade" in result.output
    assert _revision(tmp_path) is None


@pytest.mark.parametrize("args", ACCOUNT_COMMANDS[:3], ids=lambda args: args[0])
def test_a_command_on_a_database_behind_this_version_says_to_upgrade_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]
):
    assert _flask(monkeypatch, tmp_path, "db", "upgrade", _first_revision()).exit_code == 0

    result = _flask(monkeypatch, tmp_path, *args)

    assert result.exit_code == 1, result.output
    assert "starszej wersji Kości" in result.output
    assert "flask --app tracker db upgrade" in result.output
    assert _revision(tmp_path) == _first_revision()


def test_a_command_on_a_database_from_a_newer_version_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    assert _flask(monkeypatch, tmp_path, "db", "upgrade").exit_code == 0
    with sqlite3.connect(tmp_path / "db.sqlite3") as conn:
        conn.execute("UPDATE alembic_version SET version_num = 'f00dfeedbeef'")

    result = _flask(monkeypatch, tmp_path, "create-invite")

    assert result.exit_code == 1, result.output
    assert "nowszej wersji Kości" in result.output


@pytest.mark.parametrize("args", [["serve", "--port", "8766"], ["db", "upgrade"]], ids=" ".join)
def test_serve_and_upgrade_leave_a_database_from_a_newer_version_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]
):
    """A rollback to an older Kości after an upgrade: one sentence saying what happened, the
    database untouched (not alembic's „Can't locate revision”)."""
    assert _flask(monkeypatch, tmp_path, "db", "upgrade").exit_code == 0
    with sqlite3.connect(tmp_path / "db.sqlite3") as conn:
        conn.execute("UPDATE alembic_version SET version_num = 'f00dfeedbeef'")
    served: list[object] = []
    monkeypatch.setattr(cli, "run_server", lambda *a, **k: served.append(a))
    monkeypatch.setattr(cli, "check_port_free", lambda *_: None)  # 8766 may be taken here

    result = _flask(monkeypatch, tmp_path, *args)

    assert result.exit_code == 1, result.output
    assert "nowszej wersji Kości" in result.output
    assert "Can't locate revision" not in result.output
    assert served == []
    assert _revision(tmp_path) == "f00dfeedbeef"


@pytest.mark.parametrize(
    "args",
    [["create-invite"], ["db", "upgrade"], ["db", "current"], ["db", "downgrade", "base"]],
    ids=" ".join,
)
def test_a_command_on_a_database_that_does_not_answer_says_where_and_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]
):
    monkeypatch.setenv("KOSCI_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("SECRET_KEY", "x")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'nie ma' / 'db.sqlite3'}")
    monkeypatch.setenv("FLASK_RUN_FROM_CLI", "")

    result = CliRunner().invoke(flask_cli, ["--app", "tracker", *args])

    assert result.exit_code == 1, result.output
    assert "Nie można połączyć się z bazą danych" in result.output
    assert "Traceback" not in result.output


def test_account_commands_work_on_a_database_made_by_serve(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    assert _flask(monkeypatch, tmp_path, "db", "upgrade").exit_code == 0

    for args in ACCOUNT_COMMANDS:
        result = _flask(monkeypatch, tmp_path, *args)
        assert result.exit_code == 0, (args, result.output)
    assert _revision(tmp_path) == _head()


def _head() -> str:
    return ScriptDirectory.from_config(_alembic_config()).get_current_head()


def _first_revision() -> str:
    script = ScriptDirectory.from_config(_alembic_config())
    return next(r.revision for r in script.walk_revisions() if r.down_revision is None)


def _alembic_config() -> AlembicConfig:
    config = AlembicConfig()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return config


class FakeGranian:
    """Stands in for `granian.server.Server`: records what `serve` asks of it."""

    made: ClassVar[list[FakeGranian]] = []

    def __init__(self, target: str, **settings: Any) -> None:
        self.target = target
        self.settings = settings
        self.startup: list[Any] = []
        self.served_app: Any = None
        FakeGranian.made.append(self)

    def on_startup(self, hook: Any) -> Any:
        self.startup.append(hook)
        return hook

    def serve(self, target_loader: Any = None, wrap_loader: bool = True) -> None:
        self.served_app = target_loader()
        self.served_in_app_context = has_app_context()


def granian_server(app: Flask, monkeypatch: pytest.MonkeyPatch, **kwargs: Any) -> FakeGranian:
    """What `serve` gives granian, without starting it."""
    FakeGranian.made.clear()
    monkeypatch.setattr("granian.server.Server", FakeGranian)
    monkeypatch.setattr(cli.sys, "platform", "linux")
    cli.run_server(app, "127.0.0.1", 8000, 3, cli.DEFAULT_THREADS, **kwargs)
    # Loading the app as a worker does started the reviewer of missing reviews: let it end.
    assert reviewer.wait(app, 30)
    [server] = FakeGranian.made
    return server


def test_the_server_runs_outside_the_cli_app_context(app: Flask, monkeypatch: pytest.MonkeyPatch):
    """The CLI pushes an app context for every command; the workers are forked from the thread
    that runs the server, so a server started inside that context would share one `g` (the
    signed-in account, the CSRF token) between all requests of a worker."""
    with app.app_context():
        server = granian_server(app, monkeypatch)

    assert server.served_in_app_context is False
    assert server.served_app is app


def test_serve_runs_granian_with_threads_and_kept_alive_connections(
    app: Flask, monkeypatch: pytest.MonkeyPatch
):
    from granian.constants import HTTPModes, Interfaces

    settings = granian_server(app, monkeypatch).settings

    assert settings["interface"] == Interfaces.WSGI
    assert settings["workers"] == 3
    assert settings["blocking_threads"] == cli.DEFAULT_THREADS > 1
    assert settings["http"] == HTTPModes.http1
    assert (settings["address"], settings["port"]) == ("127.0.0.1", 8000)
    assert settings["respawn_failed_workers"] is True


def test_serve_logs_each_request_unless_told_not_to(app: Flask, monkeypatch: pytest.MonkeyPatch):
    served = []
    monkeypatch.setattr(cli, "run_server", lambda *args, **kwargs: served.append(kwargs))
    monkeypatch.setattr(cli, "upgrade", lambda: None)
    monkeypatch.setattr(cli, "check_port_free", lambda *_: None)  # 8000 may be taken here

    assert "--no-access-log" in app.test_cli_runner().invoke(args=["serve", "--help"]).output
    app.test_cli_runner().invoke(args=["serve"])
    app.test_cli_runner().invoke(args=["serve", "--no-access-log"])

    assert served == [{"access_log": True}, {"access_log": False}]


def test_the_access_log_goes_to_the_console_without_secrets(
    app: Flask, monkeypatch: pytest.MonkeyPatch
):
    logged = granian_server(app, monkeypatch, access_log=True).settings
    quiet = granian_server(app, monkeypatch, access_log=False).settings

    assert logged["log_access"] is True
    assert quiet["log_access"] is False
    log_format = logged["log_access_format"]
    assert "%(path)s" in log_format  # the path...
    assert "query_string" not in log_format  # ...but no query string
    headers = re.findall(r"%\(header\{([^}]+)\}\)s", log_format)
    assert headers == ["user-agent"]  # no header that could carry a secret


def test_the_migrations_leave_the_apps_log_lines_alone(tmp_path: Path):
    """`serve` runs the migrations in its own process before it serves: alembic's logging
    setup must not take over the app's log lines (one copy each, in alembic's truncated
    format „WARNI [tracker] …”, or two when the app had logged before)."""
    script = (
        "from flask_migrate import upgrade\n"
        "from tracker import create_app\n"
        "app = create_app()\n"
        "with app.app_context():\n"
        "    upgrade()\n"
        "    app.logger.warning('po migracjach')\n"
    )
    env = {**os.environ, "KOSCI_INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "x"}
    env.pop("DATABASE_URL", None)
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )

    lines = [line for line in done.stderr.splitlines() if "po migracjach" in line]
    assert len(lines) == 1, done.stderr
    assert "WARNING" in lines[0], lines  # Flask's own line, not alembic's „WARNI [tracker]”
    assert "Running upgrade" in done.stderr  # alembic still says what it does
