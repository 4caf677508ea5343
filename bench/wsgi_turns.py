"""CPU per request of a turn, called as a plain WSGI app: no server, no sockets, no test client.

    .venv/bin/python bench/wsgi_turns.py [--rounds 12] [--per-round 500]

Plays the same games as `bench/turns.py` (its app build, account, token and move choice) by
calling `app.wsgi_app` directly, and measures the process's CPU time of each request, in
interleaved rounds (turns, then each endpoint, again and again), reporting each figure's median
over the rounds:

- `turn`: a lean turn (`Prefer: return=minimal`), game creation and the game-end review
  included, as `bench/turns.py` counts them;
- `insert`: `bench/turns.py`'s bare INSERT + COMMIT endpoint, through the ORM session as any
  Flask-SQLAlchemy view writes;
- `insert-own`: the same INSERT + COMMIT on a Core connection of its own (`engine.begin()`),
  as the turn path now writes (`store.own_write`): the difference is what the session costs;
- `hello`: a view that returns "ok" through the same app and hooks.

Without a server the figures are lower than `bench/turns.py`'s (no HTTP parsing, no sockets),
but far steadier from run to run: a change of a few hundredths of a millisecond shows here.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import turns as bench  # noqa: E402  (bench/turns.py)

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def environ(
    method: str, path: str, body: bytes = b"", headers: Iterable[tuple[str, str]] = ()
) -> dict[str, Any]:
    env: dict[str, Any] = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SCRIPT_NAME": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "127.0.0.1:8000",
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.url_scheme": "http",
        "wsgi.version": (1, 0),
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    for name, value in headers:
        env["HTTP_" + name.upper().replace("-", "_")] = value
    return env


def call(app: WsgiApp, env: dict[str, Any]) -> tuple[float, int, bytes]:
    """(CPU seconds, status, body) of one request."""
    status: list[int] = []

    def start_response(line: str, _headers: Any, _exc: Any = None) -> None:
        status.append(int(line.split()[0]))

    started = time.process_time()
    answer = app(env, start_response)
    body = b"".join(answer)
    close = getattr(answer, "close", None)
    if close is not None:
        close()
    return time.process_time() - started, status[0], body


def add_own_connection_insert(setup: bench.Setup) -> None:
    """`/bench/insert-own`: the bare insert on a Core connection of its own."""
    from flask import jsonify
    from sqlalchemy import text

    from tracker.extensions import csrf, db

    statement = text(
        f"INSERT INTO {bench.BENCH_TABLE} (at, worker) VALUES (:at, :worker) RETURNING id"
    )

    def bench_insert_own() -> tuple[Any, int]:
        with db.engine.begin() as conn:
            values = {"at": time.strftime("%Y-%m-%d %H:%M:%S"), "worker": os.getpid()}
            row_id = conn.execute(statement, values).scalar_one()
        return jsonify(id=row_id), 201

    setup.app.add_url_rule(
        "/bench/insert-own", "bench_insert_own", bench_insert_own, methods=["POST"]
    )
    csrf.exempt(bench_insert_own)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--per-round", type=int, default=500)
    args = parser.parse_args(argv)

    directory = Path(tempfile.mkdtemp(prefix="kosci-wsgi-"))
    try:
        setup = bench.build_app(directory)
        add_own_connection_insert(setup)
        app: WsgiApp = setup.app.wsgi_app
        gc.collect()
        gc.freeze()  # as `serve` does before it forks its workers
        auth = [("Authorization", f"Bearer {setup.token}")]
        lean = [*auth, ("Prefer", "return=minimal")]
        player = bench.Player(0, random.Random(1), ("standard",))

        def turns(count: int) -> float:
            spent, written = 0.0, 0
            while written < count:
                if player.needs_game():
                    cpu, status, body = call(
                        app, environ("POST", "/api/v1/games", player.new_game_body(), auth)
                    )
                    assert status == 201, body
                    player.started(json.loads(body))
                    spent += cpu
                    continue
                path, request = player.next_turn()
                cpu, status, body = call(app, environ("POST", path, request, lean))
                assert status == 201, body
                player.written(json.loads(body))
                spent += cpu
                written += 1
            return spent / count

        def endpoint(method: str, path: str, count: int) -> float:
            spent = 0.0
            for _ in range(count):
                body = b"{}" if method == "POST" else b""
                cpu, status, answer = call(app, environ(method, path, body))
                assert status in (200, 201), answer
                spent += cpu
            return spent / count

        phases: dict[str, Callable[[int], float]] = {
            "turn": turns,
            "insert": lambda n: endpoint("POST", "/bench/insert", n),
            "insert-own": lambda n: endpoint("POST", "/bench/insert-own", n),
            "hello": lambda n: endpoint("GET", "/bench/hello", n),
        }
        for measure in phases.values():  # warm up
            measure(200)
        figures: dict[str, list[float]] = {name: [] for name in phases}
        for _ in range(args.rounds):
            for name, measure in phases.items():
                figures[name].append(measure(args.per_round))
        median = {name: statistics.median(values) * 1000 for name, values in figures.items()}
        print(f"{args.rounds} rounds of {args.per_round} requests each; median ms of CPU:")
        for name, value in median.items():
            print(f"  {name:<11} {value:.3f}")
        print(f"insert / turn = {median['insert'] / median['turn']:.2f}")
        session = median["insert"] - median["insert-own"]
        print(f"what the ORM session costs an insert: {session:.3f}")
        return 0
    finally:
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
