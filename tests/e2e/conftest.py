"""The end-to-end tests (real simultaneous requests, some with phones) run against the real
`flask --app tracker serve`: their fixtures, shared with tests/browser, live in tests/live.py."""

from live import (  # noqa: F401  (fixtures and a hook, registered by being here)
    base_url,
    browser_context_args,
    browser_type_launch_args,
    live_server,
    pytest_runtest_makereport,
    screenshot,
)
