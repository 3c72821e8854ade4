"""Quick match under a crowd: N players ask for a rated race at once; how long until all are placed.

Run: .venv/bin/python bench/matching.py --players 1000 --workers 3 [--profile]

Starts the stack (bench/stack.py), makes `--players` players with tokens and a rating each in
Spider (mu drawn around 25, sd `--spread`, fixed seed), opens each player's own socket (/ws/me/) as
their page does, then sends every player's `POST /api/match` at once, spread over the workers (one
refused with 503 or 429 asks again a second later). Each player then asks again every 2 s, as the
page does, on the next worker, and is placed when its socket or an answer first names its room.
Prints:
  - the answers to the requests by status (every try counted);
  - the time from the burst to each player's placement (p50 / p99 / max), and how many were placed;
  - the races formed by size, read from the database;
  - whether anyone was placed twice: a player in two rooms, told two rooms, or a queue row that
    names another room than the player's race.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp  # noqa: E402

from bench import profile  # noqa: E402
from bench.stack import CpuMeter, Stack, headers, make_players, summary  # noqa: E402

VARIANT = "SP1-S1C"
AGAIN_SECONDS = 2.0  # as the rooms page asks again while waiting


def set_up(count: int, spread: float) -> list[tuple[int, str]]:
    from django.utils import timezone

    from races.models import Rating

    players = make_players(count, prefix="match")
    draw = random.Random(43)
    now = timezone.now()
    Rating.objects.bulk_create(
        [
            Rating(player_id=player_id, game="SP", mu=draw.gauss(25.0, spread), sigma=3.0, races=10, updated_at=now)
            for player_id, _ in players
        ],
        batch_size=2000,
    )
    return players


class Player:
    def __init__(self, n: int, token: str) -> None:
        self.n = n
        self.token = token
        self.rooms: set[str] = set()
        self.placed_at: float | None = None
        self.placed = asyncio.Event()
        self.socket_failed = False

    def told(self, room: str) -> None:
        self.rooms.add(room)
        if self.placed_at is None:
            self.placed_at = time.perf_counter()
            self.placed.set()


async def listen(
    http: aiohttp.ClientSession, stack: Stack, player: Player, opened: asyncio.Event, opening: asyncio.Semaphore
) -> None:
    """The player's own socket, opened a few at a time (a thousand handshakes at once overflow a
    worker's listen queue); a player whose socket does not open learns from its asks."""
    port = stack.port(player.n)
    try:
        async with opening:
            socket = await http.ws_connect(f"{stack.ws(player.n)}/ws/me/", headers=headers(player.token, port))
    except (aiohttp.ClientError, TimeoutError):
        player.socket_failed = True
        opened.set()
        return
    opened.set()
    async with socket:
        async for frame in socket:
            if frame.type != aiohttp.WSMsgType.TEXT:
                break
            message = frame.json()
            if message.get("type") == "placed":
                player.told(message["room"])
                return


async def ask_until_placed(
    http: aiohttp.ClientSession, stack: Stack, player: Player, statuses: Counter[int | str], until: float
) -> None:
    """Ask (again after a 503 or a 429, as the page's player would), then ask again until placed."""
    while time.perf_counter() < until:
        try:
            async with http.post(
                f"{stack.http(player.n)}/api/match", json={"variant": VARIANT}, headers=headers(player.token)
            ) as answer:
                statuses[answer.status] += 1
                body = await answer.json()
                if answer.status in (200, 202):
                    if body.get("room"):
                        player.told(body["room"])
                    break
                if answer.status not in (429, 503):
                    return
        except (aiohttp.ClientError, TimeoutError) as error:
            statuses[type(error).__name__] += 1
        await asyncio.sleep(1.0)
    while not player.placed.is_set() and time.perf_counter() < until:
        try:
            await asyncio.wait_for(player.placed.wait(), AGAIN_SECONDS)
            return
        except TimeoutError:
            pass
        try:
            async with http.post(
                f"{stack.http(player.n + 1)}/api/match", json={"variant": VARIANT}, headers=headers(player.token)
            ) as answer:
                body = await answer.json()
                if answer.status == 200 and body.get("room"):
                    player.told(body["room"])
                elif answer.status != 202:
                    statuses[f"again {answer.status}"] += 1
        except (aiohttp.ClientError, TimeoutError) as error:
            statuses[f"again {type(error).__name__}"] += 1


