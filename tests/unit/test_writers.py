"""The writers' queue of an SQLite file (`tracker.store.writers`): one writer at a time across
threads and across processes, forked workers included."""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tracker.store.writers import WriterQueue

pytestmark = pytest.mark.skipif(os.name != "posix", reason="flock: POSIX only")


def hold_and_report(queue: WriterQueue, log: Path, name: str, seconds: float) -> None:
    with queue.turn():
        with log.open("a") as out:
            out.write(f"{name} in\n")
        time.sleep(seconds)
        with log.open("a") as out:
            out.write(f"{name} out\n")


def wait_then_hold(queue: WriterQueue, log: Path, go: Any) -> None:
    go.wait(10)
    hold_and_report(queue, log, "child", 0)


def test_a_forked_worker_waits_for_the_parents_write(tmp_path: Path):
    """The parent used its queue (its lock file is open) before forking, as `serve` could:
    the child must still wait for the parent's write, not share the parent's lock."""
    queue = WriterQueue(tmp_path / "db.sqlite3")
    log = tmp_path / "log"
    with queue.turn():
        pass  # the parent's file is open now
    context = multiprocessing.get_context("fork")
    go = context.Event()
    child = context.Process(target=wait_then_hold, args=(queue, log, go))
    child.start()
    with queue.turn():
        go.set()
        time.sleep(0.3)  # the child has had time to take the lock, were it shared
        with log.open("a") as out:
            out.write("parent out\n")
    child.join(10)
    assert child.exitcode == 0
    assert log.read_text().splitlines() == ["parent out", "child in", "child out"]


def test_two_processes_write_one_after_the_other(tmp_path: Path):
    log = tmp_path / "log"
    context = multiprocessing.get_context("fork")
    path = tmp_path / "db.sqlite3"
    children = [
        context.Process(target=hold_and_report, args=(WriterQueue(path), log, name, 0.2))
        for name in ("a", "b")
    ]
    for child in children:
        child.start()
    for child in children:
        child.join(10)
    lines = log.read_text().splitlines()
    assert sorted(lines) == ["a in", "a out", "b in", "b out"]
    first = lines[0].split()[0]
    assert lines[1] == f"{first} out"  # nobody came in while the first held the queue


def test_threads_of_one_process_write_one_after_the_other_and_a_write_may_nest(tmp_path: Path):
    queue = WriterQueue(tmp_path / "db.sqlite3")
    log = tmp_path / "log"
    threads = [
        threading.Thread(target=hold_and_report, args=(queue, log, name, 0.1))
        for name in ("a", "b", "c")
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    lines = log.read_text().splitlines()
    assert all(lines[i].split()[0] == lines[i + 1].split()[0] for i in range(0, 6, 2))
    with queue.turn(), queue.turn():  # a rematch starts its game inside the old game's write
        pass
