"""What preparing certified dailies costs: the candidate chain of each daily variant, walked as the
closer walks it (games.dailies.preparation), for a run of dates, without a database.

Run: .venv/bin/python bench/dailies.py [--days N] [--budget SECONDS] [--cap N] [--variants V,...]

For each variant it prints how many dailies were certified, the candidates tried per daily, and
the solver's seconds per daily (mean and worst) and per candidate by verdict, on one core. The
secret is a fixed bench secret, so a run is repeatable up to the solver's budget (an "unknown"
depends on the machine's speed).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from games.dailies.schedule import daily_number  # noqa: E402
from games.engine import DAILY_VARIANTS, GameCode  # noqa: E402
from games.solver import solve  # noqa: E402

SECRET = "dev-insecure-bench-daily"  # a fixed key, so that a run is repeatable
FIRST_DATE = dt.date(2026, 1, 1)


def walk(date: dt.date, variant: str, budget: float, cap: int) -> tuple[bool, list[tuple[str, float]]]:
    """Whether the chain of `date` certifies within `cap`, and each candidate's verdict and seconds."""
    tried: list[tuple[str, float]] = []
    for k in range(cap):
        code = GameCode.from_variant(variant, daily_number(SECRET, date, variant, k), long=True)
        started = time.perf_counter()
        solution = solve(code, budget)
        tried.append((solution.status, time.perf_counter() - started))
        if solution.status == "won":
            return True, tried
    return False, tried


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--days", type=int, default=5)
    parser.add_argument(
        "--budget", type=float, default=20.0, help="seconds per candidate (DAILY_SOLVER_BUDGET_SECONDS)"
    )
    parser.add_argument("--cap", type=int, default=100, help="candidates per daily (DAILY_CANDIDATE_CAP)")
    parser.add_argument("--variants", default=",".join(DAILY_VARIANTS))
    args = parser.parse_args()
    variants = [v.strip().upper() for v in args.variants.split(",") if v.strip()]
    if not 1 <= args.days <= 366 or not 0 < args.budget <= 600 or not 1 <= args.cap <= 1000:
        parser.error("--days 1-366, --budget above 0 up to 600, --cap 1-1000")
    unknown = [v for v in variants if v not in DAILY_VARIANTS]
    if unknown:
        parser.error(f"not daily variants: {unknown}; the dailies are {', '.join(DAILY_VARIANTS)}")
    print(f"dates from {FIRST_DATE}, {args.days} days; budget {args.budget:g} s per candidate, cap {args.cap}")
    head = f"{'variant':8} {'certified':>9} {'cand/daily':>10} {'s/daily':>8} {'worst s':>8}"
    print(f"{head}  seconds per candidate by verdict")
    for variant in variants:
        certified = 0
        per_daily: list[float] = []
        counts: list[int] = []
        by_verdict: dict[str, list[float]] = {}
        for offset in range(args.days):
            won, tried = walk(FIRST_DATE + dt.timedelta(days=offset), variant, args.budget, args.cap)
            certified += won
            counts.append(len(tried))
            per_daily.append(sum(seconds for _, seconds in tried))
            for verdict, seconds in tried:
                by_verdict.setdefault(verdict, []).append(seconds)
        verdicts = Counter({v: len(s) for v, s in by_verdict.items()})
        detail = ", ".join(f"{v} {verdicts[v]}x mean {statistics.mean(s):.2f}" for v, s in sorted(by_verdict.items()))
        print(
            f"{variant:8} {certified:>4}/{args.days:<4} {statistics.mean(counts):>10.1f} "
            f"{statistics.mean(per_daily):>8.2f} {max(per_daily):>8.2f}  {detail}"
        )


if __name__ == "__main__":
    main()
