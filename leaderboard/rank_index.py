"""The rank index: one Redis sorted set per board, rebuilt from PostgreSQL at will.

Members are the entries' sort keys (leaderboard.ranking) with every score 0,
so ZRANK is a rank and ZRANGE BYLEX a page after a cursor, both O(log n).
A hash beside it maps each player to their member, so an update replaces the
player's old member atomically (a Lua script) and only ever with a better
one: updates that arrive out of order cannot leave a player on a board twice.

Any Redis failure raises RankIndexUnavailable; readers then ask PostgreSQL.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

import redis
from django.conf import settings

log = logging.getLogger(__name__)

_PUT = """
local current = redis.call('HGET', KEYS[2], ARGV[1])
if current then
  if current <= ARGV[2] then return 0 end
  redis.call('ZREM', KEYS[1], current)
end
redis.call('ZADD', KEYS[1], 0, ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 1
"""

_clients: dict[str, redis.Redis] = {}
# Boards whose last update failed here: rebuilt before this process trusts them again.
_stale: set[str] = set()


class RankIndexUnavailable(Exception):
    pass


def enabled() -> bool:
    return bool(settings.REDIS_URL)


def _client() -> redis.Redis:
    url = settings.REDIS_URL
    if not url:
        raise RankIndexUnavailable("no REDIS_URL")
    if url not in _clients:
        _clients[url] = redis.Redis.from_url(url, decode_responses=True, socket_timeout=1.0, socket_connect_timeout=1.0)
    return _clients[url]


def _keys(board: str) -> tuple[str, str]:
    return f"lb:rank:{board}", f"lb:rank-player:{board}"


def put(board: str, player_id: int, sort_key: str) -> None:
    """The player's entry is now `sort_key`, unless the index already holds a better one."""
    try:
        _client().eval(_PUT, 2, *_keys(board), str(player_id), sort_key)
    except (redis.RedisError, OSError) as error:
        _stale.add(board)
        log.error("rank index of %s missed an update (%s); it is rebuilt on next use", board, error)
        raise RankIndexUnavailable(str(error)) from error


def rebuild(board: str, entries: Iterable[tuple[int, str]]) -> int:
    """Replace the board's index by `entries` (player id, sort key); returns how many."""
    zkey, hkey = _keys(board)
    try:
        client = _client()
        build = client.pipeline(transaction=False)
        ztmp, htmp = f"{zkey}:rebuild", f"{hkey}:rebuild"
        build.delete(ztmp, htmp)
        count = 0
        for player_id, sort_key in entries:
            build.zadd(ztmp, {sort_key: 0})
            build.hset(htmp, str(player_id), sort_key)
            count += 1
        build.execute()
        swap = client.pipeline(transaction=True)
        if count:
            swap.rename(ztmp, zkey).rename(htmp, hkey)
        else:
            swap.delete(zkey, hkey)
        swap.execute()
    except (redis.RedisError, OSError) as error:
        raise RankIndexUnavailable(str(error)) from error
    _stale.discard(board)
    return count


class RedisRanks:
    """Rank answers for one board from its sorted set (0-based ranks)."""

    def __init__(self, board: str) -> None:
        self.board = board
        self.key = _keys(board)[0]
        self.client = _client()

    def needs_rebuild(self) -> bool:
        if self.board in _stale:
            return True
        try:
            return not self.client.exists(self.key)
        except (redis.RedisError, OSError) as error:
            raise RankIndexUnavailable(str(error)) from error

    def total(self) -> int:
        return int(self._call(self.client.zcard, self.key))

    def rank(self, sort_key: str) -> int | None:
        found = self._call(self.client.zrank, self.key, sort_key)
        return None if found is None else int(found)

    def after(self, sort_key: str | None, count: int) -> list[str]:
        low = "-" if sort_key is None else f"({sort_key}"
        return list(self._call(self.client.zrange, self.key, low, "+", bylex=True, offset=0, num=count))

    def at(self, offset: int, count: int) -> list[str]:
        return list(self._call(self.client.zrange, self.key, offset, offset + count - 1))

    @staticmethod
    def _call(method: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        try:
            return method(*args, **kwargs)
        except (redis.RedisError, OSError) as error:
            raise RankIndexUnavailable(str(error)) from error
