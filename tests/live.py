"""Fixtures for the layers that run against the real server, tests/browser and tests/e2e (their
conftests import them): `live_server`, the real `flask --app tracker serve` (granian, several
worker processes, a fresh instance folder) that `base_url` points at, one for the whole session
and shared by both layers; the Chromium to launch, a phone profile, and `screenshot`."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import postgres
import pytest
from flask import Flask
from playwright.sync_api import BrowserType, Page, Playwright
from postgres import POSTGRESQL, SQLITE
from sqlalchemy import select

from tracker import create_app
from tracker.extensions import db
from tracker.models import Account, name_key

TESTS_DIR = Path(__file__).resolve().parent
SCREENSHOTS_DIR = TESTS_DIR.parent / "test-results" / "screenshots"

# A system Chromium on a machine without internet needs these to stay quiet and offline.
SYSTEM_CHROMIUM_ARGS = [
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

# The narrowest phone the app must serve; the rest of the profile is a Pixel 7.
PHONE_VIEWPORT = {"width": 360, "height": 740}
# The CSRF token every page carries for its forms and scripts (templates/base.html).
CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]+)"')


@dataclass(frozen=True)
class LiveServer:
    """`flask --app tracker serve` running for real (granian, `SERVE_WORKERS` worker processes,
    a fresh instance folder, the environment a user's shell would give it).

    `url` for browsers and HTTP clients; `app` (built on the same instance folder and SQLite
    file) to set up data with `with live_server.app.app_context(): ...`; `flask(...)` to run
    another `flask --app tracker` command against the same installation; `log_path` holds the
    server's stdout and stderr."""

    url: str
    app: Flask
    instance_path: Path
    log_path: Path
    env: dict[str, str]

    def flask(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        """`flask --app tracker ARGS` with the server's environment; fails the test if it fails."""
        result = subprocess.run(
            [str(FLASK), "--app", "tracker", *args],
            cwd=REPO_ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        if result.returncode != 0:
            pytest.fail(f"flask {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}")
        return result

    def log_tail(self, lines: int = 60) -> str:
        return log_tail(self.log_path, lines)

    def logged(self, line: str) -> int:
        """How often the server's log holds `line` so far (an access-log line: a request)."""
        return self.log_path.read_text("utf-8").count(line)

    def account_id(self, name: str) -> int:
        """The id of the account called `name` in the server's database."""
        with self.app.app_context():
            found = db.session.scalar(select(Account.id).where(Account.name_key == name_key(name)))
        assert found is not None, f"no account {name!r}"
        return found


REPO_ROOT = TESTS_DIR.parent
FLASK = Path(sys.executable).parent / "flask"
SERVE_WORKERS = 3
SERVE_START_TIMEOUT = 30.0
# The variables a developer's shell may carry that would point `serve` elsewhere than the
# fresh instance folder, or put it behind a proxy that is not there (Flask's own are dropped too).
SERVE_ENV_DROPPED = ("DATABASE_URL", "SECRET_KEY", "KOSCI_PROXY_HOPS", "KOSCI_HTTPS")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def log_tail(path: Path, lines: int = 60) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return "(no log)"
    return "\n".join(text.splitlines()[-lines:])


def serve_environment(instance_path: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in SERVE_ENV_DROPPED and not key.startswith("FLASK_")
    }
    env["KOSCI_INSTANCE_PATH"] = str(instance_path)
    # Every browser of the session signs up from 127.0.0.1: lift the per-address hourly limit
    # of sign-ups (tests/integration/test_signup.py checks the limit itself).
    env["KOSCI_SIGNUP_PER_HOUR"] = "10000"
    return env


def wait_for_health(url: str, process: subprocess.Popen[bytes], log_path: Path) -> None:
    deadline = time.monotonic() + SERVE_START_TIMEOUT
    last_error = "no answer yet"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(
                f"flask serve exited with {process.returncode} before answering /healthz:\n"
                + log_tail(log_path)
            )
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2) as answer:
                if answer.status == 200:
                    return
                last_error = f"status {answer.status}"
        except OSError as exc:  # refused while the server binds, or an HTTP error
            last_error = str(exc)
        time.sleep(0.1)
    pytest.fail(
        f"flask serve did not answer /healthz within {SERVE_START_TIMEOUT:.0f} s ({last_error}):\n"
        + log_tail(log_path)
    )


def stop_process_group(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the server's process group (granian's main process and its workers), then SIGKILL
    if it has not stopped after a few seconds."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=8)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)  # stray workers, if the arbiter died first
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)


class _SharedServer:
    """The one server of the session. Both layers' conftests register `live_server`, so pytest
    sees two session fixtures: the first to start it starts the server, the last to finish
    stops it. On PostgreSQL (`backend`; tests/e2e only, when `KOSCI_TEST_POSTGRES_URL` is set)
    the server's `DATABASE_URL` is a fresh database on that server, dropped at the end."""

    def __init__(self, backend: str = SQLITE) -> None:
        self.backend = backend
        self.server: LiveServer | None = None
        self.process: subprocess.Popen[bytes] | None = None
        self.database: str | None = None
        self.users = 0

    def acquire(self, tmp_path_factory: pytest.TempPathFactory) -> LiveServer:
        if self.server is None:
            env = None
            if self.backend == POSTGRESQL:
                self.database = postgres.fresh_database()
                env = {"DATABASE_URL": postgres.url_for(database=self.database)}
            directory = tmp_path_factory.mktemp(f"serve-{self.backend}")
            self.server, self.process = start_server(directory, env=env)
        self.users += 1
        return self.server

    def release(self) -> None:
        self.users -= 1
        if self.users > 0:
            return
        server, process = self.server, self.process
        self.server = self.process = None
        if process is not None:
            stop_process_group(process)
        if server is not None:
            dispose_engines(server.app)
        if self.database is not None:
            postgres.drop_database(self.database)
            self.database = None


_shared = _SharedServer()
_servers = {SQLITE: _shared, POSTGRESQL: _SharedServer(POSTGRESQL)}


def start_server(
    directory: Path, *, env: dict[str, str] | None = None, workers: int = SERVE_WORKERS
) -> tuple[LiveServer, subprocess.Popen[bytes]]:
    """`flask --app tracker serve` in its own process group on a free port, with a fresh
    instance folder in `directory`, answering /healthz; `env` adds to its environment (e.g.
    `KOSCI_PROXY_HOPS`)."""
    instance_path = directory / "instance"
    log_path = directory / "serve.log"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**serve_environment(instance_path), **(env or {})}
    command = [
        str(FLASK),
        "--app",
        "tracker",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        str(workers),
    ]
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command,
            cwd=REPO_ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        wait_for_health(url, process, log_path)
        # The same installation seen from this process: the same database, the same key.
        database_url = env.get("DATABASE_URL") or f"sqlite:///{instance_path / 'kosci.sqlite3'}"
        app = create_app({"SQLALCHEMY_DATABASE_URI": database_url}, instance_path=instance_path)
    except BaseException:
        stop_process_group(process)
        raise
    return LiveServer(url, app, instance_path, log_path, env), process


