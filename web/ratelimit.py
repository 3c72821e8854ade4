"""Fixed-window rate limits: one counter per (bucket, subject, window).

With Redis the counter is one INCR round trip (EXPIRE too on a window's
first hit) on a process-wide connection pool (Django's cache client is
rebuilt per request under ASGI); without Redis, the local-memory cache.
The per-action limit of play is counted in each process instead
(`hit_in_process`). A refusal carries the seconds until the window ends,
for Retry-After. If Redis is down, limits fail open: play goes on while
Redis is away.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import cast

import redis
from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext, ngettext

from web.errors import RateLimited
from web.redis_clients import shared_client

log = logging.getLogger(__name__)

# bucket -> (window start, count per subject): one window per bucket, so its size is bounded by
# the subjects seen within one window.
_local_windows: dict[str, tuple[int, dict[str, int]]] = {}
_local_lock = threading.Lock()


def _redis() -> redis.Redis | None:
    url = settings.REDIS_URL
    return shared_client(url) if url else None


def _window(bucket: str, subject: str, seconds: int) -> tuple[str, int]:
    start, retry_after = _window_start(seconds)
    return f"rl:{bucket}:{subject}:{start}", retry_after


def _window_start(seconds: int) -> tuple[int, int]:
    """The current window's start and the whole seconds until it ends (for Retry-After)."""
    now = time.time()
    start = int(now // seconds) * seconds
    return start, max(1, int(start + seconds - now + 0.999))


def _refuse(message: str, retry_after: int) -> RateLimited:
    wait = ngettext("Try again in %(n)s second.", "Try again in %(n)s seconds.", retry_after) % {"n": retry_after}
    return RateLimited(f"{gettext(message)} {wait}", retry_after=retry_after)


def _count(key: str, seconds: int) -> int:
    client = _redis()
    if client is not None:
        # One INCR; the window's first hit also sets the expiry. A key left without one (Redis lost
        # between the two) only holds a past window's count: its name carries the window's start.
        count = cast(int, client.incr(key))  # redis-py types the sync client's replies as Awaitable | Any
        if count == 1:
            client.expire(key, seconds + 1)
        return count
    if cache.add(key, 1, timeout=seconds + 1):
        return 1
    try:
        return int(cache.incr(key))
    except ValueError:  # the key expired between add and incr
        cache.add(key, 1, timeout=seconds + 1)
        return 1


def record(bucket: str, subject: str, *, seconds: int) -> int:
    """Count one event in the current window and return the window's count (0 if Redis is down)."""
    key, _ = _window(bucket, subject, seconds)
    try:
        return _count(key, seconds)
    except (redis.RedisError, OSError):
        log.warning("rate limit %s not counted: Redis unavailable", bucket)
        return 0


def hit(bucket: str, subject: str, *, limit: int, seconds: int, message: str) -> None:
    """Count one event; raise RateLimited once more than `limit` fall in the window."""
    if record(bucket, subject, seconds=seconds) > limit:
        raise _refuse(message, _window(bucket, subject, seconds)[1])


def take(bucket: str, subject: str, *, limit: int, seconds: int, message: str) -> str:
    """Count one attempt before doing what it attempts (one atomic INCR, so concurrent attempts
    cannot all slip under the limit) and return its counter's key, for `give_back` when the
    attempt turns out not to count (a log-in that succeeded). Raise RateLimited past `limit`."""
    key, retry_after = _window(bucket, subject, seconds)
    try:
        count = _count(key, seconds)
    except (redis.RedisError, OSError):
        log.warning("rate limit %s not counted: Redis unavailable", bucket)
        return key
    if count > limit:
        raise _refuse(message, retry_after)
    return key


def give_back(key: str) -> None:
    """Uncount an attempt `take` counted (its window's counter, even if a new window began)."""
    try:
        client = _redis()
        if client is not None:
            if cast(int, client.decr(key)) <= 0:
                client.delete(key)  # a DECR of an expired counter left one without an expiry
        else:
            cache.decr(key)
    except (redis.RedisError, OSError, ValueError):  # Redis away, or the window's counter expired
        pass


def hit_in_process(bucket: str, subject: str, *, limit: int, seconds: int, message: str) -> None:
    """`hit`, counted in this process only: for the per-action limit on the play path, where a
    Redis round trip per action cost a tenth of a worker's CPU. The bound is then `limit` per
    worker process, and it holds while Redis is away."""
    start, retry_after = _window_start(seconds)
    with _local_lock:
        window = _local_windows.get(bucket)
        if window is None or window[0] != start:
            window = _local_windows[bucket] = (start, {})  # a new window: last window's subjects go
        counts = window[1]
        count = counts[subject] = counts.get(subject, 0) + 1
    if count > limit:
        raise _refuse(message, retry_after)


def clear_in_process() -> None:
    """Forget this process's own counters (tests start each from nothing)."""
    with _local_lock:
        _local_windows.clear()
