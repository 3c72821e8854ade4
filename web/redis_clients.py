"""One Redis client (and so one connection pool) per address for the whole process.

Django's cache client is rebuilt per request under ASGI, so the hot paths
(rate limits, the token cache, the rank index, the watched-board check) keep
their own. They all share this: a 1 s timeout so a Redis that hangs fails
fast (every caller falls back), and no driver info, so a new connection
neither looks redis-py's version up in the package metadata nor sends it
(`CLIENT SETINFO`): the pools grow by a connection per concurrent request.
"""

from __future__ import annotations

import threading

import redis

_clients: dict[tuple[str, bool], redis.Redis] = {}
_lock = threading.Lock()


def shared_client(url: str, *, decode: bool = False) -> redis.Redis:
    """The process's client for `url`; `decode` answers str instead of bytes."""
    with _lock:
        client = _clients.get((url, decode))
        if client is None:
            client = _clients[(url, decode)] = redis.Redis.from_url(
                url, decode_responses=decode, socket_timeout=1.0, socket_connect_timeout=1.0, driver_info=None
            )
    return client
