"""The `serve` process itself, as a family runs it: a second one on a port already served
refuses to start, and a worker that dies is started again while the others go on serving."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from live import (
    FLASK,
    REPO_ROOT,
    LiveServer,
    dispose_engines,
    serve_environment,
    start_server,
    stop_process_group,
)

from .web import Api, new_account, request

# How long a killed worker may take to be replaced: granian looks again after its respawn
# interval (3.5 s), and the new worker then loads the app.
RESPAWN_WITHIN = 20.0


def workers_of(server_pid: int) -> set[int]:
    """The worker processes of granian's main process `server_pid`."""
    children = Path(f"/proc/{server_pid}/task/{server_pid}/children").read_text().split()
    return {int(pid) for pid in children}


@pytest.mark.one_backend("the port and the processes are the subject, not the database")
def test_a_second_serve_on_a_port_in_use_refuses_to_start(live_server: LiveServer, tmp_path):
    """granian's workers listen with SO_REUSEPORT: without a check, a second `serve` (started
    twice by mistake, an old version still running) would start without a word and take half
    of the phones' requests to its own database."""
    port = urlsplit(live_server.url).port
    instance = tmp_path / "instance"

    second = subprocess.Popen(
        [str(FLASK), "--app", "tracker", "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=REPO_ROOT,
        env=serve_environment(instance),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # should it start after all, its workers are stopped with it
    )
    try:
        out, err = second.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail("a second serve started on a port already served")
    finally:
        stop_process_group(second)  # type: ignore[arg-type]

    assert second.returncode == 1, out + err
    assert f"Port {port} jest już zajęty" in err
    suggested = re.search(r"--port (\d+)", err)
    assert suggested, err
    assert int(suggested.group(1)) != port
    with socket.socket() as probe:  # the port it suggests is free
        probe.bind(("127.0.0.1", int(suggested.group(1))))
    # It stopped before touching a database, and the first server answers as before.
    assert not (instance / "kosci.sqlite3").exists()
    assert request(live_server.url, "GET", "/healthz").status == 200


@pytest.fixture
def own_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, int]]:
    """A server of this test's own, with two workers, and the pid of granian's main process
    (the process `serve` became: the CLI runs granian in its own process)."""
    server, process = start_server(tmp_path_factory.mktemp("respawn"), workers=2)
    try:
        yield server, process.pid
    finally:
        stop_process_group(process)
        dispose_engines(server.app)


@pytest.mark.one_backend("a worker's death is the subject; the database only records turns")
def test_a_worker_that_dies_is_replaced_and_the_table_plays_on(
    own_server: tuple[LiveServer, int],
):
    server, main_pid = own_server
    _, token = new_account(server, "Kowalscy")
    family = Api(server.url, token)
    game = family.create_game("poker", ["Ala", "Ola"])
    before = workers_of(main_pid)
    assert len(before) == 2, before
    assert family.turn(game["id"], {"dice": [1, 2, 3, 4, 6]}).status == 201

    killed = min(before)
    os.kill(killed, signal.SIGKILL)

    # The server goes on answering, and has two workers again. Only a connection the system
    # had already handed to the dead worker's socket may be reset (a phone then sends its turn
    # again, with the seq it expects: tests/e2e/test_safe_retries.py).
    answers: list[int | OSError] = []
    deadline = time.monotonic() + RESPAWN_WITHIN
    while time.monotonic() < deadline:
        try:
            answers.append(family.turn(game["id"], {"dice": [2, 2, 3, 4, 6]}).status)
        except OSError as exc:  # reset or refused by the dead worker's socket
            answers.append(exc)
        now = workers_of(main_pid)
        if len(now) == 2 and killed not in now and answers[-4:] == [201] * 4:
            break
        time.sleep(0.2)
    after = workers_of(main_pid)
    assert killed not in after
    assert len(after) == 2, f"no worker in the killed one's place: {after}\n{server.log_tail()}"
    written = answers.count(201)
    assert answers[-4:] == [201] * 4, answers
    assert all(a == 201 or isinstance(a, OSError) for a in answers), answers
    assert written >= len(answers) - 2, f"more than the first requests were lost: {answers}"
    # Every answered turn is written, once.
    assert family.game(game["id"])["next_seq"] == 1 + 1 + written