Runs = list[tuple[subprocess.Popen[bytes], Path]] | None


async def drive(
    stack: Stack, tokens: list[str], limit: float, profile_dir: Path | None, profile_seconds: float
) -> tuple[list[Player], Counter[int | str], float, Runs]:
    players = [Player(n, token) for n, token in enumerate(tokens)]
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=60)) as http:
        opened = [asyncio.Event() for _ in players]
        opening = asyncio.Semaphore(50)
        listeners = [
            asyncio.create_task(listen(http, stack, p, o, opening)) for p, o in zip(players, opened, strict=True)
        ]
        await asyncio.wait_for(asyncio.gather(*(o.wait() for o in opened)), 120)
        statuses: Counter[int | str] = Counter()
        start = time.perf_counter()
        runs = profile.start(stack.pids(), profile_seconds, profile_dir) if profile_dir is not None else None
        await asyncio.gather(*(ask_until_placed(http, stack, p, statuses, start + limit) for p in players))
        for listener in listeners:
            listener.cancel()
        await asyncio.gather(*listeners, return_exceptions=True)
    return players, statuses, start, runs


def stored_races() -> tuple[Counter[int], int, int, int]:
    """(races by size, member rows, distinct members, queue rows naming another room than the member's)."""
    from games.models import RoomMember
    from races.models import QueueEntry

    members = list(RoomMember.objects.values_list("room_id", "player_id"))
    by_room: dict[object, int] = defaultdict(int)
    for room_id, _ in members:
        by_room[room_id] += 1
    room_of = {player_id: room_id for room_id, player_id in members}
    placed = QueueEntry.objects.filter(room__isnull=False).values_list("player_id", "room_id")
    mismatched = sum(1 for player_id, room_id in placed if room_of.get(player_id) != room_id)
    return Counter(by_room.values()), len(members), len(room_of), mismatched


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--spread", type=float, default=4.0, help="sd of the players' mu around 25")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds before the run gives up on a player")
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="py-spy the workers from the burst on")
    parser.add_argument("--profile-seconds", type=float, default=15.0)
    parser.add_argument("--profile-dir", default="/tmp/bench_profile_matching")
    args = parser.parse_args()
    if not (2 <= args.players <= 5000 and 1 <= args.limit <= 300):
        parser.error("--players 2-5000, --limit 1-300")
    with Stack(workers=args.workers, time_limit=180 + args.limit) as stack:
        stack.django()
        tokens = [token for _, token in set_up(args.players, args.spread)]
        meter = CpuMeter(stack)
        profile_dir = Path(args.profile_dir) if args.profile else None
        players, statuses, start, runs = asyncio.run(
            drive(stack, tokens, args.limit, profile_dir, args.profile_seconds)
        )
        print(f"{args.players} players ask for a race of {VARIANT} at once, {args.workers} workers")
        print(f"answers by status: {dict(sorted(statuses.items(), key=str))}")
        print(f"player sockets that did not open (they learn from their asks): {sum(p.socket_failed for p in players)}")
        times = sorted(p.placed_at - start for p in players if p.placed_at is not None)
        print(f"placed: {len(times)} of {len(players)}")
        if times:
            print(summary("time to placement", times))
            print(f"all placed within {times[-1]:.2f} s" if len(times) == len(players) else "not all placed")
        sizes, rows, distinct, mismatched = stored_races()
        print(f"races: {sum(sizes.values())}, by size {dict(sorted(sizes.items()))}")
        told_twice = sum(1 for p in players if len(p.rooms) > 1)
        print(
            f"placed twice: {rows - distinct} in two rooms, {told_twice} told two rooms,"
            f" {mismatched} queue rows naming another room"
        )
        print(meter.report(max(len(times), 1), "placement"))
        if runs is not None:
            print(profile.summarize(profile.finish(runs)))


if __name__ == "__main__":
    main()
