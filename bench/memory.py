"""Memory: bytes per live session in a worker's live-game cache, and per open play socket.

Run: .venv/bin/python bench/memory.py --sessions 10000 --actions 50

Starts `--sessions` refereed sessions (spread over 100 players and the
variants), plays `--actions` legal actions into each stored log, then:
  1. in this process, fills games.sessions.live's cache with every session's game
     (rebuilt by replay, as a worker does) and measures it with tracemalloc;
  2. opens one `/ws/play/{id}/` socket per session to ONE daphne worker and
     reads its resident memory before and after: bytes per open socket,
     which includes that session's entry in the worker's live cache.

With `--floor`, also the same count of sockets to a fresh worker each (the
stack runs three, on bench/floor_asgi.py, which serves the service too) at
`/bench/raw/` (a bare ASGI WebSocket under daphne: Twisted and autobahn only)
and `/bench/echo/` (the play socket's stack without a game, bench/floor_asgi.py):
what any socket costs before the game keeps anything for it.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp  # noqa: E402

from bench.players import VARIANTS  # noqa: E402
from bench.stack import Stack, make_players, rss_bytes  # noqa: E402
from bench.submissions import legal_log  # noqa: E402


def make_sessions(players: list[tuple[int, str]], count: int, actions: int) -> list[tuple[str, str]]:
    """(session id, token) for `count` sessions, each with `actions` legal actions in its log."""
    from django.utils import timezone

    from games.deals.codes import stored_code_for
    from games.engine import Game, GameCode
    from games.models import GameAction, GameSession

    now = timezone.now()
    deals = []
    logs = []
    for k in range(100):
        code = GameCode.from_variant(VARIANTS[k % len(VARIANTS)], 7919 * (k + 1))
        deals.append(stored_code_for(code))
        logs.append(legal_log(code, actions, seed=k))
    sessions = []
    for n in range(count):
        k = n % 100
        game = Game.from_code(deals[k].code)
        game.run(logs[k])
        sessions.append(
            GameSession(
                player_id=players[n % len(players)][0],
                stored_code=deals[k],
                ranked=True,
                board=f"code:{deals[k].code}",
                started_at=now,
                action_count=len(logs[k]),
                score=game.score,
                moves=game.moves,
            )
        )
    GameSession.objects.bulk_create(sessions, batch_size=2000)
    GameAction.objects.bulk_create(
        [
            GameAction(session=s, seq=i + 1, token=t)
            for n, s in enumerate(sessions)
            for i, t in enumerate(logs[n % 100])
        ],
        batch_size=10_000,
    )
    token_of = dict(players)
    return [(str(s.id), token_of[s.player_id]) for s in sessions]


def live_cache_bytes(ids: list[str]) -> tuple[int, float]:
    from games.models import GameSession
    from games.sessions import live

    sessions = list(GameSession.objects.select_related("stored_code").filter(id__in=ids))
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    t0 = time.perf_counter()
    for session in sessions:
        live.game_for(session)
    seconds = time.perf_counter() - t0
    gc.collect()
    used = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    live.clear()
    return used, seconds


async def open_sockets(
    stack: Stack, sessions: list[tuple[str, str]], concurrency: int, path: str, first: str, worker: int
) -> list:
    """One socket per (session, token) at `path` of one worker; each has answered (its first frame
    holds `first`)."""
    port = stack.ports[worker]
    gate = asyncio.Semaphore(concurrency)
    http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0), timeout=aiohttp.ClientTimeout(total=120))
    sockets = []

    async def one(session_id: str, token: str) -> None:
        async with gate:
            ws = await http.ws_connect(
                f"ws://127.0.0.1:{port}{path.format(session_id)}",
                headers={"Authorization": f"Token {token}", "Origin": f"http://127.0.0.1:{port}"},
            )
            if path.startswith("/bench/"):
                await ws.send_str('{"type":"action","action":"D"}')  # the echoes answer a message
            frame = await ws.receive(timeout=60)
            assert first in frame.data[:40], frame.data[:200]
            sockets.append(ws)

    await asyncio.gather(*(one(s, t) for s, t in sessions))
    return [http, sockets]


def socket_bytes(
    stack: Stack,
    sessions: list[tuple[str, str]],
    concurrency: int,
    path: str = "/ws/play/{}/",
    first: str = "session",
    worker: int = 0,
) -> tuple[int, int, float]:
    """The resident bytes of one worker before and after opening a socket per session at `path`
    (held open while measured), and the seconds the opening took."""
    pid = stack.pids()[worker]
    time.sleep(1.0)
    before = rss_bytes(pid)
    loop = asyncio.new_event_loop()
    t0 = time.perf_counter()
    http, sockets = loop.run_until_complete(open_sockets(stack, sessions, concurrency, path, first, worker))
    opened = time.perf_counter() - t0
    time.sleep(1.0)
    after = rss_bytes(pid)

    async def close() -> None:
        await asyncio.gather(*(ws.close() for ws in sockets))
        await http.close()

    loop.run_until_complete(close())
    loop.close()
    return before, after, opened


def floors(stack: Stack, count: int, concurrency: int, token: str) -> None:
    """Bytes per socket of the bare ASGI socket and of the play socket's stack, on workers 1 and 2."""
    print(f"\nthe floor: {count:,} sockets to a fresh worker each")
    for worker, path, first, what in (
        (1, "/bench/raw/", "x", "a bare ASGI WebSocket (daphne, Twisted, autobahn)"),
        (2, "/bench/echo/", "session", "the play socket's stack, no game (origin, auth, Channels, JsonConsumer)"),
    ):
        sessions = [(str(n), token) for n in range(count)]
        before, after, _ = socket_bytes(stack, sessions, concurrency, path, first, worker)
        print(f"  {path:<13} {(after - before) / count:,.0f} bytes per open socket: {what}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--actions", type=int, default=50, help="legal actions in each session's log")
    parser.add_argument("--concurrency", type=int, default=50, help="sockets being opened at once")
    parser.add_argument("--floor", action="store_true", help="first, bytes per bare and per echo socket")
    args = parser.parse_args()
    if args.sessions > 15_000:
        parser.error("bounded: at most 15,000 sessions (file descriptors)")
    app = "bench.floor_asgi:application" if args.floor else "config.asgi:application"
    with Stack(workers=3 if args.floor else 1, time_limit=300 + args.sessions / 10, app=app) as stack:
        stack.django()
        players = make_players(100)
        if args.floor:
            floors(stack, args.sessions, args.concurrency, players[0][1])
        t0 = time.perf_counter()
        sessions = make_sessions(players, args.sessions, args.actions)
        print(f"{len(sessions):,} sessions with {args.actions} actions each stored in {time.perf_counter() - t0:.1f} s")

        used, seconds = live_cache_bytes([s for s, _ in sessions])
        print(f"\nmemory, {len(sessions):,} live sessions")
        print(
            f"  live-game cache (games.sessions.live, tracemalloc): {used:,} bytes = "
            f"{used / len(sessions):,.0f} bytes per session (rebuilt by replay in {seconds:.1f} s)"
        )

        before, after, opened = socket_bytes(stack, sessions, args.concurrency)
        per = (after - before) / len(sessions)
        print(
            f"  one daphne worker: RSS {before / 2**20:,.1f} MiB idle, {after / 2**20:,.1f} MiB with "
            f"{len(sessions):,} open play sockets (opened in {opened:.1f} s)"
        )
        print(
            f"  = {per:,.0f} bytes per open socket, its session's cache entry included; "
            f"{per - used / len(sessions):,.0f} bytes per socket without it"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
