"""Integration tests: each starts with empty per-process caches, as a fresh worker would."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tracker.services import accounts, games


@pytest.fixture(autouse=True)
def _fresh_process_caches() -> Iterator[None]:
    accounts.clear_caches()
    games.clear_caches()
    yield
    accounts.clear_caches()
    games.clear_caches()
