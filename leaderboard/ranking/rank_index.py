"""The rank index: one Redis sorted set per board, rebuilt from PostgreSQL at will.

Members are the entries' sort keys (games.ranking.keys) with every score 0,
so ZRANK is a rank and ZRANGE BYLEX a page after a cursor, both O(log n).
A hash beside it maps each player to their member, so an update replaces the
player's old member atomically (a Lua script) and only ever with a better
one: updates that arrive out of order cannot leave a player on a board twice.

A third key holds the board version (leaderboard.ranking.standings) the index reflects:
an update moves it on only from the version just before its own, so an update
that was missed or is still on its way leaves it behind PostgreSQL's, and the
next reader, in any process, catches up (leaderboard.ranking.standings.sync_index).

Any Redis failure raises RankIndexUnavailable; readers then ask PostgreSQL. What the hot paths do (a
board read, a result's change put in the index) is async, on the loop's client (web.storage); the
index's upkeep (catch up, rebuild), which reads PostgreSQL through the ORM, is sync, on redis-py's.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Awaitable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, cast

import redis
import redis.asyncio
from django.conf import settings

from web import storage

log = logging.getLogger(__name__)

# redis-py types the sync client's replies as its async client's too (Awaitable | Any), and a pipeline's
# commands likewise though they answer the pipeline: the casts below say what the sync client answers.

# Replace the player's member if the new key is better; returns the player's 0-based rank and
# the version the index now reflects (false: unknown, the index must be rebuilt).
_APPLY = """
local function apply(player, key)
  local current = redis.call('HGET', KEYS[2], player)
  if current and current <= key then return current end
  if current then redis.call('ZREM', KEYS[1], current) end
  redis.call('ZADD', KEYS[1], 0, key)
  redis.call('HSET', KEYS[2], player, key)
  return key
end
"""
_PUT = (
    _APPLY
    + """
local version = tonumber(ARGV[3])
-- A set that is gone (lost, evicted) while its version stayed: the version says nothing now.
if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('DEL', KEYS[3]) end
local member = apply(ARGV[1], ARGV[2])
local stored = redis.call('GET', KEYS[3])
if not stored and redis.call('ZCARD', KEYS[1]) == 1 and version == 1 then stored = '0' end
if stored and tonumber(stored) == version - 1 then
  redis.call('SET', KEYS[3], version)
  stored = version
end
return {redis.call('ZRANK', KEYS[1], member), stored}
"""
)
# Apply missed entries (player, key pairs); the last batch moves the version on to ARGV[1].
_CATCH_UP = (
    _APPLY
    + """
for i = 3, #ARGV, 2 do apply(ARGV[i], ARGV[i + 1]) end
if ARGV[2] == '1' then
  local stored = tonumber(redis.call('GET', KEYS[3]) or '-1')
  if stored < tonumber(ARGV[1]) then redis.call('SET', KEYS[3], ARGV[1]) end
end
return 1
"""
)
_BATCH = 2000
_REBUILD_LOCK_SECONDS = 300


class RankIndexUnavailable(Exception):
    pass


class RankIndexBusy(RankIndexUnavailable):
    """Another process is rebuilding this board's index."""


def enabled() -> bool:
    return bool(settings.REDIS_URL)


def client() -> redis.Redis:
    """The process's client, for sync code (the index's upkeep)."""
    url = settings.REDIS_URL
    if not url:
        raise RankIndexUnavailable("no REDIS_URL")
    return storage.blocking_redis(url)


def loop_client() -> redis.asyncio.Redis:
    """The running loop's client, for async code (the hot paths)."""
    found = storage.redis_client()
    if found is None:
        raise RankIndexUnavailable("no REDIS_URL")
    return found


def keys(board: str) -> tuple[str, str, str]:
    """(sorted set, player -> member hash, version reflected)."""
    return f"lb:rank:{board}", f"lb:rank-player:{board}", f"lb:rank-version:{board}"


