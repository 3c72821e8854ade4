"""Leaderboard read: top 50 plus my rank on a board of 1,000,000 results.

Run: .venv/bin/python bench/leaderboard.py --entries 1000000 --requests 2000

Bulk-loads `--entries` players, verified results and board entries for one
board straight into PostgreSQL with COPY (sort keys made by
games.ranking.keys, as the service makes them), builds the Redis rank index
with leaderboard.ranking.standings.rebuild_index, then times, side by side:
  - GET /api/leaderboards/{board} as a player in the middle of the board
    (its top-50 page plus "me"), over keep-alive HTTP, one request at a time;
  - the same document from leaderboard.selectors in this process (no HTTP);
  - the Redis index alone: ZRANGE BYLEX of 51 + ZRANK + ZCARD;
  - my rank from SQL (the fallback without Redis): a COUNT over the index.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import io
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp  # noqa: E402

from bench import profile  # noqa: E402
from bench.stack import CpuMeter, Stack, headers, summary  # noqa: E402


def bulk_load(stack: Stack, entries: int) -> tuple[str, int, str]:
    """Players, results and board entries for one board; returns (board, my player id, my token)."""
    import psycopg
    from rest_framework.authtoken.models import Token

    from games.engine import GameCode
    from games.ranking.keys import RankKey

    # A deal of this run's own: the rank index keys carry no prefix, and two runs at once (another
    # engineer's, the smoke test's) on one board id rebuilt and deleted each other's index mid-run.
    number = os.getpid()
    code = str(GameCode.from_variant("SP1-S4C", number))
    board = f"code:{code}"
    now = dt.datetime(2026, 11, 30, tzinfo=dt.UTC)
    with psycopg.connect(stack.env["DATABASE_URL"]) as conn:
        stored_code_id = conn.execute(
            "INSERT INTO games_storedcode (code, game, variant, created_at)"
            " VALUES (%s, 'SP', 'SP1-S4C', %s) RETURNING id",
            (code, now),
        ).fetchone()[0]
        first = conn.execute("SELECT coalesce(max(id), 0) + 1 FROM leaderboard_player").fetchone()[0]
        with conn.cursor().copy(
            "COPY leaderboard_player (id, password, is_superuser, username, first_name, last_name, email, is_staff,"
            " is_active, date_joined, is_guest) FROM STDIN"
        ) as copy:
            for chunk in _chunks(entries):
                buf = io.StringIO()
                for i in chunk:
                    buf.write(f"{first + i}\t!\tf\tlb{i}\t\t\t\tf\tt\t{now.isoformat()}\tf\n")
                copy.write(buf.getvalue())
        with conn.cursor().copy(
            "COPY leaderboard_result (id, player_id, stored_code_id, source, board, score, moves, won, sequences,"
            " elapsed_ms, actions, log, finished_at, verified_at) FROM STDIN"
        ) as copy:
            for chunk in _chunks(entries):
                buf = io.StringIO()
                for i in chunk:
                    score, moves, seq = _numbers(i)
                    buf.write(
                        f"{i + 1}\t{first + i}\t{stored_code_id}\tsubmission\t{board}\t{score}\t{moves}\tf\t{seq}\t\\N"
                        f"\t{moves}\t\t{now.isoformat()}\t{now.isoformat()}\n"
                    )
                copy.write(buf.getvalue())
        with conn.cursor().copy(
            "COPY leaderboard_boardentry (board, player_id, result_id, progress, score, moves, elapsed_ms, finished_at,"
            " won, sort_key, updated_at) FROM STDIN"
        ) as copy:
            for chunk in _chunks(entries):
                buf = io.StringIO()
                for i in chunk:
                    score, moves, seq = _numbers(i)
                    key = RankKey.of(
                        russian=False,
                        progress=seq,
                        score=score,
                        moves=moves,
                        elapsed_ms=None,
                        finished_at=now,
                        result_id=i + 1,
                    ).sort_key()
                    buf.write(
                        f"{board}\t{first + i}\t{i + 1}\t{seq}\t{score}\t{moves}\t\\N\t{now.isoformat()}\tf"
                        f"\t{key}\t{now.isoformat()}\n"
                    )
                copy.write(buf.getvalue())
        for table in ("leaderboard_player", "leaderboard_result"):
            conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))")
        conn.execute("ANALYZE leaderboard_boardentry")
        conn.commit()
    me = first + entries // 2
    token = Token.objects.create(user_id=me, key=Token.generate_key())
    return board, me, token.key


def _numbers(i: int) -> tuple[int, int, int]:
    """A spread of plausible results: (score, moves, sequences)."""
    h = (i * 2654435761) % 2**32
    return 500 + h % 900, 100 + (h >> 10) % 900, (h >> 20) % 9


def _chunks(n: int, size: int = 50_000) -> list[range]:
    return [range(start, min(n, start + size)) for start in range(0, n, size)]


def timed(fn, count: int) -> list[float]:  # type: ignore[no-untyped-def]
    out = []
    for _ in range(count):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


async def http_reads(
    stack: Stack, board: str, token: str, count: int, profile_dir: Path | None = None, profile_seconds: float = 8.0
) -> tuple[list[float], float]:
    url = f"{stack.http(0)}/api/leaderboards/{board}?limit=50"
    latencies = []
    runs = None
    async with aiohttp.ClientSession() as http:
        for _ in range(20):  # warm-up
            async with http.get(url, headers=headers(token)) as r:
                doc = await r.json()
                assert r.status == 200, doc
        if profile_dir is not None:
            runs = profile.start(stack.pids(), profile_seconds, profile_dir)
        meter = CpuMeter(stack)
        t_all = time.perf_counter()
        for _ in range(count):
            t0 = time.perf_counter()
            async with http.get(url, headers=headers(token)) as r:
                await r.read()
            latencies.append(time.perf_counter() - t0)
        total = time.perf_counter() - t_all
        cpu = meter.report(count, "request")
    assert len(doc["entries"]) == min(50, doc["total"]) and doc["me"] is not None, doc
    print(
        f"  the document: total {doc['total']:,}, first rank {doc['entries'][0]['rank']}, me rank {doc['me']['rank']:,}"
    )
    print("  " + cpu)
    if runs is not None:
        print(profile.summarize(profile.finish(runs)))
    return latencies, total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=1_000_000)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--sql-requests", type=int, default=50)
    parser.add_argument("--profile", action="store_true", help="py-spy the daphne worker during the HTTP reads")
    parser.add_argument("--profile-seconds", type=float, default=8.0)
    parser.add_argument("--profile-dir", default="/tmp/bench_profile_leaderboard")
    args = parser.parse_args()
    if args.entries > 2_000_000 or args.requests > 100_000:
        parser.error("bounded: at most 2,000,000 entries and 100,000 requests")
    with Stack(workers=1, time_limit=300 + args.entries / 5000) as stack:
        stack.django()
        from games.models import Player
        from games.ranking.boards import parse_board
        from leaderboard import selectors
        from leaderboard.models import BoardEntry
        from leaderboard.ranking import rank_index, standings
        from leaderboard.ranking.sql_ranks import SqlRanks

        t0 = time.perf_counter()
        board_id, me, token = bulk_load(stack, args.entries)
        print(
            f"bulk-loaded {args.entries:,} players, results and board entries with COPY in "
            f"{time.perf_counter() - t0:.1f} s"
        )
        t0 = time.perf_counter()
        indexed = standings.rebuild_index(board=board_id)
        print(f"rank index rebuilt from PostgreSQL ({indexed:,} members) in {time.perf_counter() - t0:.1f} s")

        print(f"\nleaderboard read on a board of {args.entries:,}: top 50 plus my rank, {args.requests:,} each")
        profile_dir = Path(args.profile_dir) if args.profile else None
        latencies, total = asyncio.run(
            http_reads(stack, board_id, token, args.requests, profile_dir, args.profile_seconds)
        )
        print(summary("  GET /api/leaderboards/{board} (HTTP, 1 daphne, sequential)", latencies, seconds=total))

        board = parse_board(board_id)
        viewer = Player.objects.get(pk=me)
        print(
            summary(
                "  selectors.leaderboard in-process (no HTTP)",
                timed(lambda: selectors.leaderboard(board=board, viewer=viewer, limit=50), args.requests),
            )
        )
        ranks = rank_index.RedisRanks(board_id)
        my_key = BoardEntry.objects.get(board=board_id, player_id=me).sort_key

        def redis_only() -> None:
            ranks.after(None, 51)
            ranks.rank(my_key)
            ranks.total()

        print(summary("  Redis index alone (ZRANGE 51 + ZRANK + ZCARD)", timed(redis_only, args.requests)))
        sql = SqlRanks(board_id)
        print(
            summary("  SQL fallback: my rank as a COUNT (no Redis)", timed(lambda: sql.rank(my_key), args.sql_requests))
        )
        # The stack deletes the index and its player hash; the version and the kept top page go here.
        rank_index.client().delete(rank_index.keys(board_id)[2], rank_index.page_key(board_id, 50))
    return 0


if __name__ == "__main__":
    sys.exit(main())
