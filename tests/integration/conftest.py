"""Integration fixtures: `app` (a fresh app on its own SQLite file, schema from the models,
TESTING and CSRF on, cheap password hashes), `client`, `runner`, `app_config`; and empty
per-process caches for every test, as a fresh worker would have.

A module or test marked `migrations` gets its `app` schema from Alembic's migrations instead;
one marked `shared_app` shares one app with the rest of its module (for tests that write nothing).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from tracker.services import accounts
from tracker.store import cache

from .apps import dispose_engines, make_app


@pytest.fixture(autouse=True)
def _fresh_process_caches() -> Iterator[None]:
    accounts.clear_caches()
    cache.clear()
    yield
    accounts.clear_caches()
    cache.clear()


@pytest.fixture
def app_config() -> dict[str, Any]:
    """Extra config for `app`. Override it per test or module, e.g. to turn CSRF off:
    `@pytest.mark.parametrize("app_config", [{"WTF_CSRF_ENABLED": False}])`."""
    return {}


@pytest.fixture
def app(request: pytest.FixtureRequest, app_config: dict[str, Any]) -> Iterator[Flask]:
    """A fresh app on a fresh SQLite file in `tmp_path`, TESTING and CSRF on; the schema by
    the migrations when the test is marked `migrations`, else from the models. A test marked
    `shared_app` (and with no `app_config` of its own) gets its module's one app instead."""
    if request.node.get_closest_marker("shared_app") is not None and not app_config:
        yield request.getfixturevalue("module_app")
        return
    migrate = request.node.get_closest_marker("migrations") is not None
    app = make_app(request.getfixturevalue("tmp_path"), migrate=migrate, TESTING=True, **app_config)
    yield app
    dispose_engines(app)


@pytest.fixture(scope="module")
def module_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    """One app for a module whose tests only read (pages and endpoints that write nothing):
    building an app costs ~50 ms, mostly werkzeug compiling its URL rules."""
    app = make_app(tmp_path_factory.mktemp("module_app"), TESTING=True)
    yield app
    dispose_engines(app)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()