@dataclass(frozen=True)
class Placed:
    rank: int  # 0-based rank of the player's member after the update
    in_step: bool  # the index reflects this update's version: the rank is exact


async def put(board: str, player_id: int, sort_key: str, *, version: int = 0) -> Placed:
    """The player's entry is now `sort_key` (change number `version` of the board), unless the
    index already holds a better one; where the player ranks now."""
    try:
        put = loop_client().eval(_PUT, 3, *keys(board), str(player_id), sort_key, str(version))
        rank, stored = await cast("Awaitable[list[Any]]", put)
    except (redis.RedisError, OSError) as error:
        raise _missed(board, version, error) from error
    return Placed(rank=int(rank), in_step=stored is not None and int(stored) >= version)


def _missed(board: str, version: int, error: Exception) -> RankIndexUnavailable:
    log.error("rank index of %s missed change %s (%s); the next reader catches up", board, version, error)
    return RankIndexUnavailable(str(error))


def catch_up(board: str, entries: list[tuple[int, str]], *, version: int) -> None:
    """Apply entries the index missed, then mark it as reflecting `version`."""
    try:
        script = client().register_script(_CATCH_UP)
        batches = [entries[i : i + _BATCH] for i in range(0, len(entries), _BATCH)] or [[]]
        for n, batch in enumerate(batches):
            last = "1" if n == len(batches) - 1 else "0"
            script(keys=keys(board), args=[version, last, *(x for p, k in batch for x in (str(p), k))])
    except (redis.RedisError, OSError) as error:
        raise RankIndexUnavailable(str(error)) from error


def rebuild(board: str, entries: Iterable[tuple[int, str]], *, version: int) -> int:
    """Replace the board's index by `entries` (player id, sort key) reflecting `version`; returns how many."""
    zkey, hkey, vkey = keys(board)
    try:
        redis_client = client()
        build = redis_client.pipeline(transaction=False)
        ztmp, htmp = f"{zkey}:rebuild", f"{hkey}:rebuild"
        build.delete(ztmp, htmp)
        count = 0
        for player_id, sort_key in entries:
            build.zadd(ztmp, {sort_key: 0})
            build.hset(htmp, str(player_id), sort_key)
            count += 1
        build.execute()
        swap = redis_client.pipeline(transaction=True)
        if count:
            swap.rename(ztmp, zkey)
            swap.rename(htmp, hkey)
        else:
            swap.delete(zkey, hkey)
        swap.set(vkey, version)
        swap.execute()
    except (redis.RedisError, OSError) as error:
        raise RankIndexUnavailable(str(error)) from error
    return count


@contextmanager
def rebuilding(board: str) -> Iterator[None]:
    """One rebuild of a board at a time across processes; RankIndexBusy if another runs."""
    lock, token = f"lb:rank-rebuild:{board}", uuid.uuid4().hex
    try:
        taken = client().set(lock, token, nx=True, ex=_REBUILD_LOCK_SECONDS)
    except (redis.RedisError, OSError) as error:
        raise RankIndexUnavailable(str(error)) from error
    if not taken:
        raise RankIndexBusy(f"the index of {board} is being rebuilt")
    try:
        yield
    finally:
        try:
            if client().get(lock) == token:
                client().delete(lock)
        except (redis.RedisError, OSError):
            pass  # it expires by itself


@dataclass(frozen=True)
class Page:
    """What one read of a board needs from the index, in one round trip (two around a player)."""

    version: int | None  # the board version the index reflects (None: unknown)
    total: int
    keys: list[str]  # sort keys, best first
    first: int  # 0-based rank of keys[0]
    my_rank: int | None  # 0-based rank of `mine`, or of `my_key` when read by player
    cached: str | None = None  # what was stored under `cached_page` (leaderboard.selectors keeps the top page there)
    my_key: str | None = None  # read by player: the index's member for that player (None: none)


