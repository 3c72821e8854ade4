"""A burst of log-ins beside players at play: the burst's answers and the others' latency.

Run: .venv/bin/python bench/login_burst.py --burst 80 --waves 5
     .venv/bin/python bench/login_burst.py --burst 80 --waves 5 --cap 1000   # no cap to speak of
     .venv/bin/python bench/login_burst.py --burst 80 --waves 5 --wait 0     # refused at once past the cap

Starts the stack (bench/stack.py) with PASSWORD_CHECKS_AT_ONCE = `--cap` and
PASSWORD_CHECK_WAIT_SECONDS = `--wait`, makes `--others`
players with tokens and a session each, and has them read their session over HTTP, one request
after another each, for the whole run. Meanwhile it sends `--waves` bursts, one a second, of
`--burst` log-ins at once with the right password, each from an address of its own on loopback
(127.0.1.1 and up: a worker lets one log-in per address into its line at a time), and prints:
  - the burst's answers by status (a burst must get 429s, never a 5xx);
  - the others' latency before the bursts and during them (p50 / p95 / p99), and how many of
    their reads were not answered 200 (counted in the latency as infinite).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp  # noqa: E402

from bench.stack import Stack, headers, make_players, summary  # noqa: E402

PASSWORD = "a long bench passphrase 4"


def set_up(stack: Stack, others: int, named: int) -> list[tuple[str, str]]:
    """`named` players who log in with PASSWORD; `others` players with tokens and a session each:
    [(token, session id)]."""
    from django.contrib.auth.hashers import make_password

    from games.models import Player
    from games.services import start_session

    hashed = make_password(PASSWORD)  # hashed once: every named player has the same password
    Player.objects.bulk_create([Player(username=f"login{i}", password=hashed) for i in range(named)])
    tokens = make_players(others, prefix="other")
    sessions = []
    for player_id, token in tokens:
        session, _ = start_session(player=Player.objects.get(pk=player_id), code="SP1-S1C-AAAAAAA")
        sessions.append((token, str(session.id)))
    return sessions


async def other_player(
    http: aiohttp.ClientSession, base: str, token: str, session_id: str, until: float, out: list[tuple[float, float]]
) -> None:
    """Reads its session, one request after another, until `until`: (start time, latency)."""
    while time.perf_counter() < until:
        t0 = time.perf_counter()
        try:
            async with http.get(f"{base}/api/sessions/{session_id}", headers=headers(token)) as answer:
                await answer.read()
                failed = answer.status != 200
        except TimeoutError:
            failed = True
        out.append((t0, time.perf_counter() - t0 if not failed else float("inf")))


async def log_in(http: aiohttp.ClientSession, base: str, name: str, statuses: Counter[int | str]) -> None:
    body = {"username": name, "password": PASSWORD}
    try:
        async with http.post(f"{base}/api/auth/login", json=body) as answer:
            await answer.read()
            statuses[answer.status] += 1
            if answer.status == 429 and not answer.headers.get("Retry-After"):
                statuses["429 without Retry-After"] += 1
    except TimeoutError:
        statuses["no answer in 60 s"] += 1


async def drive(stack: Stack, sessions: list[tuple[str, str]], args: argparse.Namespace) -> None:
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=60)) as http:
        start = time.perf_counter()
        burst_from = start + args.baseline
        until = burst_from + args.waves
        reads: list[tuple[float, float]] = []
        readers = [
            asyncio.create_task(other_player(http, stack.http(n), token, session_id, until, reads))
            for n, (token, session_id) in enumerate(sessions)
        ]
        statuses: Counter[int | str] = Counter()
        clients = [  # one client per address of the burst
            aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=0, local_addr=(f"127.0.{1 + n // 250}.{1 + n % 250}", 0)),
                timeout=aiohttp.ClientTimeout(total=60),
            )
            for n in range(args.burst)
        ]
        await asyncio.sleep(args.baseline)
        logins = []
        for wave in range(args.waves):
            logins += [
                asyncio.create_task(log_in(clients[n], stack.http(n), f"login{n % args.named}", statuses))
                for n in range(args.burst)
            ]
            await asyncio.sleep(max(0.0, burst_from + wave + 1 - time.perf_counter()))
        await asyncio.gather(*logins, *readers)
        for client in clients:
            await client.close()
    before = [latency for t0, latency in reads if t0 < burst_from]
    during = [latency for t0, latency in reads if t0 >= burst_from]
    print(
        f"cap PASSWORD_CHECKS_AT_ONCE={args.cap}, wait {args.wait} s, {args.workers} workers,"
        f" {args.waves} bursts of {args.burst}"
    )
    print(f"burst answers by status: {dict(sorted(statuses.items(), key=str))}")
    print(summary("others before the bursts", before))
    print(summary("others during the bursts", during))
    failed = sum(latency == float("inf") for latency in before + during)
    print(f"others' reads not answered 200: {failed}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--burst", type=int, default=80, help="log-ins sent at once in each burst")
    parser.add_argument("--waves", type=int, default=5, help="bursts, one a second")
    parser.add_argument("--others", type=int, default=20, help="players reading their session meanwhile")
    parser.add_argument("--named", type=int, default=8, help="players the burst logs in as")
    parser.add_argument("--baseline", type=float, default=2.0, help="seconds of the others alone first")
    parser.add_argument("--cap", type=int, default=1, help="PASSWORD_CHECKS_AT_ONCE for the run (1 is the default)")
    parser.add_argument("--wait", type=float, default=3.0, help="PASSWORD_CHECK_WAIT_SECONDS (3 is the default)")
    parser.add_argument("--workers", type=int, default=3)
    args = parser.parse_args()
    if not (1 <= args.burst <= 1000 and 1 <= args.waves <= 60 and 1 <= args.others <= 500 and args.named >= 1):
        parser.error("--burst 1-1000, --waves 1-60, --others 1-500, --named >= 1")
    env = {"PASSWORD_CHECKS_AT_ONCE": str(args.cap), "PASSWORD_CHECK_WAIT_SECONDS": str(args.wait)}
    with Stack(workers=args.workers, env=env, time_limit=120 + 2 * args.waves) as stack:
        stack.django()
        sessions = set_up(stack, args.others, args.named)
        asyncio.run(drive(stack, sessions, args))


if __name__ == "__main__":
    main()
