"""What a play action costs beyond the server's floor: three sockets side by side on one worker.

Run:
  .venv/bin/python bench/floor.py --clients 100 --duration 10

One daphne worker (bench/stack.py) serves the service plus three echo sockets
(bench/floor_asgi.py). In turn, `--clients` clients send as fast as they are
answered (closed loop) to:

  raw    a bare ASGI WebSocket loop: daphne, twisted and autobahn only;
  echo   the play socket's whole stack (origin check, session and token
         auth, Channels, `JsonConsumer`) answering a fixed document of the
         size of a play answer, with no game and no database;
  hop    the echo, plus the trip to a socket database thread and back that
         every action makes (`web.sockets.consumer.in_database_thread`), doing nothing;
  play   `/ws/play/{id}/`: the engine, the conditional append in
         PostgreSQL, the session document (bench/players.py).

For each it prints messages/s, p50/p99 and the worker's CPU per message: the
differences are Channels', the thread trip's and the game's shares of an action.

First it measures the HTTP floor: `--http-requests` keep-alive GETs, one at a
time as bench/leaderboard.py reads a board, of `/bench/raw-http/`, a bare ASGI
answer of `--http-bytes` under the same daphne. No view of the service can
answer faster than that: it is the floor under the board read's p99.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp  # noqa: E402

from bench.play import drive as drive_play  # noqa: E402
from bench.players import start_sessions  # noqa: E402
from bench.stack import CpuMeter, Stack, headers, make_players, summary  # noqa: E402

MESSAGE = '{"type":"action","action":"1:1>2"}'


async def echo_run(stack: Stack, where: str, token: str, args: argparse.Namespace) -> tuple[int, str]:
    port = stack.ports[0]
    latencies: list[float] = []
    async with aiohttp.ClientSession() as http:
        sockets = [
            await http.ws_connect(f"ws://127.0.0.1:{port}{where}", headers=headers(token, port))
            for _ in range(args.clients)
        ]
        start = time.perf_counter() + args.warmup
        end = start + args.duration
        meter: list[CpuMeter] = []

        async def client(ws: aiohttp.ClientWebSocketResponse) -> None:
            while (now := time.perf_counter()) < end:
                await ws.send_str(MESSAGE)
                await ws.receive_str()
                if now >= start:
                    latencies.append(time.perf_counter() - now)

        async def meter_at_start() -> None:
            await asyncio.sleep(args.warmup)
            meter.append(CpuMeter(stack))

        await asyncio.gather(meter_at_start(), *(client(ws) for ws in sockets))
        cpu = meter[0].report(len(latencies), what="message")
        for ws in sockets:
            await ws.close()
    print(summary(f"  {where:<14}", latencies, seconds=args.duration))
    print(f"    {cpu}")
    return len(latencies), cpu


async def http_floor(stack: Stack, args: argparse.Namespace) -> None:
    url = f"{stack.http(0)}/bench/raw-http/"
    latencies: list[float] = []
    async with aiohttp.ClientSession() as http:
        for _ in range(min(200, args.http_requests)):  # warm the connection and the worker
            async with http.get(url) as answer:
                await answer.read()
        meter = CpuMeter(stack)
        for _ in range(args.http_requests):
            t0 = time.perf_counter()
            async with http.get(url) as answer:
                body = await answer.read()
            latencies.append(time.perf_counter() - t0)
            assert answer.status == 200 and len(body) >= args.http_bytes - 8, answer.status
        cpu = meter.report(len(latencies), what="request")
    print(summary(f"  GET /bench/raw-http/ ({args.http_bytes:,} bytes, sequential)", latencies))
    print(f"    {cpu}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--duration", type=float, default=10.0, help="measured seconds of each socket")
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--reply-bytes", type=int, default=1200, help="size of the echo answers")
    parser.add_argument("--http-requests", type=int, default=2000, help="sequential GETs of the HTTP floor (0: none)")
    parser.add_argument("--http-bytes", type=int, default=6000, help="size of the HTTP floor's answer (a board page)")
    args = parser.parse_args()
    if args.clients > 1000 or args.duration > 120 or args.http_requests > 100_000:
        parser.error("bounded load: at most 1,000 clients, 120 s a socket and 100,000 HTTP requests")
    budget = 120 + 3 * (args.warmup + args.duration) + args.clients * 0.1 + args.http_requests * 0.01
    env = {"FLOOR_REPLY_BYTES": str(args.reply_bytes), "FLOOR_HTTP_BYTES": str(args.http_bytes)}
    with Stack(workers=1, time_limit=budget, env=env, app="bench.floor_asgi:application") as stack:
        stack.django()
        players = make_players(args.clients)
        if args.http_requests:
            print(f"\none worker, the HTTP floor, {args.http_requests:,} requests one at a time")
            asyncio.run(http_floor(stack, args))
        print(f"\none worker, {args.clients} clients each, closed loop, {args.duration:.0f} s measured each")
        for where in ("/bench/raw/", "/bench/echo/", "/bench/hop/"):
            asyncio.run(echo_run(stack, where, players[0][1], args))
        ready = start_sessions([pk for pk, _ in players], 3)
        play = argparse.Namespace(
            players=args.clients,
            saturate=True,
            rate=0.0,
            duration=args.duration,
            warmup=args.warmup,
            workers=1,
            profile=False,
        )
        print("  /ws/play/ (the full report):")
        status, _ = asyncio.run(drive_play(stack, [token for _, token in players], ready, play))
        return status


if __name__ == "__main__":
    sys.exit(main())
