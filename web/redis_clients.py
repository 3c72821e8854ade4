"""One Redis client (and so one connection pool) per address for the whole process, and an async one
per address for each event loop (`on_this_loop`: the work served on the loop, web/loop_http.py).

Django's cache client is rebuilt per request under ASGI, so the hot paths
(rate limits, the token cache, the rank index, the watched-board check) keep
their own. They all share this: a 1 s timeout so a Redis that hangs fails
fast (every caller falls back), and no driver info, so a new connection
neither looks redis-py's version up in the package metadata nor sends it
(`CLIENT SETINFO`): the pools grow by a connection per concurrent request.
"""

from __future__ import annotations

import contextlib
import threading
from typing import Any

import redis
import redis.asyncio

from web.per_loop import PerLoop

_clients: dict[tuple[str, bool], redis.Redis] = {}
_lock = threading.Lock()


def shared_client(url: str, *, decode: bool = False) -> redis.Redis:
    """The process's client for `url`; `decode` answers str instead of bytes."""
    with _lock:
        client = _clients.get((url, decode))
        if client is None:
            client = _clients[(url, decode)] = redis.Redis.from_url(url, **_client_options(decode))
    return client


def _client_options(decode: bool) -> dict[str, Any]:
    return {"decode_responses": decode, "socket_timeout": 1.0, "socket_connect_timeout": 1.0, "driver_info": None}


class _LoopClients:
    """One event loop's async clients, by address."""

    def __init__(self) -> None:
        self.clients: dict[tuple[str, bool], redis.asyncio.Redis] = {}

    def client(self, url: str, decode: bool) -> redis.asyncio.Redis:
        found = self.clients.get((url, decode))
        if found is None:
            found = self.clients[(url, decode)] = redis.asyncio.Redis.from_url(url, **_client_options(decode))
        return found

    async def close(self) -> None:
        clients, self.clients = self.clients, {}
        for client in clients.values():
            with contextlib.suppress(Exception):
                await client.aclose()

    def abandon(self) -> None:
        self.clients = {}  # their sockets belong to a closed loop: they close with it


_per_loop: PerLoop[_LoopClients] = PerLoop(_LoopClients)


def on_this_loop(url: str, *, decode: bool = False) -> redis.asyncio.Redis:
    """The running event loop's async client for `url`."""
    return _per_loop.get().client(url, decode)
