"""Writers to one SQLite file wait in line, across the server's worker processes and threads.

SQLite lets one transaction write at a time. A second writer that finds the file locked does
not wait for it to be free: its busy handler sleeps 1, 2, 5, 10… ms and tries again, so with a
few phones (or worker threads) writing at once a turn often sleeps several times longer than
the write it waits for. Game writes therefore first queue here: a thread lock inside a process,
then an exclusive `flock` on a file beside the database across processes. Both wake the next
writer the moment the previous one lets go, and the SQLite lock behind them is then free.

The queue only orders the writers that use it; SQLite's own lock still decides, so a writer
that does not queue (a sign-in, an import) is as safe as before. A holder is never stuck for
long: it holds the queue only while its transaction runs, which SQLite's busy timeout bounds.
Where `flock` does not exist (Windows) only the thread lock is taken. PostgreSQL needs none of
this: its row lock already puts the second writer to sleep until the first commits.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: one process (waitress), the thread lock is the queue
    fcntl = None  # type: ignore[assignment]

SUFFIX = "-writers.lock"


class WriterQueue:
    """The queue of one database file."""

    def __init__(self, database: Path) -> None:
        self.path = f"{database}{SUFFIX}"
        self._threads = threading.Lock()
        self._held = threading.local()  # by this thread already (a write inside a write)
        self._fd: int | None = None  # the lock file, opened by the process `_pid`
        self._pid = 0

    @contextmanager
    def turn(self) -> Iterator[None]:
        """Hold the queue: no other writer that queues runs until this block ends. A thread
        that holds it already (a rematch starts its game inside the old game's write) just
        goes on."""
        if getattr(self._held, "yes", False):
            yield
            return
        with self._threads:
            self._held.yes = True
            try:
                yield from self._locked_file()
            finally:
                self._held.yes = False

    def _locked_file(self) -> Iterator[None]:
        if fcntl is None:
            yield
            return
        fd = self._file()
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)

    def _file(self) -> int:
        """The lock file, opened once by each process (under the thread lock). A process
        forked from this one must not use the same open file: a lock taken through it would
        be held by both processes at once. The forked worker therefore opens its own."""
        pid = os.getpid()
        if self._fd is None or self._pid != pid:
            # The parent's descriptor is left alone: closing it here would not let its lock go.
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            self._pid = pid
        return self._fd


_queues: dict[Path, WriterQueue] = {}
_queues_lock = threading.Lock()


def queue_for(database: Path) -> WriterQueue:
    with _queues_lock:
        queue = _queues.get(database)
        if queue is None:
            queue = _queues[database] = WriterQueue(database)
        return queue
