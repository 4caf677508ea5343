"""Where a turn's server CPU goes, sampled in the real server under load: py-spy on granian.

    .venv/bin/pip install py-spy        # once (or: pip install -e '.[bench]')
    .venv/bin/python bench/spy_turns.py [--seconds 15] [--top 40] [--raw out.txt]

Starts `bench/turns.py --lean --phases turns` (the production server as `serve` runs it, four
clients writing turns), attaches `py-spy record --gil --subprocesses` to the server for
`--seconds`, and prints, for the samples taken inside a request (`wsgi_app`), each function's
inclusive share: the share of the time holding the GIL, that is of the Python work, spent in it
or below it. C work that releases the GIL (SQLite, granian's Rust, the kernel) is not sampled,
so the shares over-weight Python against `bench/turns.py`'s CPU per turn; they say where the
Python goes. `bench/profile_turns.py` gives the same by stage through the test client.
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def server_pid(bench: subprocess.Popen[str], timeout: float = 60.0) -> int:
    """The server's pid, as bench/turns.py prints it once the server answers."""
    assert bench.stdout is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = bench.stdout.readline()
        if not line:
            break
        match = re.match(r"server pid: (\d+)", line)
        if match:
            return int(match.group(1))
    raise SystemExit("bench/turns.py did not report its server")


def shares(raw: Path, only: str) -> tuple[int, list[tuple[str, float]]]:
    """(samples inside a request, [(function, inclusive share)]) from py-spy's raw output."""
    inclusive: collections.Counter[str] = collections.Counter()
    total = 0
    for line in raw.read_text().splitlines():
        if not line.strip():
            continue
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue  # a line py-spy cut short
        frames = stack.split(";")
        if not any("wsgi_app" in frame for frame in frames):
            continue  # an idle thread, or granian's own work
        total += int(count)
        for frame in {re.sub(r":\d+\)$", ")", frame) for frame in frames}:
            inclusive[frame] += int(count)
    rows = [(f, 100 * n / total) for f, n in inclusive.most_common() if only in f]
    return total, rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--only", default="tracker/", help="show functions whose file matches")
    parser.add_argument("--raw", type=Path, help="keep py-spy's raw samples here")
    args = parser.parse_args()
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(spy).exists():
        print("py-spy is not installed: .venv/bin/pip install py-spy", file=sys.stderr)
        return 2
    command = [sys.executable, str(ROOT / "bench" / "turns.py"), "--lean", "--phases", "turns"]
    command += ["--rounds", "1", "--seconds", str(args.seconds + 20)]
    # Its own session: the server and the clients it forks stop with it.
    bench = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        pid = server_pid(bench)
        time.sleep(8)  # the clients start and warm up
        with tempfile.TemporaryDirectory() as tmp:
            raw = args.raw or Path(tmp) / "raw.txt"
            subprocess.run(
                [spy, "record", "-p", str(pid), "--subprocesses", "--gil", "--nonblocking"]
                + ["-r", "300", "-d", str(int(args.seconds)), "-f", "raw", "-o", str(raw)],
                check=True,
                capture_output=True,
            )
            total, rows = shares(raw, args.only)
    finally:
        os.killpg(bench.pid, signal.SIGTERM)
        bench.wait(timeout=60)
    print(f"{total} samples inside requests; inclusive share of the Python work:")
    for function, share in rows[: args.top]:
        print(f"  {share:5.1f}%  {function}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
