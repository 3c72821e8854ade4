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

import asyncio
import contextlib
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import hiredis
import redis
from redis.connection import parse_url

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


_TIMEOUT = 1.0  # seconds: a Redis slower than this is treated as away, by the shared clients and the loops'


def _client_options(decode: bool) -> dict[str, Any]:
    return {
        "decode_responses": decode,
        "socket_timeout": _TIMEOUT,
        "socket_connect_timeout": _TIMEOUT,
        "driver_info": None,
    }


class LoopRedis:
    """An event loop's connection to one Redis: commands sent in one write and their replies read
    with hiredis as they come, one exchange at a time. redis-py's async client spent more of a
    board read's worker CPU than the read itself, in packing, a timeout per reply and its retry
    wrapper (bench/README.md). A reply that is an error raises redis.ResponseError; a connection
    that fails or hangs past the timeout raises redis.ConnectionError or redis.TimeoutError, and the
    next exchange connects again.

    Callers that ask while an exchange is under way go together in the next one: one write and one
    read for all of them, where each took a round trip of its own (Redis's CPU is mostly its system
    calls, a round trip's, not a command's). Each still gets only its own replies and errors."""

    def __init__(self, url: str, *, decode: bool) -> None:
        self._options = parse_url(url)
        self._encoding = "utf-8" if decode else None
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self._reader = hiredis.Reader()
        self._turn = asyncio.Lock()
        self._queued: list[_Asked] = []

    async def execute(self, *command: str | int | float | bytes) -> Any:
        """The reply to one command."""
        (reply,) = await self.pipeline([command])
        return reply

    async def pipeline(self, commands: Sequence[Sequence[str | int | float | bytes]]) -> list[Any]:
        """The replies to `commands`, in order, sent in one round trip."""
        asked = _Asked(b"".join(_packed(command) for command in commands), len(commands))
        self._queued.append(asked)
        async with self._turn:
            if asked.replies is None and asked.error is None:  # not sent with another caller's: send the queue
                batch, self._queued = self._queued, []
                await self._exchange(batch)
        if asked.error is not None:
            raise asked.error
        assert asked.replies is not None
        for reply in asked.replies:
            if isinstance(reply, hiredis.ReplyError):
                raise redis.ResponseError(str(reply))
        return asked.replies

    async def _exchange(self, batch: list[_Asked]) -> None:
        """Send every caller's commands in one write and hand each its replies, or the error."""
        error: redis.RedisError
        try:
            async with asyncio.timeout(_TIMEOUT):
                reader, writer = await self._connected()
                writer.write(b"".join(asked.packed for asked in batch))
                replies = await self._read(reader, sum(asked.count for asked in batch))
        except TimeoutError:
            error = redis.TimeoutError("Redis did not answer in time")
        except OSError as failed:
            error = redis.ConnectionError(str(failed))
        except redis.RedisError as failed:  # refused on connecting (its AUTH or SELECT)
            error = failed
        except BaseException:  # cancelled: the replies are unread, so the connection is of no more use
            self._drop()
            for asked in batch:
                asked.error = redis.ConnectionError("the exchange with Redis was cancelled")
            raise
        else:
            at = 0
            for asked in batch:
                asked.replies, at = replies[at : at + asked.count], at + asked.count
            return
        self._drop()
        for asked in batch:
            asked.error = type(error)(str(error))  # each caller raises an exception of its own

    async def _connected(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if self._streams is None:
            options = self._options
            host, port = options.get("host", "localhost"), options.get("port", 6379)
            reader, writer = await asyncio.open_connection(host, port)
            self._streams = reader, writer
            self._reader = hiredis.Reader(encoding=self._encoding) if self._encoding else hiredis.Reader()
            greeting: list[tuple[str | int, ...]] = []
            if options.get("password"):
                user = [options["username"]] if options.get("username") else []
                greeting.append(("AUTH", *user, options["password"]))
            if options.get("db"):
                greeting.append(("SELECT", int(options["db"])))
            if greeting:
                writer.write(b"".join(_packed(command) for command in greeting))
                for reply in await self._read(reader, len(greeting)):
                    if isinstance(reply, hiredis.ReplyError):
                        self._drop()
                        raise redis.ConnectionError(str(reply))
        return self._streams

    async def _read(self, reader: asyncio.StreamReader, count: int) -> list[Any]:
        replies: list[Any] = []
        while len(replies) < count:
            reply = self._reader.gets()
            if reply is False:
                data = await reader.read(65536)
                if not data:
                    raise ConnectionResetError("Redis closed the connection")
                self._reader.feed(data)
            else:
                replies.append(reply)
        return replies

    def _drop(self) -> None:
        streams, self._streams = self._streams, None
        if streams is not None:
            streams[1].close()

    async def close(self) -> None:
        streams, self._streams = self._streams, None
        if streams is not None:
            streams[1].close()
            with contextlib.suppress(Exception):
                await streams[1].wait_closed()


@dataclass(slots=True)
class _Asked:
    """One caller's commands, packed, and what came of them."""

    packed: bytes
    count: int
    replies: list[Any] | None = None
    error: redis.RedisError | None = None


class _LoopClients:
    """One event loop's clients, by address."""

    def __init__(self) -> None:
        self.clients: dict[tuple[str, bool], LoopRedis] = {}

    def client(self, url: str, decode: bool) -> LoopRedis:
        found = self.clients.get((url, decode))
        if found is None:
            found = self.clients[(url, decode)] = LoopRedis(url, decode=decode)
        return found

    async def close(self) -> None:
        clients, self.clients = self.clients, {}
        for client in clients.values():
            await client.close()

    def abandon(self) -> None:
        self.clients = {}  # their sockets belong to a closed loop: they close with it


def _packed(command: Sequence[str | int | float | bytes]) -> bytes:
    # hiredis's stub types the command as a tuple of one item; it takes any number
    packed: bytes = hiredis.pack_command(tuple(command))  # type: ignore[arg-type]
    return packed


_per_loop: PerLoop[_LoopClients] = PerLoop(_LoopClients)


def on_this_loop(url: str, *, decode: bool = False) -> LoopRedis:
    """The running event loop's client for `url`."""
    return _per_loop.get().client(url, decode)