def page_key(board: str, limit: int) -> str:
    """Where a reader keeps the document's top page of `limit` entries (leaderboard.selectors)."""
    return f"lb:rank-top:{board}:{limit}"


# The index's member for a player (its hash) and that member's rank: a rank read without first
# asking PostgreSQL for the player's key (leaderboard.selectors compares the two afterwards).
_MEMBER_AND_RANK = """
local member = redis.call('HGET', KEYS[2], ARGV[1])
if not member then return {false, false} end
return {member, redis.call('ZRANK', KEYS[1], member)}
"""


async def read_page(
    board: str,
    *,
    after: str | None,
    count: int,
    mine: str | None,
    around_me: bool = False,
    cached_page: str | None = None,
    player: int | None = None,
) -> Page:
    """`count` keys after the cursor `after` (or centred on `mine` when `around_me`), the total,
    the rank of `mine` and the version, read together; with `cached_page`, also that key's value.
    Given `player` instead of `mine` (not around it), the rank is of the index's own member for that
    player, which the page names (`my_key`). RankIndexUnavailable if Redis fails."""
    zkey, hkey, vkey = keys(board)
    client = loop_client()
    pipe = client.pipeline(transaction=False)
    pipe.get(vkey)
    pipe.zcard(zkey)
    by_player = player is not None and mine is None and not around_me
    if by_player:
        pipe.eval(_MEMBER_AND_RANK, 2, zkey, hkey, str(player))
    elif mine is not None:
        pipe.zrank(zkey, mine)
    if cached_page is not None:
        pipe.get(cached_page)
    paged = not around_me or mine is None
    if paged:
        pipe.zrange(zkey, "-" if after is None else f"({after}", "+", bylex=True, offset=0, num=count)
        if after is not None:
            pipe.zlexcount(zkey, "-", f"[{after}")
    try:
        replies = iter(await pipe.execute())
        version, total = next(replies), next(replies)
        my_key = None
        if by_player:
            my_key, rank = next(replies)
            my_rank = None if rank is None else int(rank)
        else:
            my_rank = None if mine is None or (rank := next(replies)) is None else int(rank)
        cached = next(replies) if cached_page is not None else None
        if paged:
            page_keys = list(next(replies))
            first = int(next(replies)) if after is not None else 0
        else:
            first = 0 if my_rank is None else max(0, my_rank - (count - 1) // 2)  # count is a page + 1
            # The rank comes first: a second round trip, for this kind of page only.
            page_keys = list(await client.zrange(zkey, first, first + count - 1))
    except (redis.RedisError, OSError) as error:
        raise RankIndexUnavailable(str(error)) from error
    return Page(
        version=None if version is None else int(version),
        total=int(total),
        keys=page_keys,
        first=first,
        my_rank=my_rank,
        cached=cached or None,
        my_key=my_key,
    )


async def keep_page(key: str, value: str, *, seconds: int) -> None:
    """Store a reader's page document (best effort: a failure only means the next reader builds it)."""
    try:
        await loop_client().set(key, value, ex=seconds)
    except (redis.RedisError, OSError, RankIndexUnavailable) as error:
        log.warning("rank index: page not kept (%s)", error)


class RedisRanks:
    """Rank answers for one board from its sorted set (0-based ranks); the bench and tests use it."""

    def __init__(self, board: str) -> None:
        self.key = keys(board)[0]
        self.client = client()

    def total(self) -> int:
        return cast(int, self.client.zcard(self.key))

    def rank(self, sort_key: str) -> int | None:
        return cast("int | None", self.client.zrank(self.key, sort_key))

    def after(self, sort_key: str | None, count: int) -> list[str]:
        low = "-" if sort_key is None else f"({sort_key}"
        return cast("list[str]", self.client.zrange(self.key, low, "+", bylex=True, offset=0, num=count))

    def at(self, offset: int, count: int) -> list[str]:
        return cast("list[str]", self.client.zrange(self.key, offset, offset + count - 1))
