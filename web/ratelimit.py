"""Rate limits: one counter per (bucket, subject), whose window opens at its first hit.

A window that opens at the first hit, rather than on the clock's boundaries, cannot be reset by the
clock turning over between two attempts: a limit of five failed log-ins in five minutes is five,
never ten across a boundary, and a refusal's Retry-After is the true time left.

With Redis the counter is one round trip (SET NX EX, INCR and PTTL in one transaction, so a counter
never lives without its expiry) on the event loop's client (web.storage); sync code counts through
asgiref's async_to_sync. Without Redis, and for the per-action limit of play (`hit_in_process`,
where a Redis round trip per action cost a tenth of a worker's CPU), a table in this process. While
Redis is away every limit is counted in that table instead: it then holds per process, never not at
all (a failed log-in limit that let every guess through while Redis was down was a hole), and play
goes on.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass
from typing import cast

import redis
from asgiref.sync import async_to_sync
from django.utils.translation import gettext, ngettext

from web import storage
from web.errors import RateLimited

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


def _key(bucket: str, subject: str) -> str:
    return f"rl:{bucket}:{subject}"


def refusal(message: str, seconds_left: float) -> RateLimited:
    """The 429 of a limit whose window has `seconds_left`: `message` (marked for translation, said
    in the request's language), then when to try again."""
    retry_after = max(1, math.ceil(seconds_left))
    wait = ngettext("Try again in %(n)s second.", "Try again in %(n)s seconds.", retry_after) % {"n": retry_after}
    return RateLimited(f"{gettext(message)} {wait}", retry_after=retry_after)


@dataclass(frozen=True, slots=True)
class Attempt:
    """One hit counted: its counter's key, the window's count with it and the seconds left in the
    window, and whether it was counted in this process's table rather than in Redis."""

    key: str
    count: int
    seconds_left: float
    in_process: bool = False


async def _count(keys: Sequence[str], seconds: int) -> list[Attempt]:
    """Count one hit of each key, in one transaction in Redis (so concurrent callers see their
    counts in one order), or in this process without it or while it is away."""
    client = storage.redis_client()
    if client is not None:
        try:
            pipe = client.pipeline(transaction=True)
            for key in keys:
                pipe.set(key, 0, ex=seconds, nx=True)  # opens the window with its expiry; INCR keeps it
                pipe.incr(key)
                pipe.pttl(key)
            replies = await pipe.execute()
            counted = zip(replies[1::3], replies[2::3], strict=True)
            return [Attempt(key, int(count), max(int(left), 0) / 1000) for key, (count, left) in zip(keys, counted)]
        except (redis.RedisError, OSError):
            buckets = ", ".join(key.split(":")[1] for key in keys)
            log.warning("rate limits %s counted in this process: Redis unavailable", buckets)
    return [Attempt(key, *_in_process.count(key, seconds), in_process=True) for key in keys]


@dataclass(frozen=True, slots=True)
class Limit:
    """One limit to count: `limit` hits of `bucket` per `subject` in `seconds`, refused in `message`."""

    bucket: str
    subject: str
    limit: int
    seconds: int
    message: str

    def hit(self) -> None:
        """Count a hit of this limit (sync code: `hit_each` for async code)."""
        async_to_sync(hit_each)([self])


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


async def hit_each(limits: Sequence[Limit]) -> None:
    """Count a hit of each limit in turn, all in one round trip; RateLimited for the first past its
    limit (the ones after it are not counted)."""
    client = storage.redis_client()
    keys = [_key(each.bucket, each.subject) for each in limits]
    if client is not None:
        numbers = [str(number) for each in limits for number in (each.seconds, each.limit)]
        try:
            refused, left_ms = await cast(
                "Awaitable[list[int]]", client.eval(_COUNT_IN_ORDER, len(keys), *keys, *numbers)
            )
        except (redis.RedisError, OSError):
            buckets = ", ".join(each.bucket for each in limits)
            log.warning("rate limits %s counted in this process: Redis unavailable", buckets)
        else:
            if refused:
                raise refusal(limits[int(refused) - 1].message, max(int(left_ms), 0) / 1000)
            return
    for each, key in zip(limits, keys, strict=True):
        _judge(_in_process.count(key, each.seconds), each.limit, each.message)


def record(bucket: str, subject: str, *, seconds: int) -> int:
    """Count one event in the subject's window and return the window's count (sync code)."""
    return count_attempt(bucket, subject, seconds=seconds).count


def hit(bucket: str, subject: str, *, limit: int, seconds: int, message: str) -> None:
    """Count one event; raise RateLimited once more than `limit` fall in the window (sync code)."""
    Limit(bucket, subject, limit, seconds, message).hit()


def count_attempt(bucket: str, subject: str, *, seconds: int) -> Attempt:
    """Count one attempt before doing what it attempts (one atomic INCR, so concurrent attempts
    cannot all slip under a limit), for the caller to judge (`refusal`) and, when the attempt turns
    out not to count, to `give_back` (sync code)."""
    (attempt,) = count_attempts([(bucket, subject)], seconds=seconds)
    return attempt


def count_attempts(subjects: Sequence[tuple[str, str]], *, seconds: int) -> list[Attempt]:
    """`count_attempt` for each (bucket, subject), counted together (sync code)."""
    return async_to_sync(_count)([_key(bucket, subject) for bucket, subject in subjects], seconds)


def take(bucket: str, subject: str, *, limit: int, seconds: int, message: str) -> Attempt:
    """`count_attempt`, and raise RateLimited past `limit`."""
    attempt = count_attempt(bucket, subject, seconds=seconds)
    _judge((attempt.count, attempt.seconds_left), limit, message)
    return attempt


def _judge(counted: tuple[int, float], limit: int, message: str) -> None:
    count, left = counted
    if count > limit:
        raise refusal(message, left)


def give_back(attempt: Attempt) -> None:
    """Uncount an attempt `count_attempt` counted, if its window is still open (sync code)."""
    if attempt.in_process:
        _in_process.uncount(attempt.key)
        return
    async_to_sync(_give_back)(attempt.key)


async def _give_back(key: str) -> None:
    client = storage.redis_client()
    if client is None:
        _in_process.uncount(key)
        return
    try:
        if int(await client.decr(key)) <= 0:
            await client.delete(key)  # at nothing, or a DECR of an expired counter made one without expiry
    except (redis.RedisError, OSError):  # Redis away: the attempt stays counted until its window ends
        pass


def hit_in_process(bucket: str, subject: str, *, limit: int, seconds: int, message: str) -> None:
    """`hit`, counted in this process only: the bound is then `limit` per worker process, and it
    holds while Redis is away."""
    _judge(_in_process.count(_key(bucket, subject), seconds), limit, message)


def clear_in_process() -> None:
    """Forget this process's own counters (tests start each from nothing)."""
    _in_process.clear()
