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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--duration", type=float, default=10.0, help="measured seconds of each socket")
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--reply-bytes", type=int, default=1200, help="size of the echo answers")
    args = parser.parse_args()
    if args.clients > 1000 or args.duration > 120:
        parser.error("bounded load: at most 1,000 clients and 120 s a socket")
    budget = 120 + 3 * (args.warmup + args.duration) + args.clients * 0.1
    env = {"FLOOR_REPLY_BYTES": str(args.reply_bytes)}
    with Stack(workers=1, time_limit=budget, env=env, app="bench.floor_asgi:application") as stack:
        stack.django()
        players = make_players(args.clients)
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
