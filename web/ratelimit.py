"""Rate limits: one counter per (bucket, subject), whose window opens at its first hit (so a turn of
the clock between two attempts never resets it, and Retry-After is the true time left).

With Redis the counters are one round trip (a script: a counter never lives without its expiry) on
the event loop's client (web.storage); sync code counts through async_to_sync. Without Redis, while
it is away, and for play's per-action limit (`hit_in_process`: a round trip per action costs too
much), a table in this process counts instead: a limit then holds per process, never not at all.
"""

from __future__ import annotations

import logging
import math
import sys
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
                    for old in [old for old, (end, _) in self._windows.items() if end <= now]:
                        del self._windows[old]
            window[1] += 1
            return int(window[1]), window[0] - now

    def uncount(self, key: str) -> None:
        with self._lock:
            window = self._windows.get(key)
            if window is not None and window[1] > 0:
                window[1] -= 1


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
    """One hit counted: its key, the window's count with it, the seconds left in the window, and
    whether it was counted in this process's table rather than in Redis."""

    key: str
    count: int
    seconds_left: float
    in_process: bool = False


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


# Each counter in order (opened with its expiry, then counted), stopping after the first past its
# limit: each one's count and the milliseconds left in its window.
_COUNT_IN_ORDER = """
local counted = {}
for i, key in ipairs(KEYS) do
  redis.call('SET', key, 0, 'EX', ARGV[2 * i - 1], 'NX')
  local count = redis.call('INCR', key)
  counted[i] = {count, redis.call('PTTL', key)}
  if count > tonumber(ARGV[2 * i]) then break end
end
return counted
"""


async def _count(counters: Sequence[tuple[str, int, int]]) -> list[Attempt]:
    """Count one hit of each (key, seconds, limit) in order, in one round trip, up to the first past its limit."""
    client = storage.redis_client()
    if client is not None:
        keys = [key for key, _, _ in counters]
        numbers = [str(number) for _, seconds, limit in counters for number in (seconds, limit)]
        try:
            replies = await cast("Awaitable[list[list[int]]]", client.eval(_COUNT_IN_ORDER, len(keys), *keys, *numbers))
            return [Attempt(key, int(count), max(int(ms), 0) / 1000) for key, (count, ms) in zip(keys, replies)]
        except (redis.RedisError, OSError):
            buckets = ", ".join(key.split(":")[1] for key in keys)
            log.warning("rate limits %s counted in this process: Redis unavailable", buckets)
    attempts: list[Attempt] = []
    for key, seconds, limit in counters:
        attempts.append(Attempt(key, *_in_process.count(key, seconds), in_process=True))
        if attempts[-1].count > limit:
            break
    return attempts


async def hit_each(limits: Sequence[Limit]) -> None:
    """Count a hit of each limit in turn, in one round trip; RateLimited for the first past its
    limit (the ones after it are not counted)."""
    attempts = await _count([(_key(each.bucket, each.subject), each.seconds, each.limit) for each in limits])
    last, each = attempts[-1], limits[len(attempts) - 1]
    if last.count > each.limit:
        raise refusal(each.message, last.seconds_left)


def hit(bucket: str, subject: str, *, limit: int, seconds: int, message: str) -> None:
    """Count one event; raise RateLimited once more than `limit` fall in the window (sync code)."""
    Limit(bucket, subject, limit, seconds, message).hit()


def count_attempts(subjects: Sequence[tuple[str, str]], *, seconds: int) -> list[Attempt]:
    """Count one attempt of each (bucket, subject) before doing what it attempts (atomic, so
    concurrent attempts cannot all slip under a limit), for the caller to judge (`refusal`) and,
    when an attempt turns out not to count, to `give_back` (sync code)."""
    counters = [(_key(bucket, subject), seconds, sys.maxsize) for bucket, subject in subjects]
    return async_to_sync(_count)(counters)


def count_attempt(bucket: str, subject: str, *, seconds: int) -> Attempt:
    (attempt,) = count_attempts([(bucket, subject)], seconds=seconds)
    return attempt


def take(bucket: str, subject: str, *, limit: int, seconds: int, message: str) -> Attempt:
    """`count_attempt`, and raise RateLimited past `limit`."""
    attempt = count_attempt(bucket, subject, seconds=seconds)
    if attempt.count > limit:
        raise refusal(message, attempt.seconds_left)
    return attempt


def give_back(attempt: Attempt) -> None:
    """Uncount an attempt `count_attempt` counted, if its window is still open (sync code)."""
    if attempt.in_process:
        _in_process.uncount(attempt.key)
    else:
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
    count, left = _in_process.count(_key(bucket, subject), seconds)
    if count > limit:
        raise refusal(message, left)


def clear_in_process() -> None:
    """Forget this process's own counters (tests start each from nothing)."""
    global _in_process
    _in_process = _InProcess()
