"""`flask --app tracker serve`, without starting a real server."""

from __future__ import annotations

import ipaddress
from pathlib import Path

import pytest
from flask.testing import FlaskCliRunner
from sqlalchemy import inspect

from tracker import cli, create_app
from tracker.extensions import db


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
    monkeypatch.setattr(cli, "run_server", lambda *args: served.append(args))
    monkeypatch.setattr(cli, "lan_address", lambda: "192.168.1.23")

    result = app.test_cli_runner().invoke(args=["serve", "--port", "8765", "--workers", "3"])

    assert result.exit_code == 0, result.output
    assert "http://localhost:8765" in result.output
    assert "http://192.168.1.23:8765" in result.output
    assert served == [(app, "0.0.0.0", 8765, 3)]
    with app.app_context():
        assert "alembic_version" in inspect(db.engine).get_table_names()
        db.engine.dispose()


def test_serve_on_localhost_says_phones_cannot_connect():
    message = cli.startup_message("127.0.0.1", 8000)

    assert "http://localhost:8000" in message
    assert "--host 0.0.0.0" in message


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
