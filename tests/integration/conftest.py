"""Integration fixtures: `app` (a fresh app on its own SQLite file, schema from the models,
TESTING and CSRF on, cheap password hashes), `client`, `runner`, `app_config`; and empty
per-process caches for every test, as a fresh worker would have.

A module or test marked `migrations` gets its `app` schema from Alembic's migrations instead;
one marked `shared_app` shares one app with the rest of its module (for tests that write nothing).

With `KOSCI_TEST_POSTGRES_URL` set, every test that uses an app runs twice, `[sqlite]` and
`[postgresql]` (the `backend` fixture, parametrized per module), the second on a schema of its own
on that server (tests/postgres.py). A test marked `sqlite_only("why")` is skipped on PostgreSQL.
A module marked `one_backend("why")` runs on SQLite only and says why: what it tests does not
depend on the database (a language, a stateless rules endpoint, headers), and the queries it
makes are run on PostgreSQL by the modules that test them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import postgres
import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from postgres import POSTGRESQL, SQLITE

from tracker.services import accounts
from tracker.store import cache

from .apps import make_app, release_app


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """With PostgreSQL configured, each test with an app runs on both back ends; grouped per
    module, so a module's shared app is built once per back end."""
    backends = postgres.databases()
    if metafunc.definition.get_closest_marker("one_backend") is not None:
        return
    if "backend" in metafunc.fixturenames and len(backends) > 1:
        metafunc.parametrize("backend", backends, indirect=True, scope="module")


@pytest.fixture(scope="module")
def backend(request: pytest.FixtureRequest) -> str:
    """`sqlite`, or `postgresql` when the suite runs on PostgreSQL too."""
    return str(getattr(request, "param", SQLITE))


@pytest.fixture(autouse=True)
def _sqlite_only(request: pytest.FixtureRequest) -> None:
    marker = request.node.get_closest_marker("sqlite_only")
    if marker is None or "backend" not in request.fixturenames:
        return
    if request.getfixturevalue("backend") == POSTGRESQL:
        reason = marker.args[0] if marker.args else "about SQLite"
        pytest.skip(f"SQLite only: {reason}")


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
def app(
    request: pytest.FixtureRequest, app_config: dict[str, Any], backend: str
) -> Iterator[Flask]:
    """A fresh app on a fresh SQLite file in `tmp_path` (or a fresh PostgreSQL schema), TESTING
    and CSRF on; the schema by the migrations when the test is marked `migrations`, else from
    the models. A test marked `shared_app` (and with no `app_config` of its own) gets its
    module's one app instead."""
    if request.node.get_closest_marker("shared_app") is not None and not app_config:
        yield request.getfixturevalue("module_app")
        return
    migrate = request.node.get_closest_marker("migrations") is not None
    app = make_app(
        request.getfixturevalue("tmp_path"),
        migrate=migrate,
        backend=backend,
        TESTING=True,
        **app_config,
    )
    yield app
    release_app(app)


@pytest.fixture(scope="module")
def module_app(tmp_path_factory: pytest.TempPathFactory, backend: str) -> Iterator[Flask]:
    """One app for a module whose tests only read (pages and endpoints that write nothing):
    building an app costs ~50 ms, mostly werkzeug compiling its URL rules."""
    app = make_app(tmp_path_factory.mktemp("module_app"), backend=backend, TESTING=True)
    yield app
    release_app(app)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()
