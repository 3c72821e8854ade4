"""Rate limits: one counter per (bucket, subject), whose window opens at its first hit.

A window that opens at the first hit, rather than on the clock's boundaries, cannot be reset by the
clock turning over between two attempts: a limit of five failed log-ins in five minutes is five,
never ten across a boundary, and a refusal's Retry-After is the true time left.

With Redis the counter is one round trip (SET NX EX, INCR and PTTL in one transaction, so a counter
never lives without its expiry) on a process-wide connection pool (Django's cache client is rebuilt
per request under ASGI); without Redis, and for the per-action limit of play (`hit_in_process`,
where a Redis round trip per action cost a tenth of a worker's CPU), a table in this process. If
Redis is down, limits fail open: play goes on while Redis is away.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import redis
from django.conf import settings
from django.utils.translation import gettext, ngettext

from web.errors import RateLimited
from web.redis_clients import on_this_loop, shared_client

log = logging.getLogger(__name__)


class _InProcess:
    """Counters of this process: key -> [window's end on the monotonic clock, count]."""

    SWEEP_EVERY = 1024  # new windows between sweeps of the expired ones: the table stays bounded

    def __init__(self) -> None:
        self._windows: dict[str, list[float]] = {}
        self._lock = threading.Lock()
        self._opened = 0

    def count(self, key: str, seconds: int) -> tuple[int, float]:
        """Count one hit; the window's count and the seconds left in it."""
        now = time.monotonic()
        with self._lock:
            window = self._windows.get(key)
            if window is None or window[0] <= now:
                window = self._windows[key] = [now + seconds, 0]
                self._opened += 1
                if self._opened % self.SWEEP_EVERY == 0:
                    self._sweep(now)
            window[1] += 1
            return int(window[1]), window[0] - now

    def uncount(self, key: str) -> None:
        with self._lock:
            window = self._windows.get(key)
            if window is not None and window[1] > 0:
                window[1] -= 1

    def clear(self) -> None:
        with self._lock:
            self._windows.clear()

    def _sweep(self, now: float) -> None:
        for key in [key for key, (end, _) in self._windows.items() if end <= now]:
            del self._windows[key]


_in_process = _InProcess()


def _redis() -> redis.Redis | None:
    url = settings.REDIS_URL
    return shared_client(url) if url else None


def _key(bucket: str, subject: str) -> str:
    return f"rl:{bucket}:{subject}"


def _refuse(message: str, seconds_left: float) -> RateLimited:
    retry_after = max(1, math.ceil(seconds_left))
    wait = ngettext("Try again in %(n)s second.", "Try again in %(n)s seconds.", retry_after) % {"n": retry_after}
    return RateLimited(f"{gettext(message)} {wait}", retry_after=retry_after)


def _count(key: str, seconds: int) -> tuple[int, float]:
    """Count one hit in Redis, or in this process without it: the count and the seconds left."""
    client = _redis()
    if client is None:
        return _in_process.count(key, seconds)
    with client.pipeline(transaction=True) as pipe:
        pipe.set(key, 0, ex=seconds, nx=True)  # opens the window with its expiry; INCR keeps it
        pipe.incr(key)
        pipe.pttl(key)
        _, count, left_ms = pipe.execute()
    return cast(int, count), max(cast(int, left_ms), 0) / 1000


@dataclass(frozen=True, slots=True)
class Limit:
    """One limit to count: `limit` hits of `bucket` per `subject` in `seconds`, refused in `message`."""

    bucket: str
    subject: str
    limit: int
    seconds: int
    message: str

    def hit(self) -> None:
        """`hit` this limit, on this thread."""
        hit(self.bucket, self.subject, limit=self.limit, seconds=self.seconds, message=self.message)


# The windows of several limits counted in order, each as _count does, stopping at the first
# past its limit (the ones after it are not counted, as when each is hit in turn): which one (from
# 1; 0: none) and the milliseconds left in its window.
_COUNT_IN_ORDER = """
for i, key in ipairs(KEYS) do
  redis.call('SET', key, 0, 'EX', ARGV[2 * i - 1], 'NX')
  if redis.call('INCR', key) > tonumber(ARGV[2 * i]) then return {i, redis.call('PTTL', key)} end
end
return {0, 0}
"""


async def hit_each_on_loop(limits: Sequence[Limit]) -> None:
    """`hit` for each limit in turn, on the running event loop's own Redis client (web/loop_http.py),
    all in one round trip; RateLimited for the first past its limit."""
    url = settings.REDIS_URL
    if not url:
        for each in limits:
            each.hit()  # counted in this process: no I/O to wait for
        return
    keys = [_key(each.bucket, each.subject) for each in limits]
    numbers = [str(number) for each in limits for number in (each.seconds, each.limit)]
    try:
        refused, left_ms = await on_this_loop(url).execute("EVAL", _COUNT_IN_ORDER, len(keys), *keys, *numbers)
    except (redis.RedisError, OSError):
        log.warning("rate limits %s not counted: Redis unavailable", ", ".join(each.bucket for each in limits))
        return
    if refused:
        raise _refuse(limits[int(refused) - 1].message, max(int(left_ms), 0) / 1000)


def record(bucket: str, subject: str, *, seconds: int) -> int:
    """Count one event in the subject's window and return the window's count (0 if Redis is down)."""
    try:
        return _count(_key(bucket, subject), seconds)[0]
    except (redis.RedisError, OSError):
        log.warning("rate limit %s not counted: Redis unavailable", bucket)
        return 0


def hit(bucket: str, subject: str, *, limit: int, seconds: int, message: str) -> None:
    """Count one event; raise RateLimited once more than `limit` fall in the window."""
    take(bucket, subject, limit=limit, seconds=seconds, message=message)


def take(bucket: str, subject: str, *, limit: int, seconds: int, message: str) -> str:
    """Count one attempt before doing what it attempts (one atomic INCR, so concurrent attempts
    cannot all slip under the limit) and return its counter's key, for `give_back` when the
    attempt turns out not to count (a log-in that succeeded). Raise RateLimited past `limit`."""
    key = _key(bucket, subject)
    try:
        counted = _count(key, seconds)
    except (redis.RedisError, OSError):
        log.warning("rate limit %s not counted: Redis unavailable", bucket)
        return key
    _judge(counted, limit, message)
    return key


def _judge(counted: tuple[int, float], limit: int, message: str) -> None:
    count, left = counted
    if count > limit:
        raise _refuse(message, left)


def give_back(key: str) -> None:
    """Uncount an attempt `take` counted, if its window is still open."""
    client = _redis()
    if client is None:
        _in_process.uncount(key)
        return
    try:
        if cast(int, client.decr(key)) <= 0:
            client.delete(key)  # at nothing, or a DECR of an expired counter made one without expiry
    except (redis.RedisError, OSError):  # Redis away: the attempt stays counted until its window ends
        pass


def hit_in_process(bucket: str, subject: str, *, limit: int, seconds: int, message: str) -> None:
    """`hit`, counted in this process only: the bound is then `limit` per worker process, and it
    holds while Redis is away."""
    _judge(_in_process.count(_key(bucket, subject), seconds), limit, message)


def clear_in_process() -> None:
    """Forget this process's own counters (tests start each from nothing)."""
    _in_process.clear()
