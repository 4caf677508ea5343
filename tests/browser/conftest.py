"""The browser tests (pytest-playwright on a phone profile) run against the real
`flask --app tracker serve`: the fixtures are shared with tests/e2e and live in tests/live.py."""

from live import (  # noqa: F401  (fixtures and a hook, registered by being here)
    base_url,
    browser_context_args,
    browser_type_launch_args,
    live_backend,
    live_server,
    pytest_runtest_makereport,
    screenshot,
)
