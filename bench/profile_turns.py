"""Where the time of one `POST /api/v1/games/<id>/turns` goes: cProfile in-process.

    .venv/bin/python bench/profile_turns.py [--turns 400] [--variant standard] [--top 25]

Plays games through the Flask test client exactly as `bench/turns.py` does over HTTP (the same app
build, account, token and move choice; no server, no sockets), profiles only the turn requests, and
prints:

- the mean CPU time per turn request (process time: the machine may be shared, and CPU time is
  what limits a saturated server), and the same with the profiler on;
- a breakdown by layer (time spent in functions of each package, "self" time, so the layers add up
  to the total): SQLite itself, SQLAlchemy, the rules, JSON, Flask/Werkzeug, the app's own code;
- the functions with the highest cumulative time inside the request, filtered to the app's code
  and the calls that matter, then the top functions by self time;
- how many SQL statements one turn runs, by kind.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import turns as bench  # noqa: E402  (bench/turns.py)

LAYERS = (
    # (label, substring of the code's file path or pseudo-file), first match wins
    (
        "SQLite (C: execute, commit)",
        ("<method 'execute' of 'sqlite3", "<method 'commit' of 'sqlite3"),
    ),
    ("SQLAlchemy (ORM, Core, pool)", ("/sqlalchemy/",)),
    ("rules (tracker/rules)", ("/tracker/rules/",)),
    ("app code (api, services, models)", ("/tracker/",)),
    ("JSON (encode/decode)", ("/json/", "<method 'encode' of '_json", "_json.")),
    ("Flask / Werkzeug / extensions", ("/flask", "/werkzeug/", "/flask_")),
    ("dataclasses / enum / typing", ("/dataclasses.py", "/enum.py", "/typing.py")),
    ("datetime, hashlib, other builtins", ("<built-in", "<method")),
)


def layer_of(func: tuple[str, int, str]) -> str:
    filename, _, name = func
    key = filename if filename != "~" else name
    for label, needles in LAYERS:
        if any(n in key for n in needles):
            return label
    return "other Python (stdlib, test client)"


# --lean: the turn requests ask for the lean answer (Prefer: return=minimal), as the browser does.
LEAN = {"on": False}


def _headers(token: str) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    if LEAN["on"]:
        headers["Prefer"] = "return=minimal"
    return headers


def play(client: Any, token: str, count: int, variant: str, seed: int = 1) -> list[tuple]:
    """Record `count` turns; returns (path, body) of each turn request made, in order."""
    player = bench.Player(0, random.Random(seed), (variant,))
    headers = _headers(token)
    made = []
    while len(made) < count:
        if player.needs_game():
            response = client.post("/api/v1/games", data=player.new_game_body(), headers=headers)
            assert response.status_code == 201, response.get_data(as_text=True)
            player.started(response.get_json())
            continue
        path, body = player.next_turn()
        made.append((path, body))
        response = client.post(path, data=body, headers=headers)
        assert response.status_code == 201, response.get_data(as_text=True)
        player.written(json.loads(response.get_data()))
    return made


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=400)
    parser.add_argument("--variant", choices=bench.VARIANTS, default="standard")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument(
        "--lean", action="store_true", help="the lean turn answer (Prefer: return=minimal)"
    )
    args = parser.parse_args(argv)
    LEAN["on"] = args.lean

    directory = Path(tempfile.mkdtemp(prefix="kosci-profile-"))
    try:
        setup = bench.build_app(directory)
        app, token = setup.app, setup.token
        client = app.test_client()
        headers = _headers(token)

        # Warm up (imports, first connections, caches), then time without the profiler.
        play(client, token, 60, args.variant, seed=7)
        turns_timed, games_timed = _timed(client, token, args.turns, args.variant, seed=2)
        print(
            f"{args.turns} turns ({args.variant}, 1-4 players, {games_timed} games) through the "
            f"test client: {turns_timed * 1000:.2f} ms CPU per turn request without the profiler"
        )

        stages = _stage_times(app, client, token, args.turns, args.variant)
        print("\nCPU time per turn request by stage (no profiler; nested stages excluded):")
        for label, seconds in stages:
            print(f"  {label:<58} {seconds * 1000:7.3f} ms")
        for path, label in (("/bench/insert", "bare INSERT + COMMIT"), ("/healthz", "/healthz")):
            each = _endpoint_time(client, path, 500)
            print(f"  for scale, {label:<46} {each * 1000:7.3f} ms CPU per request")

        # SQL statements per turn.
        from sqlalchemy import event

        from tracker.extensions import db

        statements: Counter[str] = Counter()

        def count(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
            statements[statement.split()[0].upper()] += 1

        with app.app_context():
            engine = db.engine
        event.listen(engine, "before_cursor_execute", count)
        sample = 100
        play(client, token, sample, args.variant, seed=3)
        event.remove(engine, "before_cursor_execute", count)

        # Profile only the turn requests.
        profiler = cProfile.Profile()
        player = bench.Player(0, random.Random(4), (args.variant,))
        done = 0
        in_requests = 0.0
        while done < args.turns:
            if player.needs_game():
                response = client.post(
                    "/api/v1/games", data=player.new_game_body(), headers=headers
                )
                player.started(response.get_json())
                continue
            path, body = player.next_turn()
            t0 = time.process_time()
            profiler.enable()
            response = client.post(path, data=body, headers=headers)
            profiler.disable()
            in_requests += time.process_time() - t0
            assert response.status_code == 201, response.get_data(as_text=True)
            player.written(json.loads(response.get_data()))
            done += 1
        print(f"with cProfile on: {in_requests / args.turns * 1000:.2f} ms CPU per turn request\n")

        stats = pstats.Stats(profiler)
        raw: dict = stats.stats  # type: ignore[attr-defined]
        total_self = sum(v[2] for v in raw.values())
        layers: Counter[str] = Counter()
        for func, (_cc, _nc, tottime, _ct, _callers) in raw.items():
            layers[layer_of(func)] += tottime
        print("Self time by layer (share of the profiled turn requests):")
        for label, seconds in layers.most_common():
            print(
                f"  {label:<38} {seconds / args.turns * 1000:7.3f} ms/turn "
                f"{seconds / total_self:6.1%}"
            )

        print(f"\nSQL statements per turn request (over {sample} turns):")
        for kind, n in statements.most_common():
            print(f"  {kind:<8} {n / sample:6.2f}")

        print("\nApp functions by cumulative time (ms per turn request, calls per turn):")
        rows = []
        for func, (_cc, nc, _tt, cumtime, _callers) in raw.items():
            if "/tracker/" in func[0]:
                rows.append((cumtime, nc, func))
        rows.sort(reverse=True)
        for cumtime, nc, func in rows[: args.top]:
            where = func[0].split("/tracker/", 1)[1]
            print(
                f"  {cumtime / args.turns * 1000:7.3f} ms  {nc / args.turns:7.1f}x  "
                f"tracker/{where}:{func[1]} {func[2]}"
            )

        print("\nTop functions by self time:")
        rows = sorted(
            ((tt, nc, func) for func, (_cc, nc, tt, _ct, _c) in raw.items()), reverse=True
        )
        for tottime, nc, func in rows[: args.top]:
            filename = func[0]
            for marker in ("/site-packages/", "/lib/python3.11/", "/work/main/"):
                if marker in filename:
                    filename = filename.split(marker, 1)[1]
            print(
                f"  {tottime / args.turns * 1000:7.3f} ms  {nc / args.turns:8.1f}x  "
                f"{filename}:{func[1]} {func[2]}"
            )
        with app.app_context():
            for engine in db.engines.values():
                engine.dispose()
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    return 0


def _timed(client: Any, token: str, count: int, variant: str, seed: int) -> tuple[float, int]:
    """Mean seconds per turn request, and the number of games played."""
    player = bench.Player(0, random.Random(seed), (variant,))
    headers = _headers(token)
    done, spent = 0, 0.0
    while done < count:
        if player.needs_game():
            response = client.post("/api/v1/games", data=player.new_game_body(), headers=headers)
            player.started(response.get_json())
            continue
        path, body = player.next_turn()
        t0 = time.process_time()
        response = client.post(path, data=body, headers=headers)
        spent += time.process_time() - t0
        assert response.status_code == 201, response.get_data(as_text=True)
        player.written(json.loads(response.get_data()))
        done += 1
    return spent / count, player.games_created


def _endpoint_time(client: Any, path: str, count: int) -> float:
    method = client.post if path.startswith("/bench") else client.get
    kwargs = {"json": {}} if path.startswith("/bench") else {}
    for _ in range(50):
        method(path, **kwargs)
    t0 = time.process_time()
    for _ in range(count):
        response = method(path, **kwargs)
        assert response.status_code < 300
    return (time.process_time() - t0) / count


def _stage_times(
    app: Any, client: Any, token: str, count: int, variant: str
) -> list[tuple[str, float]]:
    """Mean CPU time per turn request of each stage of `record_turn`, measured by wrapping the
    functions the view calls (module attributes, so the wrappers are what the code looks up).
    Each stage's time excludes the stages nested in it, so the stages add up to the request."""
    from tracker.api import games as api_games
    from tracker.extensions import db
    from tracker.rules import TableGame as table_game
    from tracker.services import accounts, game_view, results
    from tracker.store import games as store

    spent: Counter[str] = Counter()
    stack: list[str] = []
    active = {"on": False, "loads": 0}

    def timed(label: str | Any, func: Any) -> Any:
        def wrapper(*a: Any, **k: Any) -> Any:
            if not active["on"]:
                return func(*a, **k)
            name = label() if callable(label) else label
            stack.append(name)
            t0 = time.process_time()
            try:
                return func(*a, **k)
            finally:
                elapsed = time.process_time() - t0
                stack.pop()
                spent[name] += elapsed
                if stack:  # count the time once: take it out of the enclosing stage
                    spent[stack[-1]] -= elapsed

        return wrapper

    def load_label() -> str:
        active["loads"] += 1
        if active["loads"] == 1:
            return "services.game_view.load_for_turn (game, seats; cache or restore)"
        return f"services.game_view.load_for_turn, call #{active['loads']} in the same request"

    restore = table_game.__dict__["restore"].__func__
    patches = [
        (
            accounts,
            "account_for_token",
            timed("token lookup (account_for_token)", accounts.account_for_token),
        ),
        (game_view, "load_for_turn", timed(load_label, game_view.load_for_turn)),
        (
            results,
            "store_results",
            timed("results.store_results (totals on seats)", results.store_results),
        ),
        (store, "lock_game", timed("store.lock_game (the game's write lock)", store.lock_game)),
        (api_games, "game_json", timed("api.games.game_json (answer dict)", api_games.game_json)),
        (
            db.session,
            "commit",
            timed("db.session.commit (flush: INSERT, UPDATEs; COMMIT)", db.session.commit),
        ),
        (table_game, "restore", classmethod(timed("rules: TableGame.restore", restore))),
        (
            table_game,
            "play_turn",
            timed("rules: TableGame.play_turn (judge the move)", table_game.play_turn),
        ),
    ]
    saved = [(obj, name, obj.__dict__.get(name)) for obj, name, _ in patches]
    try:
        for obj, name, value in patches:
            setattr(obj, name, value)
        player = bench.Player(0, random.Random(5), (variant,))
        headers = _headers(token)
        whole = "rest: Flask, Werkzeug, JSON in/out, test client"
        request = timed(whole, client.post)
        done = 0
        while done < count:
            if player.needs_game():
                response = client.post(
                    "/api/v1/games", data=player.new_game_body(), headers=headers
                )
                player.started(response.get_json())
                continue
            path, body = player.next_turn()
            active["on"] = True
            active["loads"] = 0
            response = request(path, data=body, headers=headers)
            active["on"] = False
            assert response.status_code == 201
            player.written(json.loads(response.get_data()))
            done += 1
    finally:
        for obj, name, value in saved:
            if value is None:
                delattr(obj, name)
            else:
                setattr(obj, name, value)
    total = sum(spent.values())
    rows = [(label, seconds / count) for label, seconds in spent.most_common()]
    return [*rows, ("total", total / count)]


if __name__ == "__main__":
    sys.exit(main())
