"""Batch verification: `POST /api/submissions` of real 300-action logs from many clients.

Run: .venv/bin/python bench/submissions.py --clients 50 --count 3000 --length 300

Builds legal logs with the engine (seeded random play biased to progress, as
bench/engine.py, with take-backs where a game jams) on distinct deals, then
`--clients` concurrent clients, each its own player, post them over
keep-alive HTTP spread over the daphne workers. Prints verified/s and the
p50/p95/p99 answer time, the CPU each process spent per submission, and
the engine's own share: the time to replay the same logs in this process.

`--in-process` runs no worker: the application itself (config.asgi) serves the same submissions
in this process, through ASGI without HTTP, and the CPU this process spends a submission is
printed: the application's own work, without the HTTP server, and one process to profile
(`py-spy record -- python bench/submissions.py --in-process`) whose samples no other worker's
preemption blurs. Its runs still spread by about 7% on a shared host (bench/README.md), and it is
not comparable with the full run's figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp  # noqa: E402

from bench import profile  # noqa: E402
from bench.engine import weight  # noqa: E402
from bench.stack import CpuMeter, Stack, headers, make_players, summary  # noqa: E402
from games.engine import ALL_VARIANTS, Game, GameCode, replay  # noqa: E402

VARIANTS = [v for v in ALL_VARIANTS if v != "RU1-R"]


def legal_log(code: GameCode, length: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    game = Game.from_code(code)
    tokens: list[str] = []
    while len(tokens) < length and not game.won:
        legal = game.legal_actions()
        if not legal:
            break
        action = rng.choices(legal, [weight(game, a) for a in legal])[0]
        game.push(action)
        tokens.append(str(action))
    return tokens


def build_logs(count: int, length: int) -> list[tuple[str, list[str]]]:
    logs: list[tuple[str, list[str]]] = []
    k = 0
    while len(logs) < count:
        k += 1
        code = GameCode.from_variant(VARIANTS[k % len(VARIANTS)], (104729 * k) % 26**7)
        tokens = legal_log(code, length, seed=k)
        if len(tokens) == length:
            logs.append((str(code), tokens))
    return logs


async def drive(stack: Stack, tokens: list[str], logs: list[tuple[str, list[str]]], args: argparse.Namespace) -> int:
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    # Bodies encoded before the clock starts: the driver shares the cores with the server.
    queue = [json.dumps({"code": code, "moves": moves}).encode() for code, moves in reversed(logs)]
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=60)) as http:

        async def client(n: int) -> None:
            url = f"{stack.http(n)}/api/submissions"
            sent = {**headers(tokens[n]), "Content-Type": "application/json"}
            while queue:
                body = queue.pop()
                t0 = time.perf_counter()
                async with http.post(url, data=body, headers=sent) as r:
                    await r.read()
                    statuses[r.status] = statuses.get(r.status, 0) + 1
                    if r.status == 201:
                        latencies.append(time.perf_counter() - t0)

        # one warm-up submission per client (connections, first queries), then the measured run
        warm = [queue.pop() for _ in range(min(args.clients, len(queue)))]
        saved, queue[:] = list(queue), list(reversed(warm))
        await asyncio.gather(*(client(n) for n in range(args.clients)))
        queue[:] = saved
        latencies.clear()
        statuses.clear()
        runs = profile.start(stack.pids(), args.profile_seconds, Path(args.profile_dir)) if args.profile else None
        meter = CpuMeter(stack)
        t0 = time.perf_counter()
        await asyncio.gather(*(client(n) for n in range(args.clients)))
        seconds = time.perf_counter() - t0
        cpu = meter.report(len(latencies), "submission")
    print(
        f"\nbatch verification, {args.clients} clients, {len(logs) - len(warm):,} logs of {args.length} actions, "
        f"{args.workers} daphne workers"
    )
    print(summary("  verified submissions (201)", latencies, seconds=seconds))
    print(f"  statuses {statuses}")
    print("  " + cpu)
    if runs is not None:
        print(profile.summarize(profile.finish(runs)))
    return 0 if set(statuses) == {201} else 1


async def drive_in_process(logs: list[tuple[str, list[str]]], token: str, args: argparse.Namespace) -> int:
    """The submissions served by the application in this process (`--in-process`)."""
    from config.asgi import application

    statuses: dict[int, int] = {}
    bodies = [json.dumps({"code": code, "moves": moves}).encode() for code, moves in reversed(logs)]
    fixed = [
        (b"host", b"127.0.0.1"),
        (b"authorization", f"Token {token}".encode()),
        (b"content-type", b"application/json"),
    ]

    async def submit(body: bytes) -> None:
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": "/api/submissions",
            "raw_path": b"/api/submissions",
            "query_string": b"",
            "root_path": "",
            "headers": [*fixed, (b"content-length", str(len(body)).encode())],
            "client": ("127.0.0.1", 40000),
            "server": ("127.0.0.1", 8000),
        }
        messages = [{"type": "http.request", "body": body, "more_body": False}]

        async def receive() -> dict[str, object]:
            if messages:
                return messages.pop()
            await asyncio.Event().wait()  # never disconnects
            raise AssertionError

        async def send(message: dict[str, object]) -> None:
            if message["type"] == "http.response.start":
                status = int(message["status"])  # type: ignore[call-overload]
                statuses[status] = statuses.get(status, 0) + 1

        await application(scope, receive, send)

    async def clients(queue: list[bytes]) -> None:
        async def client() -> None:
            while queue:
                await submit(queue.pop())

        await asyncio.gather(*(client() for _ in range(args.clients)))

    await clients(bodies[-args.clients :])  # warm-up: connections, first queries
    del bodies[-args.clients :]
    statuses.clear()
    cpu, t0 = time.process_time(), time.perf_counter()
    count = len(bodies)
    await clients(bodies)
    cpu, seconds = time.process_time() - cpu, time.perf_counter() - t0
    print(f"\nbatch verification in this process, {args.clients} concurrent, {count:,} logs of {args.length} actions")
    print(f"  {count / seconds:,.0f}/s; cpu {cpu / count * 1e6:,.0f} us/submission (this process, no HTTP server)")
    print(f"  statuses {statuses}")
    return 0 if set(statuses) == {201} else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--count", type=int, default=3000, help="measured submissions")
    parser.add_argument("--length", type=int, default=300)
    parser.add_argument("--workers", type=int, default=3, help="daphne processes (cores + 1, as for play)")
    parser.add_argument("--conn-max-age", type=int, default=0, help="DB_CONN_MAX_AGE of the workers")
    parser.add_argument("--in-process", action="store_true", help="serve them in this process (module docstring)")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--profile-seconds", type=float, default=8.0)
    parser.add_argument("--profile-dir", default="/tmp/bench_profile_submissions")
    args = parser.parse_args()
    if args.clients > 500 or args.count > 50_000:
        parser.error("bounded load: at most 500 clients and 50,000 submissions")
    t0 = time.perf_counter()
    logs = build_logs(args.count + args.clients, args.length)
    built = time.perf_counter() - t0
    t0 = time.perf_counter()
    for code, moves in logs:
        assert replay(code, moves).ok
    engine_s = time.perf_counter() - t0
    actions = sum(len(m) for _, m in logs)
    print(
        f"built {len(logs):,} legal logs of {args.length} actions in {built:.1f} s; the engine alone replays them "
        f"at {len(logs) / engine_s:,.0f} logs/s ({actions / engine_s:,.0f} actions/s) on one core"
    )
    workers = 0 if args.in_process else args.workers
    with Stack(workers=workers, conn_max_age=args.conn_max_age, time_limit=180 + args.count / 20) as stack:
        stack.django()
        tokens = [token for _, token in make_players(args.clients)]
        if args.in_process:
            return asyncio.run(drive_in_process(logs, tokens[0], args))
        return asyncio.run(drive(stack, tokens, logs, args))


if __name__ == "__main__":
    sys.exit(main())
