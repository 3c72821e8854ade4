"""How long a fresh `make run` takes to have today's dailies stored: `make run`'s two commands
(migrate, then operations.run: the worker and the closer) on a new SQLite file in a temporary
directory, timed from the first command to the closer's "today's dailies: 7 of 7 ready" line,
then stopped as Ctrl-C stops it.

Run: .venv/bin/python bench/fresh_run.py [--runs N] [--first I] [--budget SECONDS] [--cap N]

Run i (from --first) has a DAILY_SECRET of its own (`bench-fresh-run-<i>`), so the runs stand for
as many days' chains. The budget and the cap are the closer's settings (defaults: the service's). It
prints each run's seconds and how many of today's dailies were certified, then the median and
the worst.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
READY = re.compile(r"today's dailies: (\d+) of (\d+) ready")
STORED = re.compile(r"^\d{4}-\d\d-\d\d \S+: (certified winnable|not certified) \(")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def one_run(index: int, budget: float, cap: int, limit: float) -> tuple[float, int, int]:
    """Seconds to today's dailies, how many were certified, and how many there are."""
    with tempfile.TemporaryDirectory(prefix="fresh-run-") as directory:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_", "REDIS_"))}
        env.update(
            SQLITE_PATH=f"{directory}/db.sqlite3",
            DAILY_SECRET=f"bench-fresh-run-{index}",
            DAILY_SOLVER_BUDGET_SECONDS=str(budget),
            DAILY_CANDIDATE_CAP=str(cap),
            PYTHONUNBUFFERED="1",
        )
        started = time.monotonic()
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
        command = [sys.executable, "-m", "operations.run", "-b", "127.0.0.1", "-p", str(free_port())]
        run = subprocess.Popen(
            [*command, "config.asgi:application"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert run.stdout is not None
        certified = 0

        def too_long(_signum: int, _frame: object) -> None:
            raise TimeoutError

        signal.signal(signal.SIGALRM, too_long)
        signal.alarm(int(limit))
        try:
            for line in run.stdout:
                stored = STORED.match(line)
                if stored and stored.group(1) == "certified winnable":
                    certified += 1
                ready = READY.search(line)
                if ready:
                    return time.monotonic() - started, certified, int(ready.group(2))
            raise SystemExit(f"run {index}: the closer ended before today's dailies were ready")
        except TimeoutError:
            raise SystemExit(f"run {index}: today's dailies were not ready in {limit:.0f} s") from None
        finally:
            signal.alarm(0)
            run.send_signal(signal.SIGINT)
            run.wait(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--first", type=int, default=0, help="the first run's number (its secret)")
    parser.add_argument("--budget", type=float, default=20.0, help="DAILY_SOLVER_BUDGET_SECONDS")
    parser.add_argument("--cap", type=int, default=100, help="DAILY_CANDIDATE_CAP")
    parser.add_argument("--limit", type=float, default=1800.0, help="seconds a run may take before it is a failure")
    args = parser.parse_args()
    if not 1 <= args.runs <= 50 or not 0 < args.budget <= 120 or not 1 <= args.cap <= 1000:
        parser.error("--runs is 1 to 50, --budget 0 to 120, --cap 1 to 1000")
    times: list[float] = []
    for index in range(args.first, args.first + args.runs):
        seconds, certified, total = one_run(index, args.budget, args.cap, args.limit)
        times.append(seconds)
        print(f"run {index}: today's {total} dailies stored in {seconds:.1f} s, {certified} certified", flush=True)
    print(f"median {statistics.median(times):.1f} s, worst {max(times):.1f} s over {len(times)} runs")


if __name__ == "__main__":
    main()
