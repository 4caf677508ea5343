"""Connections that open and then stall (a phone losing Wi-Fi halfway through a request, a
half-open socket) must not keep the family's next turn from being written."""

from __future__ import annotations

import socket
import time
from contextlib import ExitStack
from urllib.parse import urlsplit

import pytest

from .web import Api, new_account, request

STALLED = 6
# The failure condition, not a speed target: a write that waits this long is stuck behind the
# stalled connections.
CLIENT_TIMEOUT = 3.0

PARTIAL_REQUESTS = [
    b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ",  # headers never finished
    b"POST /api/v1/games/1/tur",  # the request line never finished
    b"",  # connected, nothing sent
]


def stall(stack: ExitStack, address: tuple[str, int], partial: bytes) -> socket.socket:
    conn = stack.enter_context(socket.create_connection(address, timeout=5))
    if partial:
        conn.sendall(partial)
    return conn


def test_stalled_connections_do_not_block_a_turn(live_server):
    _, token = new_account(live_server, "Zawieszeni")
    api = Api(live_server.url, token)
    game = api.create_game("standard", ["Ala", "Ola"])
    parts = urlsplit(live_server.url)
    address = (parts.hostname or "127.0.0.1", parts.port or 80)

    with ExitStack() as stack:
        for index in range(STALLED):
            stall(stack, address, PARTIAL_REQUESTS[index % len(PARTIAL_REQUESTS)])
        time.sleep(0.5)  # let the server accept them: they are then held by whoever took them

        for move in (
            {"dice": [3, 3, 3, 5, 5], "field": "full_house"},
            {"dice": [6, 6, 6, 1, 2], "field": "sixes"},
        ):
            try:
                answer = api.turn(game["id"], move, timeout=CLIENT_TIMEOUT)
            except TimeoutError:
                pytest.fail(
                    f"with {STALLED} stalled connections open, a turn got no answer within "
                    f"{CLIENT_TIMEOUT:.0f} s"
                )
            assert answer.status == 201, answer
        try:
            page = request(live_server.url, "GET", "/healthz", timeout=CLIENT_TIMEOUT)
        except TimeoutError:
            pytest.fail(f"with {STALLED} stalled connections open, /healthz did not answer")
        assert page.status == 200

    # The sockets are closed: the server serves as before (for the tests that follow).
    deadline = time.monotonic() + 40
    while True:
        try:
            if request(live_server.url, "GET", "/healthz", timeout=2).status == 200:
                break
        except OSError:
            pass
        assert time.monotonic() < deadline, "the server did not recover"
    assert [t["field"] for t in api.game(game["id"])["turns"]] == ["full_house", "sixes"]
