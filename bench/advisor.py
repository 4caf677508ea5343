"""The advisor's speed: what `POST /api/v1/advice` adds to `/api/v1/score`, a 6-player game's
review page, and the first load of each optimal-play table in a fresh worker process.

    .venv/bin/python bench/advisor.py [--requests 400]

1. In-process through the Flask test client (what the server spends, no network): the same
   bodies (sheets of a game in progress, dice) to `/api/v1/score` and `/api/v1/advice`,
   interleaved, median and 90th percentile of wall clock and CPU per request. Target: advice
   adds at most 1 ms to score.
2. The review page `/gry/<id>/przeglad` of a finished 6-player game, standard and triple (the
   largest game: 234 turns), signed in: median of `--requests // 10` renders. Target: under
   50 ms each.
3. The first load of every table (`store.table(key)`, then one `advise`) in a fresh Python
   process, ten processes each: the worst. Target: under 100 ms.

Exit status 0 when every target is met. Machines differ: run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tracker import create_app, rules  # noqa: E402
from tracker.advisor.specs import SPECS  # noqa: E402

SEED = 20261201


def _bodies(count: int) -> list[dict[str, Any]]:
    """Sheets met in real games: random games of the standard table cut at a random turn."""
    rng = random.Random(SEED)
    variant = rules.find_table_variant("standard")
    bodies = []
    while len(bodies) < count:
        sheet = rules.empty_sheet(variant)
        cut = rng.randrange(13)
        for _ in range(cut):
            dice = tuple(sorted(rng.randint(1, 6) for _ in range(5)))
            move = max(rules.evaluate(variant, sheet, dice).moves, key=lambda m: m.gain)
            sheet, _ = rules.play(variant, sheet, dice, move.field, move.column)
        col = sheet[0]
        body = {"variant": "standard", "sheet": [dict(col.cells, extra_bonus=col.extra_bonus)]}
        body["dice"] = [rng.randint(1, 6) for _ in range(5)]
        bodies.append(body)
    return bodies


def _time(call: Callable[[], Any]) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    call()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def _summary(samples: list[float]) -> str:
    ordered = sorted(samples)
    p90 = ordered[int(len(ordered) * 0.9) - 1]
    return f"median {statistics.median(ordered):6.3f} ms, p90 {p90:6.3f} ms"


def bench_api(app: Any, requests: int) -> bool:
    client = app.test_client()
    bodies = _bodies(requests)
    results: dict[str, list[tuple[float, float]]] = {"score": [], "advice": []}
    for warm in bodies[:20]:
        for name in results:
            assert client.post(f"/api/v1/{name}", json=warm).status_code == 200
    for body in bodies:
        for name in results:

            def post(name: str = name, body: dict[str, Any] = body) -> None:
                response = client.post(f"/api/v1/{name}", json=body)
                assert response.status_code == 200, response.get_data(as_text=True)

            results[name].append(_time(post))
    medians = {}
    for name, samples in results.items():
        wall = [w for w, _ in samples]
        cpu = [c for _, c in samples]
        medians[name] = statistics.median(cpu)
        print(f"POST /api/v1/{name:7s} wall {_summary(wall)}; CPU {_summary(cpu)}")
    added = medians["advice"] - medians["score"]
    ok = added <= 1.0
    print(
        f"advice adds {added:.3f} ms of CPU to score (target ≤ 1 ms): {'met' if ok else 'NOT met'}"
    )
    return ok


def bench_review(app: Any, renders: int) -> bool:
    from tracker.extensions import db
    from tracker.services import accounts, games

    ok = True
    with app.app_context():
        account = accounts.create_account("Benchmark", "benchmark-password-1")
        account_id = account.id
        ids = {}
        rng = random.Random(SEED)
        for variant_id in ("standard", "triple"):
            names = [f"Gracz {i}" for i in range(1, 7)]
            game = games.create_game(account_id, variant_id, names)
            variant = rules.find_table_variant(variant_id)
            sheets = [rules.empty_sheet(variant) for _ in names]
            seq = 0
            for _ in range(variant.turns):
                for seat in range(len(names)):
                    dice = tuple(sorted(rng.randint(1, 6) for _ in range(5)))
                    move = max(
                        rules.evaluate(variant, sheets[seat], dice).moves, key=lambda m: m.gain
                    )
                    sheets[seat], _ = rules.play(
                        variant, sheets[seat], dice, move.field, move.column
                    )
                    games.record_turn(account_id, game.id, list(dice), move.field, move.column)
                    seq += 1
            ids[variant_id] = game.id
        db.session.remove()
    client = app.test_client()
    response = client.post(
        "/logowanie",
        data={"name": "Benchmark", "password": "benchmark-password-1"},
    )
    assert response.status_code in (302, 303), response.status_code
    for variant_id, game_id in ids.items():
        url = f"/gry/{game_id}/przeglad"
        for _ in range(3):
            assert client.get(url).status_code == 200
        samples = [_time(lambda url=url: client.get(url)) for _ in range(renders)]
        wall = [w for w, _ in samples]
        median = statistics.median(wall)
        met = median < 50
        ok = ok and met
        print(
            f"review of a 6-player {variant_id:8s} game: wall {_summary(wall)}"
            f" (target < 50 ms): {'met' if met else 'NOT met'}"
        )
    return ok


FIRST_LOAD = """
import json, sys, time
from tracker import advisor, rules
from tracker.advisor import store
key = sys.argv[1]
spec = __import__("tracker.advisor.specs", fromlist=["SPECS"]).SPECS[key]
t = time.perf_counter()
store.table(key)
loaded = time.perf_counter() - t
vid = spec.variant.id
variant = rules.find_table_variant("triple" if vid == "triple-column" else vid)
t = time.perf_counter()
advisor.advise(variant, rules.empty_sheet(variant), (1, 2, 3, 4, 5),
               rules.Options(bonus_threshold=spec.threshold))
print(json.dumps({"load": loaded * 1000, "advise": (time.perf_counter() - t) * 1000}))
"""


def bench_first_load(processes: int = 10) -> bool:
    ok = True
    for key in SPECS:
        loads, advises = [], []
        for _ in range(processes):
            out = subprocess.run(
                [sys.executable, "-c", FIRST_LOAD, key],
                check=True,
                capture_output=True,
                text=True,
                cwd=ROOT,
            ).stdout
            found = json.loads(out)
            loads.append(found["load"])
            advises.append(found["advise"])
        worst = max(m + a for m, a in zip(loads, advises, strict=True))
        met = worst < 100
        ok = ok and met
        print(
            f"first load {key:17s}: map+check median {statistics.median(loads):6.2f} ms, "
            f"first advise median {statistics.median(advises):6.2f} ms, worst sum "
            f"{worst:6.2f} ms (target < 100 ms): {'met' if met else 'NOT met'}"
        )
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=400)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(tmp) / 'bench.sqlite3'}",
                "SECRET_KEY": "bench",
                "WTF_CSRF_ENABLED": False,
                "RATELIMIT_ENABLED": False,
            }
        )
        with app.app_context():
            from tracker.extensions import db

            db.create_all()
        ok = bench_api(app, args.requests)
        ok = bench_review(app, max(10, args.requests // 10)) and ok
    ok = bench_first_load() and ok
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
