"""The serving model, measured: what stalled connections do to a phone's turn, per worker class.

    .venv/bin/python bench/serving.py [--workers 3] [--stalled 6] [--turns 20]

For each model (gunicorn `sync` workers, as `serve` ran first; gunicorn `gthread`, as it ran next;
granian, as it runs now), all on 127.0.0.1 in a temporary directory:

1. builds the real app on a fresh SQLite file with an account and a token (bench/turns.py's
   `build_app`) and serves it with `tracker.cli._serve_with_gunicorn` (or `run_server`, granian)
   in a child process;
2. writes `--turns` turns through the API, one at a time, each on a new connection, and notes
   each one's latency (the baseline);
3. opens `--stalled` connections that send half a request line and then nothing, as a phone that
   lost its Wi-Fi mid-request does, and keeps them open;
4. writes `--turns` turns again while they stall, each with a 10 s client timeout, and notes the
   latency or the timeout.

It prints, per model, the median and worst turn latency without and with stalled connections and
how many turns did not complete within 10 s. The figures go to docs/benchmarks.md ("Serving model").
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import shutil
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from turns import HOST, build_app, free_port, wait_until_up  # noqa: E402

TIMEOUT = 10.0


def _serve(app, port: int, workers: int, worker_class: str, log_path: str) -> None:
    log = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.dup2(log, 1)
    os.dup2(log, 2)
    import contextvars

    from tracker.cli import DEFAULT_THREADS, _serve_with_gunicorn, run_server

    if worker_class == "granian":
        run_server(app, HOST, port, workers)
        return
    threads = max(DEFAULT_THREADS, 8) if worker_class == "gthread" else 1
    contextvars.Context().run(_serve_with_gunicorn, app, HOST, port, workers, threads, worker_class)


def _request(port: int, method: str, path: str, token: str, body: dict | None = None):
    """One request on a fresh connection; (status, json, seconds) or (None, None, TIMEOUT)."""
    data = json.dumps(body).encode() if body is not None else b""
    head = (
        f"{method} {path} HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n"
        f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(data)}\r\n\r\n"
    ).encode()
    started = time.monotonic()
    try:
        with socket.create_connection((HOST, port), timeout=TIMEOUT) as sock:
            sock.sendall(head + data)
            chunks = []
            while chunk := sock.recv(65536):
                chunks.append(chunk)
    except OSError:
        return None, None, TIMEOUT
    raw = b"".join(chunks)
    status = int(raw.split(b" ", 2)[1])
    payload = raw.partition(b"\r\n\r\n")[2]
    return (
        status,
        json.loads(payload) if payload.startswith(b"{") else None,
        (time.monotonic() - started),
    )


def _turns(port: int, token: str, count: int) -> list[float]:
    """Write `count` turns of one-player standard games (Szansa... any free field in order)."""
    fields = ["ones", "twos", "threes", "fours", "fives", "sixes", "chance"]
    latencies = []
    game = None
    for k in range(count):
        if k % len(fields) == 0:
            status, game, _ = _request(
                port, "POST", "/api/v1/games", token, {"variant": "standard", "players": ["Ala"]}
            )
            if status != 201:
                game = None
        if game is None:  # the game could not even be started in time
            latencies.append(TIMEOUT)
            continue
        field = fields[k % len(fields)]
        status, _, seconds = _request(
            port,
            "POST",
            f"/api/v1/games/{game['id']}/turns",
            token,
            {"dice": [1, 2, 3, 4, 5], "field": field},
        )
        latencies.append(seconds if status == 201 else TIMEOUT)
    return latencies


def measure(worker_class: str, workers: int, stalled: int, turns: int) -> dict:
    directory = Path(tempfile.mkdtemp(prefix="bench-serving-"))
    try:
        setup = build_app(directory)
        port = free_port()
        ctx = mp.get_context("fork")
        server = ctx.Process(
            target=_serve,
            args=(setup.app, port, workers, worker_class, str(directory / "server.log")),
        )
        server.start()
        try:
            if not wait_until_up(port, server):
                raise SystemExit(f"{worker_class}: the server did not start")
            before = _turns(port, setup.token, turns)
            sockets = []
            for _ in range(stalled):
                sock = socket.create_connection((HOST, port))
                sock.sendall(b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\n")
                sockets.append(sock)
            time.sleep(0.5)
            during = _turns(port, setup.token, turns)
            for sock in sockets:
                sock.close()
        finally:
            server.terminate()
            server.join(10)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    return {"before": before, "during": during}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--stalled", type=int, default=6)
    parser.add_argument("--turns", type=int, default=20)
    args = parser.parse_args()
    print(f"{args.workers} workers, {args.stalled} stalled connections, {args.turns} turns each")
    print(
        f"{'model':8} {'median ms':>10} {'worst ms':>9} | {'stalled: median ms':>19} "
        f"{'worst ms':>9} {'timed out (10 s)':>17}"
    )
    for model in ("sync", "gthread", "granian"):
        result = measure(model, args.workers, args.stalled, args.turns)
        before, during = result["before"], result["during"]
        print(
            f"{model:8} {statistics.median(before) * 1000:10.1f} {max(before) * 1000:9.1f} | "
            f"{statistics.median(during) * 1000:19.1f} {max(during) * 1000:9.1f} "
            f"{sum(1 for s in during if s >= TIMEOUT):17d}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
