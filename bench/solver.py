"""Certification rates of the solver: how many fixed deals of each variant it wins, proves lost or gives up on.

Run: .venv/bin/python bench/solver.py [--budget SECONDS] [--deals N] [--variants SP1-S4C,RU1-C,...]

The deals are long codes, the same on every run: deal k of a variant is
HMAC-SHA256(key "bench/solver", message "variant|k") mod 26^20, as the
dailies derive theirs (docs/codes.md). Each deal gets the
whole budget on one core; the figures per variant are the counts of won,
unwinnable and unknown, and the median and longest time over all its deals
(an unknown costs the whole budget).
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import ALL_VARIANTS, LONG_DEAL_NUMBERS, GameCode, parse_variant  # noqa: E402
from games.solver import solve  # noqa: E402

KEY = b"bench/solver"


def deal(variant: str, k: int) -> GameCode:
    """The ``k``-th fixed deal of ``variant``."""
    digest = hmac.new(KEY, f"{variant}|{k}".encode(), hashlib.sha256).digest()
    return GameCode.from_variant(variant, int.from_bytes(digest, "big") % LONG_DEAL_NUMBERS, long=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=20.0, help="seconds per deal")
    parser.add_argument("--deals", type=int, default=20, help="deals per variant")
    parser.add_argument("--variants", default=",".join(ALL_VARIANTS), help="comma-separated, e.g. SP1-S4C,RU1-C")
    parser.add_argument("--verbose", action="store_true", help="one line per deal")
    args = parser.parse_args()
    if not 0 < args.budget <= 600 or not 1 <= args.deals <= 1000:
        parser.error("--budget is 0-600 s and --deals 1-1000")
    variants = [parse_variant(v) for v in args.variants.split(",") if v.strip()]
    print(f"solver: {args.deals} deals per variant, budget {args.budget:g} s each, one core")
    print(f"{'variant':<8} {'won':>4} {'lost':>4} {'unkn':>4}  {'median':>8} {'longest':>8}  {'nodes/s':>8}  par")
    began = time.monotonic()
    for variant in variants:
        counts = {"won": 0, "unwinnable": 0, "unknown": 0}
        seconds: list[float] = []
        pars: list[int] = []
        nodes = 0
        for k in range(args.deals):
            code = deal(variant, k)
            solution = solve(code, args.budget)
            counts[solution.status] += 1
            seconds.append(solution.seconds)
            nodes += solution.nodes
            if solution.par is not None:
                pars.append(solution.par)
            if args.verbose:
                print(f"  {code} {solution.status:<10} {solution.seconds:7.2f} s {solution.nodes:>8} nodes", flush=True)
        rate = nodes / max(sum(seconds), 1e-9)
        par = f"median {statistics.median(pars):.0f}" if pars else "-"
        print(
            f"{variant:<8} {counts['won']:>4} {counts['unwinnable']:>4} {counts['unknown']:>4}"
            f"  {statistics.median(seconds):7.3f}s {max(seconds):7.3f}s  {rate:>8.0f}  {par}",
            flush=True,
        )
    print(f"total {time.monotonic() - began:.1f} s")


if __name__ == "__main__":
    main()
