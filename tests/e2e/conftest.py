"""The end-to-end tests (real simultaneous requests, some with phones) run against the real
`flask --app tracker serve`: their fixtures, shared with tests/browser, live in tests/live.py.
With `KOSCI_TEST_POSTGRES_URL` set they run twice, `[sqlite]` and `[postgresql]`: the second
time against a `serve` whose `DATABASE_URL` is a fresh database on that server."""

import postgres
import pytest
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
    backends = postgres.databases()
    if "live_backend" in metafunc.fixturenames and len(backends) > 1:
        metafunc.parametrize("live_backend", backends, indirect=True, scope="session")
