"""Refereed play over WebSockets: open loop at a fixed offered rate, or saturated.

Run:
  .venv/bin/python bench/play.py --players 200 --rate 5 --duration 30            # 1,000 actions/s offered
  .venv/bin/python bench/play.py --players 200 --saturate --duration 20 --profile # as fast as answered
  .venv/bin/python bench/play.py --players 200 --rate 5 --duration 15 --via both  # direct, then through nginx

Starts the stack (bench/stack.py: its own database, `--workers` daphne
processes), makes the players straight in the database, starts one session
per player over HTTP and plays legal actions on `/ws/play/{id}/`. Open loop:
every player sends `--rate` actions a second on a clock and never waits for
an answer. Saturated: every player sends its next action as soon as the last
one is answered. Prints count, throughput and p50/p95/p99 of the answer time
of the actions sent inside the measured window (after `--warmup`), the
errors, the CPU each process used per action, and with `--profile` where the
workers' time goes (py-spy). `--via balancer` sends every client through nginx
in front of the workers (deploy/nginx, as `make cluster` runs it); `--via both`
plays the same load direct and then through nginx on the same stack, in one
sitting, and prints what the balancer costs.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp  # noqa: E402

from bench import profile  # noqa: E402
from bench.players import Bot, Tally, start_sessions  # noqa: E402
from bench.stack import CpuMeter, Stack, make_players, percentile, summary  # noqa: E402


async def drive(
    stack: Stack, tokens: list[str], ready: list[list[tuple[str, str]]], args: argparse.Namespace
) -> tuple[int, dict[str, float]]:
    tally = Tally()
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=60)) as http:
        bots = [Bot(n, token, stack, http, tally, ready[n]) for n, token in enumerate(tokens)]
        gate = asyncio.Semaphore(20)

        async def opened(bot: Bot) -> None:
            async with gate:
                await bot.open()

        t0 = time.perf_counter()
        await asyncio.gather(*(opened(bot) for bot in bots))
        print(f"{len(bots)} players each on a session and a play socket in {time.perf_counter() - t0:.1f} s")

        start = time.perf_counter() + 0.2
        tally.window = (start + args.warmup, start + args.warmup + args.duration)
        end = tally.window[1]
        profiling = None
        if args.profile:
            profiling = _profile_later(stack, args, tally.window[0])
        meter_box: list[CpuMeter] = []

        async def meter_at_window() -> None:
            await asyncio.sleep(max(0.0, tally.window[0] - time.perf_counter()))
            meter_box.append(CpuMeter(stack))

        meter_task = asyncio.create_task(meter_at_window())
        if args.saturate:
            work = [bot.closed_loop(end) for bot in bots]
        else:
            work = [bot.open_loop(args.rate, start, end) for bot in bots]
        await asyncio.gather(*work)
        cpu = meter_box[0].report(tally.received) if meter_box else ""
        await meter_task
        await asyncio.gather(*(bot.drain(10.0) for bot in bots))
        unanswered = sum(len(bot.pending) for bot in bots)
        await asyncio.gather(*(bot.close() for bot in bots))

    offered = "saturated (closed loop)" if args.saturate else f"open loop, {args.players * args.rate:,.0f}/s offered"
    via = "through nginx" if stack.through_balancer else "direct to the workers"
    print(
        f"\nrefereed play {via}, {args.players} players, {args.workers} daphne workers, {offered}, "
        f"{args.duration:.0f} s measured after {args.warmup:.0f} s warm-up"
    )
    print(summary("  answered actions", tally.latencies, seconds=args.duration))
    lags = sorted(tally.lags)
    if lags:
        print(f"  driver lateness behind its clock: p99 {percentile(lags, 99) * 1000:.2f} ms")
    print(f"  answers received inside the window: {tally.received:,} = {tally.received / args.duration:,.0f} actions/s")
    sizes = sorted(tally.sizes)
    if sizes:
        print(
            f"  bytes of an answer: median {percentile(sizes, 50):,.0f}, p95 {percentile(sizes, 95):,.0f}, "
            f"mean {sum(sizes) / len(sizes):,.0f} ({sum(sizes) / 1e6 / args.duration:,.2f} MB/s)"
        )
    print(
        f"  sent in window {tally.sent:,}, answered {tally.answered:,}, unanswered {unanswered}, "
        f"errors {dict(tally.errors) or 0}, sessions {tally.sessions}"
    )
    if cpu:
        print("  " + cpu)
    if profiling is not None:
        files = profile.finish(await profiling)
        print(profile.summarize(files))
    latencies = sorted(tally.latencies)
    figures = {
        "p50": percentile(latencies, 50) * 1000,
        "p99": percentile(latencies, 99) * 1000,
        "rate": tally.received / args.duration,
        **(meter_box[0].per_work if meter_box else {}),
    }
    return (0 if unanswered == 0 and not tally.errors else 1), figures


def _profile_later(stack: Stack, args: argparse.Namespace, at: float) -> asyncio.Task[list]:
    async def later() -> list:
        await asyncio.sleep(max(0.0, at - time.perf_counter()))
        return profile.start(stack.pids(), args.duration, Path(args.profile_dir))

    return asyncio.create_task(later())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rate", type=float, default=5.0, help="actions a second per player (open loop)")
    parser.add_argument("--saturate", action="store_true", help="closed loop: act as soon as answered")
    parser.add_argument("--duration", type=float, default=30.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=3.0)
    # Three on two cores: one process is held back by its own GIL (loop + socket threads) before the
    # cores are full, so a third spreads the work (p99 at 1,000/s: 27-43 ms, against 39-84 with two).
    parser.add_argument("--workers", type=int, default=3, help="daphne processes")
    parser.add_argument("--conn-max-age", type=int, default=600, help="DB_CONN_MAX_AGE of the workers")
    parser.add_argument("--sessions-each", type=int, default=3, help="sessions started per player beforehand")
    parser.add_argument("--profile", action="store_true", help="py-spy the workers over the window")
    parser.add_argument("--profile-dir", default="/tmp/bench_profile")
    parser.add_argument(
        "--via",
        choices=("direct", "balancer", "both"),
        default="direct",
        help="clients to the workers, or through nginx",
    )
    args = parser.parse_args()
    if args.players > 2000 or args.duration > 300 or args.rate > 100:
        parser.error("bounded load: at most 2,000 players, 300 s and 100 actions/s each")
    phases = ["direct", "balancer"] if args.via == "both" else [args.via]
    budget = (120 + args.warmup + args.duration + args.players * 0.1) * len(phases)
    with Stack(workers=args.workers, conn_max_age=args.conn_max_age, time_limit=budget) as stack:
        stack.django()
        if "balancer" in phases:
            stack.start_balancer()
        players = make_players(args.players)
        status, seen = 0, {}
        for phase in phases:
            stack.through_balancer = phase == "balancer"
            ready = start_sessions([pk for pk, _ in players], args.sessions_each)
            code, seen[phase] = asyncio.run(drive(stack, [token for _, token in players], ready, args))
            status = status or code
        if len(phases) == 2:
            print(_balancer_cost(seen["direct"], seen["balancer"]))
        return status


def _balancer_cost(direct: dict[str, float], balanced: dict[str, float]) -> str:
    """What going through nginx cost, beside direct connections in the same sitting."""
    lines = ["\nthe balancer's cost (through nginx minus direct, same stack, same sitting):"]
    lines.append(
        f"  answer time: p50 {direct['p50']:.2f} -> {balanced['p50']:.2f} ms ({balanced['p50'] - direct['p50']:+.2f}), "
        f"p99 {direct['p99']:.2f} -> {balanced['p99']:.2f} ms ({balanced['p99'] - direct['p99']:+.2f})"
    )
    lines.append(f"  answered: {direct['rate']:,.0f}/s -> {balanced['rate']:,.0f}/s")
    cpu = [
        f"{name} {direct.get(name, 0.0):,.0f} -> {balanced.get(name, 0.0):,.0f} us/action"
        for name in ("daphne", "nginx", "postgres", "driver")
    ]
    lines.append("  cpu: " + "; ".join(cpu))
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
