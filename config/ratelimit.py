"""Fixed-window rate limits kept in the cache (Redis in production).

One counter per (bucket, subject, window); a refusal carries the seconds
until the window ends, for the Retry-After header. If the cache itself is
down, limits fail open: play goes on while Redis is away.
"""

from __future__ import annotations

import logging
import time

from django.core.cache import cache

from config.errors import RateLimited

log = logging.getLogger(__name__)


def _window(bucket: str, subject: str, seconds: int) -> tuple[str, int]:
    now = time.time()
    start = int(now // seconds) * seconds
    retry_after = max(1, int(start + seconds - now + 0.999))
    return f"rl:{bucket}:{subject}:{start}", retry_after


def _refuse(message: str, retry_after: int) -> RateLimited:
    return RateLimited(f"{message} Try again in {retry_after} seconds.", retry_after=retry_after)


def record(bucket: str, subject: str, *, seconds: int) -> int:
    """Count one event in the current window and return the window's count (0 if the cache is down)."""
    key, _ = _window(bucket, subject, seconds)
    try:
        if cache.add(key, 1, timeout=seconds + 1):
            return 1
        try:
            return int(cache.incr(key))
        except ValueError:  # the key expired between add and incr
            cache.add(key, 1, timeout=seconds + 1)
            return 1
    except Exception:  # noqa: BLE001 - any cache failure: fail open, say so in the log
        log.warning("rate limit %s not counted: cache unavailable", bucket, exc_info=True)
        return 0


def hit(bucket: str, subject: str, *, limit: int, seconds: int, message: str) -> None:
    """Count one event; raise RateLimited once more than `limit` fall in the window."""
    if record(bucket, subject, seconds=seconds) > limit:
        raise _refuse(message, _window(bucket, subject, seconds)[1])


def check(bucket: str, subject: str, *, limit: int, seconds: int, message: str) -> None:
    """Refuse if the window already holds `limit` events, without counting one."""
    key, retry_after = _window(bucket, subject, seconds)
    try:
        count = int(cache.get(key) or 0)
    except Exception:  # noqa: BLE001
        log.warning("rate limit %s not checked: cache unavailable", bucket, exc_info=True)
        return
    if count >= limit:
        raise _refuse(message, retry_after)
