"""Heavy requests cannot stop the table: while two imports of a few megabytes arrive at once,
a phone's turns are still written, and the server still answers."""

from __future__ import annotations

import http.client
import importlib.util
import threading
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .web import Answer, Api, new_account, request

ROOT = Path(__file__).resolve().parents[2]
# The failure condition, not a speed target: a turn that waits this long is stuck behind the
# imports (the figures are in docs/benchmarks.md, "Import").
CLIENT_TIMEOUT = 3.0
EXPORT_BYTES = 3 * 1024 * 1024


def build_export() -> bytes:
    """An export of a few hundred played games, from the import benchmark's builder."""
    spec = importlib.util.spec_from_file_location("bench_import", ROOT / "bench" / "import.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text: str = module.build_export(games=None, max_bytes=EXPORT_BYTES, players=(2, 4))
    return text.encode()


def test_two_imports_at_once_leave_the_table_playing(live_server):
    document = build_export()
    _, importer_token = new_account(live_server, "Importerzy")
    _, family_token = new_account(live_server, "Przy stole")
    importer = Api(live_server.url, importer_token)
    family = Api(live_server.url, family_token)
    game = family.create_game("poker", ["Ala", "Ola"])
    imports: list[Answer | BaseException] = []
    turns: list[Answer | BaseException] = []
    done = threading.Event()

    def send_import() -> None:
        try:
            imports.append(
                request(
                    live_server.url,
                    "POST",
                    "/api/v1/import",
                    document,
                    {
                        "Authorization": f"Bearer {importer_token}",
                        "Content-Type": "application/json",
                    },
                    timeout=60,
                )
            )
        except BaseException as exc:  # reported below
            imports.append(exc)

    def play() -> None:
        while not done.is_set():
            try:
                turns.append(family.turn(game["id"], {"dice": [1, 2, 3, 4, 6]}, CLIENT_TIMEOUT))
            except BaseException as exc:  # a timeout: the turn was stuck
                turns.append(exc)

    senders = [threading.Thread(target=send_import) for _ in range(2)]
    player = threading.Thread(target=play)
    player.start()
    for sender in senders:
        sender.start()
    for sender in senders:
        sender.join(90)
    done.set()
    player.join(30)

    statuses: list[Any] = [getattr(a, "status", a) for a in imports]
    assert 200 in statuses, imports
    assert all(s in (200, 429) for s in statuses), imports
    assert turns, "no turn was tried while the imports ran"
    stuck = [t for t in turns if not isinstance(t, Answer) or t.status != 201]
    assert not stuck, f"{len(stuck)} of {len(turns)} turns failed or timed out: {stuck[:3]}"
    health = request(live_server.url, "GET", "/healthz", timeout=CLIENT_TIMEOUT)
    assert health.status == 200
    listed = importer.call("GET", "/games").json()["games"]
    assert len(listed) > 100


def send_chunked(base_url: str, path: str, body: bytes, headers: dict[str, str]) -> Answer:
    """`body` sent in chunks (no Content-Length), as a client streaming a file does."""
    parts = urlsplit(base_url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=30)
    try:
        chunks = (body[at : at + 64 * 1024] for at in range(0, len(body), 64 * 1024))
        conn.request("POST", path, body=chunks, headers=headers, encode_chunked=True)
        response = conn.getresponse()
        return Answer(response.status, response.headers, response.read())
    finally:
        conn.close()


def test_a_chunked_body_past_the_limit_is_refused_whole_by_the_server(live_server):
    """The server hands a chunked body over with no length: the app must still refuse one
    past its limit with 413, not read its first megabyte and answer as if that were all."""
    _, token = new_account(live_server, "Strumień")
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    move = b'{"variant": "standard", "dice": [6, 6, 6, 6, 6]}'
    limit = 1024 * 1024

    within = send_chunked(live_server.url, "/api/v1/score", move.ljust(limit), headers)
    over = send_chunked(live_server.url, "/api/v1/score", move.ljust(limit) + b"x", headers)
    import_over = send_chunked(
        live_server.url, "/api/v1/import", b"{}".ljust(32 * limit) + b"x", headers
    )

    assert within.status == 200, within
    assert over.status == 413, over
    assert import_over.status == 413, import_over
    assert import_over.json() == {"error": "Plik eksportu może mieć najwyżej 32 MB."}
