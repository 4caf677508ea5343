"""The end-to-end tests (real simultaneous requests, some with phones) run against the real
`flask --app tracker serve`: their fixtures, shared with tests/browser, live in tests/live.py.
With `KOSCI_TEST_POSTGRES_URL` set those without a browser run twice, `[sqlite]` and
`[postgresql]`: the second time against a `serve` whose `DATABASE_URL` is a fresh database on
that server."""

import postgres
import pytest
from conftest import BROWSER_FIXTURES
from live import (  # noqa: F401  (fixtures and a hook, registered by being here)
    base_url,
    browser_context_args,
    browser_type_launch_args,
    live_backend,
    live_server,
    pytest_runtest_makereport,
    screenshot,
)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """On both databases: every test of the server that asks for `live_backend` (through
    `live_server`) and drives no browser. A test with phones runs on SQLite only: what it does
    to the database, the browserless tests beside it do on both, and a browser on a slow CI
    machine costs it twice the time."""
    backends = postgres.databases()
    if metafunc.definition.get_closest_marker("one_backend") is not None:
        return  # its subject is not the database (it says why)
    with_phones = BROWSER_FIXTURES & set(metafunc.fixturenames)
    if "live_backend" in metafunc.fixturenames and len(backends) > 1 and not with_phones:
        metafunc.parametrize("live_backend", backends, indirect=True, scope="session")
