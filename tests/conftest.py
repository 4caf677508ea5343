"""Fixtures for every layer: `app`, `client`, `runner` (integration), and for the browser tests
a session-wide `live_server` (the app on a real port, CSRF on) that `base_url` points at, a
phone profile, and `screenshot`."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from flask_migrate import upgrade
from playwright.sync_api import BrowserType, Page, Playwright
from werkzeug.serving import make_server

from tracker import create_app
from tracker.extensions import db

TESTS_DIR = Path(__file__).resolve().parent
BROWSER_TESTS_DIR = TESTS_DIR / "browser"
SCREENSHOTS_DIR = TESTS_DIR.parent / "test-results" / "screenshots"

# See /work/shared/TOOLING.md: a system Chromium needs these to stay quiet and offline.
SYSTEM_CHROMIUM_ARGS = [
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

# The narrowest phone the app must serve; the rest of the profile is a Pixel 7.
PHONE_VIEWPORT = {"width": 360, "height": 740}


def make_app(directory: Path, **config: Any) -> Flask:
    """An app with its own instance folder and SQLite file in `directory`, schema migrated."""
    app = create_app(
        {
            "SECRET_KEY": "test secret key",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{directory / 'test.sqlite3'}",
            **config,
        },
        instance_path=directory / "instance",
    )
    with app.app_context():
        upgrade()
    return app


def dispose_engines(app: Flask) -> None:
    """Close the pooled SQLite connections, so none is left for the garbage collector."""
    with app.app_context():
        for engine in db.engines.values():
            engine.dispose()


@pytest.fixture
def app_config() -> dict[str, Any]:
    """Extra config for `app`. Override it per test or module, e.g. to turn CSRF off:
    `@pytest.mark.parametrize("app_config", [{"WTF_CSRF_ENABLED": False}])`."""
    return {}


@pytest.fixture
def app(tmp_path: Path, app_config: dict[str, Any]) -> Iterator[Flask]:
    """A fresh app on a fresh, migrated SQLite file in `tmp_path`, TESTING and CSRF on."""
    app = make_app(tmp_path, TESTING=True, **app_config)
    yield app
    dispose_engines(app)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


@dataclass(frozen=True)
class LiveServer:
    """The app served on a real port: `url` for the browser, `app` to set up data with
    `with live_server.app.app_context(): ...`."""

    url: str
    app: Flask


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    # Like production: CSRF on, errors rendered as pages (they are logged to stderr).
    app = make_app(tmp_path_factory.mktemp("live_server"))
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="live_server", daemon=True)
    thread.start()
    yield LiveServer(url=f"http://127.0.0.1:{server.server_port}", app=app)
    server.shutdown()
    server.server_close()
    thread.join(timeout=10)
    dispose_engines(app)


@pytest.fixture(scope="session")
def base_url(live_server: LiveServer) -> str:
    """Relative URLs in `page.goto("/")` go to the live server."""
    return live_server.url


@pytest.fixture(scope="session")
def browser_type_launch_args(
    browser_type_launch_args: dict[str, Any], browser_type: BrowserType
) -> dict[str, Any]:
    """Playwright's own Chromium when installed, else the system's (`$CHROMIUM_PATH`, then
    `chromium` on PATH): `playwright install` cannot download browsers everywhere."""
    if browser_type.name != "chromium" or Path(browser_type.executable_path).exists():
        return browser_type_launch_args
    system_chromium = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium")
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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.is_relative_to(BROWSER_TESTS_DIR):
            item.add_marker(pytest.mark.browser)
