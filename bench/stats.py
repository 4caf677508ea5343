"""Statistics at scale: the statistics pages and `GET /api/v1/stats` over 10,000 finished games.

    .venv/bin/python bench/stats.py [--games 10000] [--requests 30] [--rebuild] [--cache DIR]
        [--database-url postgresql+psycopg://USER:PASSWORD@HOST/DB]

1. Builds (once) an SQLite file with one account, six players and `--games` finished games, all
   six at the table, across the variants (standard 40 %, ordered, scandinavian, triple and poker
   15 % each), spread over three years. Each game is played by `tracker.rules`: per turn a field
   (the next one in "Gra po kolei"), the best of three random rolls for it, and `TableGame.play`
   writes the points, so turns (13/15/39 per player, 1 in 50 games with an undone correction),
   totals, places, winners, upper bonuses, Generały and +100 are those real play caches. Rows
   go in with executemany through the app's own engine. The file is cached in
   `$TMPDIR/kosci-bench-stats/` (about a minute to build, ~1M turns); every run migrates it to
   the current schema first, so a new index reaches it. With `--database-url` the same rows go
   into a fresh database on that PostgreSQL server instead, built every run and dropped at the
   end (bench/scratch_database.py).
2. Measures, in the same run and in-process through the Flask test client (signed in by session,
   the API with a bearer token), the median and 90th percentile of `--requests` requests after
   three warm-up requests each: `/healthz` (the plainest page, the baseline), the statistics
   page with and without filters, a player page, and the API with and without filters. Before
   measuring it sets the garbage collector up as the server's workers have it
   (`tracker.cli.settle_heap`).
   It also times the per-field query for every player in turn: what showing per-field figures
   for the whole family on `/statystyki` would cost. Next to the wall clock it reports the
   median CPU time per request, steadier when other work shares the machine.

Targets: median under 150 ms for each page and under 50 ms for the API. Exit status 0 when all
are met, 1 otherwise. Machines differ and may be shared: compare with `/healthz` from the same run.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run from a checkout without `pip install -e .`
    sys.path.insert(0, str(ROOT))

from flask import Flask  # noqa: E402
from flask_migrate import upgrade  # noqa: E402
from sqlalchemy import func, insert, select, text  # noqa: E402

from tracker import create_app, rules  # noqa: E402
from tracker.cli import settle_heap  # noqa: E402
from tracker.extensions import db  # noqa: E402
from tracker.models import Account, Game, GameSeat, Player, Turn, name_key  # noqa: E402
from tracker.services import accounts, stats  # noqa: E402

# Bump when the generated data changes: a cached file of another version is rebuilt.
DATA_VERSION = 2
SEED = 20250503
ACCOUNT = "Benchmark"
PLAYERS = ("Ala", "Ola", "Jan", "Zosia", "Łukasz", "Babcia Ela")
VARIANT_WEIGHTS = {"standard": 40, "ordered": 15, "scandinavian": 15, "triple": 15, "poker": 15}
FIRST_GAME = datetime(2022, 6, 1, 17, 0)
DAYS = 3 * 365
PAGE_LIMIT_MS = 150.0
# The floor the statistics are measured against: every turn in force read once.
FLOOR_QUERY = text("SELECT count(*), sum(points) FROM turns WHERE undone_at IS NULL")
API_LIMIT_MS = 50.0
BATCH = 500  # games per executemany batch


# --- building the data -------------------------------------------------------------------


@dataclass
class Built:
    games: list[dict[str, Any]]
    seats: list[dict[str, Any]]
    turns: list[dict[str, Any]]


def roll(rng: random.Random) -> tuple[int, int, int, int, int]:
    d = [rng.randint(1, 6) for _ in range(5)]
    return (d[0], d[1], d[2], d[3], d[4])


def play_table(variant: rules.Variant, seats: int, rng: random.Random) -> tuple[Any, list[Any]]:
    """A whole game through the rules: per turn a free cell, the best of three rolls for it."""
    table = rules.TableGame(variant, seats)
    fields = variant.table.fields
    while not table.finished:
        seat = table.current_seat
        assert seat is not None
        sheet = table.sheets[seat]
        free = [
            (column, f)
            for column, col in enumerate(sheet)
            for f in fields
            if not col.is_filled(f.id)
        ]
        if variant.fixed_order:
            free = free[:1]
        column, target = rng.choice(free)
        dice = max((roll(rng) for _ in range(3)), key=target.score)
        try:
            table.play(dice, target.id, column)
        except rules.MoveRefused:  # a joker must go to the lower section first
            move = rng.choice(table.evaluate(dice).moves)
            table.play(dice, move.field, move.column)
    return table, table.turns


def play_poker(seats: int, rng: random.Random) -> tuple[Any, list[Any]]:
    match = rules.PokerMatch(seats)
    hands = []
    while not match.finished:
        dice = max((roll(rng) for _ in range(2)), key=lambda d: rules.classify(d).key)
        match.play(dice)
        hands.append(dice)
    return match, hands


def build_rows(
    account_id: int, player_ids: list[int], games: int, first_id: int, rng: random.Random
) -> Iterator[Built]:
    """Rows of games, seats and turns, `BATCH` games at a time."""
    variants = list(VARIANT_WEIGHTS)
    weights = list(VARIANT_WEIGHTS.values())
    step = DAYS * 86400 / games
    batch = Built([], [], [])
    for n in range(games):
        game_id = first_id + n
        variant_id = rng.choices(variants, weights)[0]
        order = player_ids[:]
        rng.shuffle(order)
        finished = FIRST_GAME + timedelta(seconds=n * step + rng.uniform(0, step / 2))
        if variant_id == rules.POKER:
            match, hands = play_poker(len(order), rng)
            scores = list(match.round_wins)
            turns = [
                {
                    "seat": i % len(order),
                    "dice": "".join(map(str, d)),
                    "field": None,
                    "column": None,
                    "points": None,
                    "extra_bonus": 0,
                }
                for i, d in enumerate(hands)
            ]
            per_seat = [(0, 0, 0)] * len(order)
            options: dict[str, int] = {"target_wins": match.options.target_wins}
        else:
            variant = rules.TABLE_VARIANTS[variant_id]
            table, records = play_table(variant, len(order), rng)
            scores = list(table.scores)
            turns = [
                {
                    "seat": t.seat,
                    "dice": "".join(map(str, t.dice)),
                    "field": t.field,
                    "column": t.column,
                    "points": t.points,
                    "extra_bonus": t.extra_bonus,
                }
                for t in records
            ]
            per_seat = []
            for seat in range(len(order)):
                totals = table.totals(seat)
                per_seat.append(
                    (
                        sum(1 for c in totals.columns if c.upper_bonus),
                        sum(
                            1 for t in records if t.seat == seat and rules.is_five_of_a_kind(t.dice)
                        ),
                        sum(c.extra_bonus for c in totals.columns) // 100,
                    )
                )
            options = {"bonus_threshold": 63}
        # The same figures `tracker.services.games._cache_results` stores.
        places = rules.places_of(scores)
        winners = set(rules.winners_of(scores))
        started = finished - timedelta(seconds=20 * len(turns))
        batch.games.append(
            {
                "id": game_id,
                "account_id": account_id,
                "variant": variant_id,
                "options": options,
                "started_at": started,
                "finished_at": finished,
            }
        )
        for seat, player_id in enumerate(order):
            bonuses, generals, extra = per_seat[seat]
            batch.seats.append(
                {
                    "game_id": game_id,
                    "player_id": player_id,
                    "seat": seat,
                    "total": scores[seat],
                    "place": places[seat],
                    "is_winner": seat in winners,
                    "upper_bonuses": bonuses,
                    "generals": generals,
                    "extra_bonuses": extra,
                }
            )
        for seq, turn in enumerate(turns, start=1):
            at = started + timedelta(seconds=20 * seq)
            batch.turns.append(
                {"game_id": game_id, "seq": seq, "created_at": at, "undone_at": None, **turn}
            )
        if turns and variant_id != rules.POKER and rng.random() < 0.02:
            # A correction: the same turn first written in another field, then undone.
            seq = rng.randrange(len(turns))
            wrong = dict(turns[seq], field="chance", points=0, extra_bonus=0)
            at = started + timedelta(seconds=20 * (seq + 1) - 5)
            batch.turns.append(
                {"game_id": game_id, "seq": seq + 1, "created_at": at, "undone_at": at, **wrong}
            )
        if len(batch.games) >= BATCH:
            yield batch
            batch = Built([], [], [])
    if batch.games:
        yield batch


def build_database(app: Flask, games: int) -> None:
    rng = random.Random(SEED)
    with app.app_context():
        account = accounts.create_account(ACCOUNT, "benchmark-password")
        db.session.add_all(
            Player(account_id=account.id, name=name, name_key=name_key(name)) for name in PLAYERS
        )
        db.session.commit()
        player_ids = list(
            db.session.scalars(select(Player.id).where(Player.account_id == account.id))
        )
        first_id = (db.session.scalar(select(func.max(Game.id))) or 0) + 1
        started = time.perf_counter()
        done = 0
        connection = db.session.connection()
        for batch in build_rows(account.id, player_ids, games, first_id, rng):
            connection.execute(insert(Game), batch.games)
            connection.execute(insert(GameSeat), batch.seats)
            connection.execute(insert(Turn), batch.turns)
            db.session.commit()
            connection = db.session.connection()
            done += len(batch.games)
            rate = done / (time.perf_counter() - started)
            print(f"\r  {done:>6} / {games} games ({rate:.0f}/s)", end="", file=sys.stderr)
        print(file=sys.stderr)
        # No ANALYZE: the app never runs it, so the query planner works without statistics
        # here too, as on a family's own database.


# --- measuring ---------------------------------------------------------------------------


def make_app(path: Path, database_url: str | None = None) -> Flask:
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": database_url or f"sqlite:///{path}",
            "SECRET_KEY": "benchmark",
            "WTF_CSRF_ENABLED": False,  # the bench signs in with a plain form post
        },
        instance_path=path.parent / "instance",
    )
    with app.app_context():
        upgrade()
    return app


def measure(call: Callable[[], Any], requests: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU milliseconds of each of `requests` calls, after three warm-up calls.

    The client runs in this process, so its CPU time is the request's: on a shared machine it
    moves far less than the wall clock when other work competes for the cores."""
    for _ in range(3):
        call()
    wall, cpu = [], []
    for _ in range(requests):
        start, start_cpu = time.perf_counter(), time.process_time()
        call()
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return wall, cpu


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--database-url",
        help="a PostgreSQL server (postgresql+psycopg://USER:PASSWORD@HOST/DB): build and "
        "measure in a fresh database there instead of the cached SQLite file",
    )
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=30)
    parser.add_argument("--rebuild", action="store_true", help="build the database again")
    parser.add_argument(
        "--cache", type=Path, default=Path(tempfile.gettempdir()) / "kosci-bench-stats"
    )
    args = parser.parse_args()
    if args.database_url:
        from scratch_database import scratch_database, server_version

        with scratch_database(args.database_url) as database_url:
            print(f"On {server_version(database_url)}, a fresh database.", file=sys.stderr)
            return run(args, database_url)
    return run(args, None)


