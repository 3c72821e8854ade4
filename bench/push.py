"""Live push: one verified result, `--subscribers` WebSocket watchers on its board, all must hear it.

Run: .venv/bin/python bench/push.py --subscribers 5000 --rounds 5

Opens the watchers on `/ws/leaderboards/{board}/` spread over the daphne
workers (each first gets its snapshot), held by `--drivers` driver processes
of bare WebSocket clients (bench/watchers.py: no JSON decode, no task per
socket, so reading 5,000 sockets is not the driver's bottleneck). Then,
`--rounds` times and a second apart, a new player posts a verified log for
the board's deal with `POST /api/submissions`. The time of each watcher is
from the moment the POST was sent to the moment its `change` arrived (one
monotonic clock for every process). Prints count, p50/p95/p99 over all
watchers and rounds, the time from the first watcher to the last in each
round (the fan-out without the POST), how many watchers missed a round, and
the CPU of the workers, PostgreSQL, Redis and the driver per frame delivered
over the counted rounds (the POSTs and the open sockets' idle upkeep included).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp  # noqa: E402

from bench.stack import CpuMeter, Stack, make_players, summary  # noqa: E402
from bench.submissions import legal_log  # noqa: E402
from bench.watchers import Crowd  # noqa: E402
from games.engine import GameCode  # noqa: E402

CODE = GameCode.from_variant("SP1-S2C", 424_242)
BOARD = f"code:{CODE}"


async def drive(stack: Stack, tokens: list[str], crowds: list[Crowd], args: argparse.Namespace) -> int:
    code, board = CODE, BOARD
    warm = len(stack.ports)  # one uncounted round per worker: a cold process's first result is not push
    rounds = args.rounds + warm
    logs = [legal_log(code, 40 + 10 * r, seed=r) for r in range(rounds)]
    sent_at = [0.0] * rounds
    t0 = time.perf_counter()
    watchers = sum(crowd.opened() for crowd in crowds)
    print(
        f"{watchers:,} watchers on {board} across {len(stack.ports)} daphne workers and {args.drivers} driver "
        f"processes, snapshots received, in {time.perf_counter() - t0:.1f} s"
    )
    meter: CpuMeter | None = None
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=120)) as http:
        for r in range(rounds):
            await asyncio.sleep(1.0)  # past the coalescing window: each round is one change
            if r == warm:
                meter = CpuMeter(stack, driver=[crowd.process.pid or 0 for crowd in crowds])
            sent_at[r] = time.perf_counter()
            async with http.post(
                f"{stack.http(r)}/api/submissions",
                json={"code": str(code), "moves": logs[r]},
                headers={"Authorization": f"Token {tokens[r]}"},
            ) as resp:
                assert resp.status == 201, await resp.text()
            post_ms = (time.perf_counter() - sent_at[r]) * 1000
            deadline = time.perf_counter() + args.wait
            while (heard := sum(crowd.heard(r + 1) for crowd in crowds)) < watchers and time.perf_counter() < deadline:
                await asyncio.sleep(0.01)
            label = f"{r} (warm-up)" if r < warm else str(r)
            print(f"  round {label}: POST answered in {post_ms:.1f} ms, {heard:,}/{watchers:,} watchers heard it")
    cpu = meter.report(watchers * args.rounds, "frame delivered") if meter is not None else ""
    heard_at = [times for crowd in crowds for times in crowd.times()]
    everything = [times[r] - sent_at[r] for times in heard_at for r in range(warm, min(rounds, len(times)))]
    missed = sum(max(0, rounds - len(times)) for times in heard_at)
    # From the first watcher to the last in each round: the fan-out itself, without the POST's own time.
    spreads = []
    for r in range(warm, rounds):
        arrived = [times[r] for times in heard_at if len(times) > r]
        if arrived:
            spreads.append((max(arrived) - min(arrived)) * 1000)
    print(f"\nlive push: {args.subscribers:,} watchers, {args.rounds} verified results, {args.workers} daphne workers")
    print(summary("  change received (from the POST being sent)", everything))
    print(f"  first to last watcher in each round: {', '.join(f'{ms:.0f}' for ms in spreads)} ms")
    print(f"  missed: {missed}")
    if cpu:
        print("  " + cpu)
    return 0 if missed == 0 else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--subscribers", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--workers", type=int, default=3, help="daphne processes (cores + 1, as for play)")
    parser.add_argument("--wait", type=float, default=10.0, help="seconds a round waits for every watcher")
    parser.add_argument("--drivers", type=int, default=2, help="driver processes holding the watchers")
    args = parser.parse_args()
    if args.subscribers > 5000 or args.rounds > 50 or not 1 <= args.drivers <= 8:
        parser.error("bounded load: at most 5,000 watchers, 50 rounds and 8 driver processes")
    with Stack(workers=args.workers, conn_max_age=0, time_limit=180 + args.subscribers / 20) as stack:
        stack.django()
        tokens = [token for _, token in make_players(args.rounds + args.workers)]
        numbers = list(range(args.subscribers))
        path = f"/ws/leaderboards/{BOARD}/"
        # Started before this process's event loop: a forked child runs a loop of its own.
        crowds = [Crowd(stack.ports, path, numbers[k :: args.drivers]) for k in range(args.drivers)]
        return asyncio.run(drive(stack, tokens, crowds, args))


if __name__ == "__main__":
    sys.exit(main())
