"""The background reviewer: seat reviews (`skill.review_games`) stored by a daemon thread of this
process after the request that brought the games has answered.

Judging a game costs 10–70 ms of CPU, so the 4,000 finished games of a large import take a
minute and more: an import judges what it can in a couple of seconds, answers, and leaves the
rest here (`review_later`). And when `serve` starts, each worker process asks for the finished
table games of every account that have no reviews (`review_missing`): those of an import whose
server stopped before its reviewer was done, or that the advisor could not judge. One worker
at a time looks (a lock file in the instance folder), and when nothing is missing that is one
query.

One thread per app (per process in production) works through the game ids in the order they
came, later imports adding theirs to the queue; each game is judged outside any transaction and
stored in one of its own (`skill.review_games`), so the table's turns wait for a store of a
millisecond or two at most. A game that has reviews meanwhile (another worker's reviewer, a
second import) is skipped. Nothing is raised out of the thread: a failure is logged, the game
stays without reviews, and after a few failures in a row (the database is gone) the rest is
dropped too; `flask --app tracker advisor recompute`, or the next start of `serve`, completes
them.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Iterable, Iterator

from flask import Flask

from ..extensions import db
from ..store import skill as store
from . import skill

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: one process (waitress), no one to share with
    fcntl = None  # type: ignore[assignment]

logger = logging.getLogger(__name__)

# Failures in a row after which the reviewer gives up and drops what is left: a game the
# advisor chokes on is skipped, a database that fails every store is not tried 4,000 times.
FAILURES_IN_A_ROW = 3
# In the instance folder: held by the worker process that looks for games without reviews.
LOCK_FILE = "reviews.lock"
# What completes the reviews the reviewer leaves undone.
_COMPLETED_BY = "(`flask --app tracker advisor recompute` or the next `serve` reviews them)"

_EXTENSION = "kosci_reviewer"
_made = threading.Lock()  # one reviewer per app, however many threads ask at once


def review_later(app: Flask, game_ids: Iterable[int]) -> None:
    """Queue these games for the background reviewer of `app` (started if it is idle)."""
    _reviewer(app).add(game_ids)


def review_missing(app: Flask) -> None:
    """Have the background reviewer of `app` look for every finished table game without
    reviews and review them: called as a worker process of `serve` starts. Never blocks."""
    _reviewer(app).add((), look_for_missing=True)


def pending(app: Flask) -> set[int]:
    """The game ids queued and not yet taken up by the reviewer of `app`."""
    return _reviewer(app).pending()


def wait(app: Flask, timeout: float) -> bool:
    """Wait until the reviewer of `app` has nothing left (its thread ended) or `timeout`
    seconds have passed; whether it is done. For tests and benchmarks."""
    return _reviewer(app).wait(timeout)


def _reviewer(app: Flask) -> _Reviewer:
    with _made:
        found = app.extensions.get(_EXTENSION)
        if not isinstance(found, _Reviewer):
            found = app.extensions[_EXTENSION] = _Reviewer(app)
        return found


class _Reviewer:
    """The queue of one app and the thread that works through it (none while it is empty)."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self._lock = threading.Lock()
        self._queued: dict[int, None] = {}  # game ids in the order they came (an ordered set)
        self._look_for_missing = False
        self._thread: threading.Thread | None = None
        self._failures = 0  # in a row; touched by the thread only

    def add(self, game_ids: Iterable[int], *, look_for_missing: bool = False) -> None:
        with self._lock:
            for game_id in game_ids:
                self._queued.setdefault(game_id, None)
            self._look_for_missing = self._look_for_missing or look_for_missing
            if self._thread is None and self._has_work():
                self._thread = threading.Thread(target=self._run, name="kosci-reviews", daemon=True)
                self._thread.start()

    def pending(self) -> set[int]:
        with self._lock:
            return set(self._queued)

    def wait(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                thread = self._thread
            if thread is None:
                return True
            thread.join(max(0.0, deadline - time.monotonic()))
            if thread.is_alive():
                return False

    def _has_work(self) -> bool:
        return bool(self._queued) or self._look_for_missing

    def _run(self) -> None:
        """The thread: work until the queue is empty, in an app context of its own (popping
        it removes the thread's session: Flask-SQLAlchemy's teardown); the thread ends only
        with nothing left, so work added while it winds down is not stranded."""
        self._failures = 0
        while True:
            try:
                with self.app.app_context():
                    self._work()
            except Exception:  # logged, never raised: the server goes on serving
                logger.exception(
                    "Background reviews stopped by an error; %s games left without reviews %s.",
                    self._drop_all(),
                    _COMPLETED_BY,
                )
            with self._lock:
                if not self._has_work():
                    self._thread = None
                    return

    def _work(self) -> None:
        while True:
            with self._lock:
                look, self._look_for_missing = self._look_for_missing, False
                game_id = None
                if not look:
                    if not self._queued:
                        return
                    game_id = next(iter(self._queued))
                    del self._queued[game_id]
            if game_id is None:
                self._review_missing()
            elif not self._review(game_id):
                return

    def _review_missing(self) -> None:
        with _one_worker_at_a_time(self.app.instance_path) as ours:
            if not ours:  # another worker process of this server is at it
                return
            game_ids = store.unreviewed_game_ids()
            db.session.rollback()  # end the read
            if not game_ids:
                return
            logger.info("Reviewing %s finished games left without reviews.", len(game_ids))
            for done, game_id in enumerate(game_ids, 1):
                with self._lock:
                    self._queued.pop(game_id, None)
                if not self._review(game_id, left=len(game_ids) - done):
                    return
            logger.info("Reviewed the finished games left without reviews.")

    def _review(self, game_id: int, *, left: int = 0) -> bool:
        """Review one game (skipped when it has reviews); False when the reviewer gave up
        (`left`: the games after this one that are not in the queue, dropped with it)."""
        try:
            skill.review_games([game_id], only_missing=True)
        except Exception:
            with contextlib.suppress(Exception):
                db.session.rollback()
            logger.exception("Background review of game %s failed.", game_id)
            self._failures += 1
            if self._failures >= FAILURES_IN_A_ROW:
                logger.error(
                    "Background reviews stopped after %s failures in a row; %s games left "
                    "without reviews %s.",
                    self._failures,
                    left + self._drop_all(),
                    _COMPLETED_BY,
                )
                return False
            return True
        self._failures = 0
        return True

    def _drop_all(self) -> int:
        """Drop everything queued: how many games. They stay without reviews until
        `advisor recompute` or the next start of `serve`."""
        with self._lock:
            dropped = len(self._queued)
            self._queued.clear()
            self._look_for_missing = False
        return dropped


@contextlib.contextmanager
def _one_worker_at_a_time(directory: str) -> Iterator[bool]:
    """Whether this process got the reviews lock of the server (held until the block ends);
    False at once when another worker process holds it."""
    if fcntl is None:  # pragma: no cover - Windows
        yield True
        return
    os.makedirs(directory, exist_ok=True)
    fd = os.open(os.path.join(directory, LOCK_FILE), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            ours = True
        except BlockingIOError:
            ours = False
        yield ours
    finally:
        os.close(fd)  # lets the lock go