def run(args: argparse.Namespace, database_url: str | None) -> int:
    args.cache.mkdir(parents=True, exist_ok=True)
    path = args.cache / f"stats-v{DATA_VERSION}-{args.games}.sqlite3"
    if args.rebuild:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
    fresh = database_url is not None or not path.exists()
    app = make_app(path, database_url)
    if fresh:
        where = "the fresh database" if database_url else path
        print(f"Building {args.games} games in {where} …", file=sys.stderr)
        started = time.perf_counter()
        try:
            build_database(app, args.games)
        except BaseException:
            if database_url is None:
                path.unlink(missing_ok=True)
            raise
        print(f"  built in {time.perf_counter() - started:.0f} s", file=sys.stderr)

    with app.app_context():
        account = db.session.scalar(select(Account).where(Account.name == ACCOUNT))
        assert account is not None
        counts = {
            "games": db.session.scalar(select(func.count()).select_from(Game)),
            "seats": db.session.scalar(select(func.count()).select_from(GameSeat)),
            "turns": db.session.scalar(select(func.count()).select_from(Turn)),
        }
        ala = db.session.scalar(select(Player).where(Player.name == "Ala"))
        assert ala is not None
        ala_id = ala.id
        _, token = accounts.create_token(account.id, "bench")
        account_id = account.id

    client = app.test_client()
    # Signed in through the sign-in form: a session is a row on the server now, not just a cookie.
    signed_in = client.post("/logowanie", data={"name": ACCOUNT, "password": "benchmark-password"})
    assert signed_in.status_code == 302, ("sign-in", signed_in.status_code)
    bearer = {"Authorization": f"Bearer {token}"}
    # As `flask --app tracker serve` does before forking its workers (`tracker.cli.settle_heap`):
    # what start-up built is kept out of the garbage collector's full collections.
    settle_heap()

    def get(url: str, **kwargs: Any) -> Callable[[], Any]:
        def call() -> Any:
            response = client.get(url, **kwargs)
            assert response.status_code == 200, (url, response.status_code)
            return response

        return call

    checks: list[tuple[str, Callable[[], Any], float | None]] = [
        ("GET /healthz (baseline)", get("/healthz"), None),
        ("GET /statystyki", get("/statystyki"), PAGE_LIMIT_MS),
        ("GET /statystyki?wariant=triple", get("/statystyki?wariant=triple"), PAGE_LIMIT_MS),
        (
            "GET /statystyki?gracz=…&od=2024-01-01&do=2024-12-31",
            get(f"/statystyki?gracz={ala_id}&od=2024-01-01&do=2024-12-31"),
            PAGE_LIMIT_MS,
        ),
        (f"GET /gracze/{ala_id}/statystyki", get(f"/gracze/{ala_id}/statystyki"), PAGE_LIMIT_MS),
        ("GET /api/v1/stats", get("/api/v1/stats", headers=bearer), API_LIMIT_MS),
        (
            "GET /api/v1/stats?variant=standard&player=Ala&from=…&to=…",
            get(
                "/api/v1/stats?variant=standard&player=Ala&from=2024-01-01&to=2024-12-31",
                headers=bearer,
            ),
            API_LIMIT_MS,
        ),
    ]

    def field_figures_for_everyone() -> None:
        with app.app_context():
            ids = db.session.scalars(select(Player.id).where(Player.account_id == account_id))
            for player_id in list(ids):
                stats.field_figures(account_id, stats.GameFilter(), player_id)

    def every_turn_once() -> None:
        """The floor: one aggregate query that reads every turn once. A statistics page cannot
        do much less than this, so each figure is also given as a multiple of it (machines
        differ; the multiple travels)."""
        with app.app_context():
            db.session.execute(FLOOR_QUERY).one()
            db.session.remove()

    floor_times, floor_cpu = measure(every_turn_once, max(5, args.requests // 3))
    floor = statistics.median(floor_times)
    print(
        f"\nDatabase: {counts['games']} games, {counts['seats']} seats, {counts['turns']} turns"
        f" ({path.stat().st_size / 1e6:.0f} MB), {args.requests} requests each after 3 warm-up\n"
    )
    print(f"Floor (every turn read once: {FLOOR_QUERY.text}): {floor:.1f} ms median\n")
    print(f"| {'what':<58} | median ms | p90 ms | CPU ms | × floor | target | |")
    print(f"|{'-' * 60}|-----------|--------|--------|---------|--------|------|")
    failed = False
    for label, call, limit in checks:
        times, cpu = measure(call, args.requests)
        median = statistics.median(times)
        ok = limit is None or median < limit
        failed |= not ok
        target = f"< {limit:.0f}" if limit else ""
        verdict = "" if limit is None else ("PASS" if ok else "FAIL")
        print(
            f"| {label:<58} | {median:>9.1f} | {percentile(times, 0.9):>6.1f} "
            f"| {statistics.median(cpu):>6.1f} | {median / floor:>7.2f} | {target:>6} "
            f"| {verdict:<4} |"
        )
    times, cpu = measure(field_figures_for_everyone, max(5, args.requests // 3))
    label = "per-field figures of all 6 players (service only, info)"
    print(
        f"| {label:<58} | {statistics.median(times):>9.1f} | {percentile(times, 0.9):>6.1f} "
        f"| {statistics.median(cpu):>6.1f} | {statistics.median(times) / floor:>7.2f} "
        "|        |      |"
    )
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"\nLoad average (1 min) at the end: {load:.2f} on {os.cpu_count()} cores.")
    print("\nPASS" if not failed else "\nFAIL")
    return 1 if failed else 0


if __name__ == "__main__":
    os.environ.pop("DATABASE_URL", None)  # the bench's own file, never the developer's database
    raise SystemExit(main())
