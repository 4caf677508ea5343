"""One import at a time on this server, across its worker processes."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from ...i18n import N_, gettext
from ..errors import Throttled

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

# Seconds an import refused as busy is asked to wait (Retry-After): most imports are over by
# then. The largest allowed file holds the lock for about 12 s on a 2-core machine (10 s
# checking and writing, then at most 2 s of seat reviews); the reviews it leaves to the
# background run after the lock is let go (docs/benchmarks.md, "Import").
RETRY_AFTER = 5
BUSY = N_(
    "Na tym serwerze trwa już inny import. Poczekaj, aż się skończy, i spróbuj jeszcze raz "
    "(zwykle to kilka sekund)."
)  # translated where it is raised
_LOCAL_IMPORT = threading.Lock()  # where processes cannot lock a file (Windows: waitress threads)


@contextmanager
def one_import_at_a_time(lock_dir: str | os.PathLike[str]) -> Iterator[None]:
    """Run one import at a time on this server, across its worker processes; Throttled (429)
    at once when another is running. Two imports would otherwise keep two workers busy: on
    the default two, no phone's turn would be served until one ended."""
    if fcntl is None:  # pragma: no cover - Windows
        if not _LOCAL_IMPORT.acquire(blocking=False):
            raise Throttled(gettext(BUSY), retry_after=RETRY_AFTER)
        try:
            yield
        finally:
            _LOCAL_IMPORT.release()
        return
    os.makedirs(lock_dir, exist_ok=True)
    fd = os.open(os.path.join(lock_dir, "import.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            raise Throttled(gettext(BUSY), retry_after=RETRY_AFTER) from exc
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
