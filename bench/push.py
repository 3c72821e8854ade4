"""Live push: one verified result, `--subscribers` WebSocket watchers on its board, all must hear it.

Run: .venv/bin/python bench/push.py --subscribers 1000 --rounds 5

Opens the watchers on `/ws/leaderboards/{board}/` spread over the daphne
workers (each first gets its snapshot), then, `--rounds` times and a second
apart, a new player posts a verified log for the board's deal with
`POST /api/submissions`. The time of each watcher is from the moment the
POST was sent to the moment its `change` message arrived (one clock, this
process). Prints count, p50/p95/p99 over all watchers and rounds, and how
many watchers missed a round.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp  # noqa: E402

from bench.stack import Stack, make_players, summary  # noqa: E402
from bench.submissions import legal_log  # noqa: E402
from games.engine import GameCode  # noqa: E402


async def drive(stack: Stack, tokens: list[str], args: argparse.Namespace) -> int:
    code = GameCode.from_variant("SP1-S2C", 424_242)
    board = f"code:{code}"
    warm = len(stack.ports)  # one uncounted round per worker: a cold process's first result is not push
    rounds = args.rounds + warm
    logs = [legal_log(code, 40 + 10 * r, seed=r) for r in range(rounds)]
    arrivals: list[list[float]] = [[] for _ in range(rounds)]
    round_no = -1
    sent_at = [0.0] * rounds
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=120)) as http:
        sockets: list[aiohttp.ClientWebSocketResponse] = []
        gate = asyncio.Semaphore(50)

        async def watch(n: int) -> None:
            async with gate:
                port = stack.ports[n % len(stack.ports)]
                ws = await http.ws_connect(
                    f"{stack.ws(n)}/ws/leaderboards/{board}/", headers={"Origin": f"http://127.0.0.1:{port}"}
                )
                first = await ws.receive(timeout=60)
                assert json.loads(first.data)["type"] == "snapshot", first.data
                sockets.append(ws)

        t0 = time.perf_counter()
        await asyncio.gather(*(watch(n) for n in range(args.subscribers)))
        print(
            f"{len(sockets):,} watchers on {board} across {len(stack.ports)} daphne workers, "
            f"snapshots received, in {time.perf_counter() - t0:.1f} s"
        )

        async def listen(ws: aiohttp.ClientWebSocketResponse) -> None:
            async for msg in ws:
                if msg.type != aiohttp.WSMsgType.TEXT:
                    break
                now = time.perf_counter()
                kind = json.loads(msg.data)["type"]
                if kind in ("change", "snapshot") and round_no >= 0:
                    arrivals[round_no].append(now - sent_at[round_no])

        listeners = [asyncio.create_task(listen(ws)) for ws in sockets]
        for r in range(rounds):
            await asyncio.sleep(1.0)  # past the coalescing window: each round is one change
            round_no = r
            sent_at[r] = time.perf_counter()
            async with http.post(
                f"{stack.http(r)}/api/submissions",
                json={"code": str(code), "moves": logs[r]},
                headers={"Authorization": f"Token {tokens[r]}"},
            ) as resp:
                assert resp.status == 201, await resp.text()
            post_ms = (time.perf_counter() - sent_at[r]) * 1000
            deadline = time.perf_counter() + args.wait
            while len(arrivals[r]) < len(sockets) and time.perf_counter() < deadline:
                await asyncio.sleep(0.01)
            label = f"{r} (warm-up)" if r < warm else str(r)
            heard = f"{len(arrivals[r]):,}/{len(sockets):,}"
            print(f"  round {label}: POST answered in {post_ms:.1f} ms, {heard} watchers heard it")
        for ws in sockets:
            await ws.close()
        for task in listeners:
            task.cancel()
    everything = [t for got in arrivals[warm:] for t in got]
    missed = sum(len(sockets) - len(got) for got in arrivals)
    print(f"\nlive push: {args.subscribers:,} watchers, {args.rounds} verified results, {args.workers} daphne workers")
    print(summary("  change received (from the POST being sent)", everything))
    print(f"  missed: {missed}")
    return 0 if missed == 0 else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--subscribers", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--workers", type=int, default=3, help="daphne processes (cores + 1, as for play)")
    parser.add_argument("--wait", type=float, default=10.0, help="seconds a round waits for every watcher")
    args = parser.parse_args()
    if args.subscribers > 5000 or args.rounds > 50:
        parser.error("bounded load: at most 5,000 watchers and 50 rounds")
    with Stack(workers=args.workers, conn_max_age=0, time_limit=180 + args.subscribers / 20) as stack:
        stack.django()
        tokens = [token for _, token in make_players(args.rounds + args.workers)]
        return asyncio.run(drive(stack, tokens, args))


if __name__ == "__main__":
    sys.exit(main())