def dispose_engines(app: Flask) -> None:
    """Close the pooled SQLite connections, so none is left for the garbage collector."""
    with app.app_context():
        for engine in db.engines.values():
            engine.dispose()


@pytest.fixture(scope="session")
def live_backend(request: pytest.FixtureRequest) -> str:
    """The database `live_server` runs on: `sqlite`; tests/e2e/conftest.py parametrizes it with
    `postgresql` too when `KOSCI_TEST_POSTGRES_URL` is set."""
    return str(getattr(request, "param", SQLITE))


@pytest.fixture(scope="session")
def live_server(
    tmp_path_factory: pytest.TempPathFactory, live_backend: str
) -> Iterator[LiveServer]:
    """The real `flask --app tracker serve` as a subprocess in its own process group, on a free
    port, with a fresh instance folder; one for the whole session (one per database). Like
    production: CSRF on, several worker processes, errors logged to its log file."""
    shared = _servers[live_backend]
    server = shared.acquire(tmp_path_factory)
    try:
        yield server
    finally:
        shared.release()


@pytest.fixture(scope="session")
def base_url(live_server: LiveServer) -> str:
    """Relative URLs in `page.goto("/")` go to `flask serve`."""
    return live_server.url


@pytest.fixture(scope="session")
def browser_type_launch_args(
    browser_type_launch_args: dict[str, Any], browser_type: BrowserType
) -> dict[str, Any]:
    """Playwright's own Chromium when installed, else the system's: `$CHROMIUM_PATH`, then
    Debian's `chromium-headless-shell`, then `chromium` on PATH (`playwright install` cannot
    download browsers everywhere). The headless shell is what Playwright itself runs headless
    tests in (the same Blink, without the desktop browser around it): on a slow 2-core machine
    the browser tests took 40 % less CPU in it than in the full `chromium`."""
    if browser_type.name != "chromium" or Path(browser_type.executable_path).exists():
        return browser_type_launch_args
    system_chromium = (
        os.environ.get("CHROMIUM_PATH")
        or shutil.which("chromium-headless-shell")
        or shutil.which("chromium")
    )
    if not system_chromium:
        return browser_type_launch_args  # Playwright's error then says how to install one
    return {
        **browser_type_launch_args,
        "executable_path": system_chromium,
        "args": [*browser_type_launch_args.get("args", []), *SYSTEM_CHROMIUM_ARGS],
    }


@pytest.fixture(scope="session")
def browser_context_args(
    browser_context_args: dict[str, Any], playwright: Playwright
) -> dict[str, Any]:
    """A Pixel 7 (touch, mobile user agent, pixel ratio) narrowed to 360 px, in Polish."""
    phone = dict(playwright.devices["Pixel 7"])
    phone.pop("default_browser_type", None)
    return {
        **browser_context_args,
        **phone,
        "viewport": PHONE_VIEWPORT,
        "screen": PHONE_VIEWPORT,
        "locale": "pl-PL",
    }


@pytest.fixture
def screenshot() -> Callable[[Page, str], Path]:
    """`screenshot(page, "home")` saves the whole page as test-results/screenshots/home.png."""

    def take(page: Page, name: str) -> Path:
        path = SCREENSHOTS_DIR / f"{name}.png"
        page.screenshot(path=path, full_page=True)
        return path

    return take


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    """A failed test that used `flask serve` reports the tail of the server's log."""
    report = yield
    callspec = getattr(item, "callspec", None)
    server = _servers[callspec.params.get("live_backend", SQLITE) if callspec else SQLITE].server
    if report.failed and server and "live_server" in getattr(item, "fixturenames", ()):
        report.sections.append(("flask serve log (last lines)", server.log_tail()))
    return report
