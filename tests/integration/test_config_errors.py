"""A wrong setting stops `flask --app tracker serve` with one sentence in Polish and status 1,
never a Python traceback: a malformed KOSCI_* variable, a database URL that cannot work, a
database that cannot be reached."""

from __future__ import annotations

import socket
from pathlib import Path

import click.testing
import pytest
from click.testing import CliRunner
from flask.cli import cli as flask_cli

from tracker import cli, create_app
from tracker.settings import ConfigError

SETTINGS = (
    "DATABASE_URL",
    "KOSCI_HTTPS",
    "KOSCI_PROXY_HOPS",
    "KOSCI_SIGNUP",
    "KOSCI_SIGNUP_PER_HOUR",
    "KOSCI_SQLITE_SYNCHRONOUS",
    "KOSCI_TIMEZONE",
    "KOSCI_DB_POOL_SIZE",
    "KOSCI_BACKUP_DIR",
    "KOSCI_BACKUP_KEEP",
)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _serve(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, **env: str
) -> tuple[click.testing.Result, list[object]]:
    """`flask --app tracker serve` as the admin types it, with `env` set; the server itself is
    never started (what would have been is returned)."""
    for name in SETTINGS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("KOSCI_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("SECRET_KEY", "x")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'db.sqlite3'}")
    monkeypatch.setenv("FLASK_RUN_FROM_CLI", "")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    served: list[object] = []
    monkeypatch.setattr(cli, "run_server", lambda *args, **kwargs: served.append(args))
    result = CliRunner().invoke(
        flask_cli, ["--app", "tracker", "serve", "--host", "127.0.0.1", "--port", str(_free_port())]
    )
    return result, served


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({"KOSCI_HTTPS": "maybe"}, "KOSCI_HTTPS ma wartość 'maybe'"),
        ({"KOSCI_HTTPS": "2"}, "KOSCI_HTTPS ma wartość '2'"),
        ({"KOSCI_PROXY_HOPS": "dwa"}, "KOSCI_PROXY_HOPS ma wartość 'dwa'"),
        ({"KOSCI_PROXY_HOPS": "-1"}, "KOSCI_PROXY_HOPS ma wartość '-1'"),
        ({"KOSCI_SIGNUP": "zamknięte"}, "KOSCI_SIGNUP ma wartość 'zamknięte'"),
        ({"KOSCI_SIGNUP_PER_HOUR": "0"}, "KOSCI_SIGNUP_PER_HOUR ma wartość '0'"),
        ({"KOSCI_SQLITE_SYNCHRONOUS": "off"}, "KOSCI_SQLITE_SYNCHRONOUS ma wartość 'OFF'"),
        ({"KOSCI_TIMEZONE": "Mars/Olympus"}, "KOSCI_TIMEZONE ma wartość 'Mars/Olympus'"),
        ({"KOSCI_DB_POOL_SIZE": "dużo"}, "KOSCI_DB_POOL_SIZE ma wartość 'dużo'"),
        (
            {
                "DATABASE_URL": "postgresql+psycopg://kosci:tajne@127.0.0.1:1/kosci",
                "KOSCI_DB_POOL_SIZE": "0",
            },
            "KOSCI_DB_POOL_SIZE ma wartość '0'",
        ),
        ({"DATABASE_URL": "kosci:tajne@localhost/kosci"}, "DATABASE_URL nie jest adresem bazy"),
        ({"DATABASE_URL": "nosuchdb://kosci:tajne@localhost/kosci"}, "DATABASE_URL: nieznana"),
        (
            {"DATABASE_URL": "postgresql+nosuchdriver://kosci:tajne@localhost/kosci"},
            "DATABASE_URL: nieznana",
        ),
        (
            {"DATABASE_URL": "sqlite:////nie/ma/takiego/folderu/kosci.sqlite3"},
            "Nie można połączyć się z bazą danych",
        ),
        (
            {"DATABASE_URL": "postgresql+psycopg://kosci:tajne@127.0.0.1:1/kosci"},
            "Nie można połączyć się z bazą danych postgresql+psycopg://kosci:***@127.0.0.1:1/kosci",
        ),
    ],
    ids=lambda v: " ".join(f"{k}={x}" for k, x in v.items()) if isinstance(v, dict) else "",
)
def test_a_wrong_setting_stops_serve_with_one_polish_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, env: dict[str, str], said: str
):
    result, served = _serve(monkeypatch, tmp_path, **env)

    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), result.exception
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith("Error: ")
    assert said in lines[0]
    assert "tajne" not in result.output  # a password in the URL is never repeated
    assert served == []


def test_every_value_that_turns_https_on_or_off_is_named_in_its_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    result, _ = _serve(monkeypatch, tmp_path, KOSCI_HTTPS="maybe")

    for value in ("1", "true", "yes", "on", "0", "false", "no", "off"):
        assert value in result.output


def test_a_wrong_setting_outside_the_command_line_is_a_config_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """A WSGI server that imports `create_app` gets the same sentence, as an exception."""
    monkeypatch.setenv("KOSCI_PROXY_HOPS", "dwa")

    with pytest.raises(ConfigError, match="KOSCI_PROXY_HOPS ma wartość 'dwa'"):
        create_app({"SECRET_KEY": "x"}, instance_path=tmp_path)


def test_good_settings_still_serve(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    result, served = _serve(monkeypatch, tmp_path, KOSCI_HTTPS="on", KOSCI_TIMEZONE="Europe/London")

    assert result.exit_code == 0, result.output
    assert len(served) == 1


def test_an_empty_secret_key_file_is_one_sentence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    (tmp_path / "secret_key").write_text("")

    result, served = _serve(monkeypatch, tmp_path, SECRET_KEY="")

    assert result.exit_code == 1, result.output
    assert result.output.startswith("Error: Plik ")
    assert "jest pusty" in result.output
    assert served == []


def test_a_secret_key_file_the_server_may_not_read_is_one_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """README's systemd unit runs `serve` as the user `kosci`; the commands before it, run as
    root, made `instance/` and its `secret_key` root's (0700, 0600). The start says which
    folder to hand over, not a PermissionError's traceback."""
    (tmp_path / "secret_key").write_text("a" * 64)
    read_text = Path.read_text

    def refused(self: Path, *args: object, **kwargs: object) -> str:
        if self.name == "secret_key":
            raise PermissionError(13, "Permission denied", str(self))
        return read_text(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "read_text", refused)
    monkeypatch.setenv("USER", "kosci")

    result, served = _serve(monkeypatch, tmp_path, SECRET_KEY="")

    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith("Error: Serwer (użytkownik kosci) nie może odczytać")
    assert str(tmp_path / "secret_key") in lines[0]
    assert f"chown -R kosci: {tmp_path}" in lines[0]
    assert served == []
