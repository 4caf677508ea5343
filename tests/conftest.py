"""What every layer needs, and nothing that imports Flask or Playwright (the rules' unit tests
run without either): hypothesis profiles, and the `browser` / `e2e` marks by folder.

The layers' own fixtures live beside them: tests/integration/conftest.py (the app on its own
SQLite file), tests/browser and tests/e2e (the real server and Playwright, from tests/live.py).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import postgres
import pytest
from hypothesis import settings

# The suite starts many Python processes: two workers, each `flask serve` with its worker
# processes, `flask` commands. Each would compile every module it imports (Flask, SQLAlchemy,
# the app: ~1.3 s of CPU a process) where byte-code is never cached: the README installs with
# `pip --no-compile` (faster), and some machines set PYTHONDONTWRITEBYTECODE (ours here do). The
# first process to import a module caches its byte-code, as Python does by default, for this
# process and every one it starts. (Measured on 2 Dec 2026: 334 s -> 292 s for the suite.)
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

TESTS_DIR = Path(__file__).resolve().parent
BROWSER_TESTS_DIR = TESTS_DIR / "browser"
E2E_TESTS_DIR = TESTS_DIR / "e2e"
# An end-to-end test that asks for one of these drives a browser: it is marked `browser` too.
BROWSER_FIXTURES = frozenset({"page", "context", "browser", "new_context"})

# Hypothesis: "ci" (the default) replays the same examples on every run, so a red CI is never
# luck; "nightly" (`HYPOTHESIS_PROFILE=nightly`) draws new, and ten times more, examples each
# run. A test's own `@settings(max_examples=...)` is scaled by the nightly profile too: see
# `examples` below.
NIGHTLY_FACTOR = 10
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile(
    "nightly",
    derandomize=False,
    deadline=None,
    print_blob=True,
    max_examples=settings.default.max_examples * NIGHTLY_FACTOR,
)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
settings.load_profile(PROFILE)


def examples(count: int) -> int:
    """`max_examples` for a test that sets its own: `count` on CI, ten times more nightly."""
    return count * NIGHTLY_FACTOR if PROFILE == "nightly" else count


def pytest_runtest_setup(item: pytest.Item) -> None:
    """A test marked `slow` (a whole optimal-play table rebuilt, 20–50 s) runs nightly only."""
    if PROFILE != "nightly" and item.get_closest_marker("slow") is not None:
        pytest.skip("a whole optimal-play table rebuilt (20–50 s): nightly (.ci/run --nightly)")


def pytest_report_header() -> list[str]:
    return [f"hypothesis profile: {PROFILE}", postgres.header_line()]


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Drop the PostgreSQL schemas of this run (and of runs killed before they could)."""
    postgres.drop_everything()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if postgres.server_url() is None:
        terminalreporter.write_line(postgres.SKIPPED_LINE, yellow=True)


# With pytest-xdist (`-n 2 --dist loadgroup`, the README's test command) the tests that use the
# real server run in two groups, each in one worker, one test after another as without xdist:
# the browser tests (their `serve` and Chromium) and the end-to-end tests (theirs, on SQLite and
# on PostgreSQL). Each worker starts its own servers; the unit and integration tests fill in.
# (The browser tests split in two groups ran slower: two Chromiums at once on two cores.)
# (Measured on 2 Dec 2026, each a fresh clone's .ci/run: three workers took 694 s against
# 598–609 s for two; each integration module whole in one worker, 693 s: the groups, handed out
# whole, left one worker idle at the end.)
BROWSER_GROUP = pytest.mark.xdist_group("live-browser")
E2E_GROUP = pytest.mark.xdist_group("live-e2e")


def pytest_itemcollected(item: pytest.Item) -> None:
    """Marks by folder, as each test is collected: before any plugin's
    `pytest_collection_modifyitems` (xdist's loadgroup reads the groups there)."""
    if item.path.is_relative_to(BROWSER_TESTS_DIR):
        item.add_marker(pytest.mark.browser)
        item.add_marker(BROWSER_GROUP)
    elif item.path.is_relative_to(E2E_TESTS_DIR):
        item.add_marker(pytest.mark.e2e)
        item.add_marker(E2E_GROUP)
        if BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)  # an end-to-end test with phones
