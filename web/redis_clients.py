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
from collections.abc import Awaitable, Sequence
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
    with hiredis as they arrive, one exchange at a time. redis-py's async client spent more of a
    board read's worker CPU than the read itself, in packing, a timeout per reply and its retry
    wrapper (bench/README.md). A reply that is an error raises redis.ResponseError; a connection
    that fails or hangs past the timeout raises redis.ConnectionError or redis.TimeoutError, and the
    next exchange connects again.

    Callers that ask while an exchange is under way go together in the next one: one write and one
    read for all of them, where each took a round trip of its own (Redis's CPU is mostly its system
    calls, a round trip's, not a command's). Each still gets only its own replies and errors.

    The replies are read by the connection's protocol as they arrive, and the next exchange is sent
    from there: a caller's task wakes once, with its replies, and no task is made for the
    exchange. So `pipeline` writes its commands before it returns (once connected), and the caller
    may do more before awaiting their replies (leaderboard/loop_reads.py asks PostgreSQL meanwhile)."""

    def __init__(self, url: str, *, decode: bool) -> None:
        self._options = parse_url(url)
        self._encoding = "utf-8" if decode else None
        self._connection: _Connection | None = None
        self._connecting: asyncio.Task[None] | None = None
        self._waiting: list[_Asked] = []  # asked while connecting

    async def execute(self, *command: str | int | float | bytes) -> Any:
        """The reply to one command."""
        (reply,) = await self.pipeline([command])
        return reply

    def pipeline(self, commands: Sequence[Sequence[str | int | float | bytes]]) -> Awaitable[list[Any]]:
        """The replies to `commands`, in order, sent in one round trip: written now if connected and
        no exchange is under way, else with the next one; await the result for the replies."""
        asked = _Asked.of(commands)
        connection = self._connection
        if connection is not None and connection.open:
            connection.ask(asked)
        else:
            self._waiting.append(asked)
            if self._connecting is None:
                self._connecting = asyncio.get_running_loop().create_task(self._connect())
        return _replies(asked)

    async def _connect(self) -> None:
        """Connect, greet (AUTH, SELECT), and send what was asked meanwhile; or fail all of it."""
        options = self._options
        connection: _Connection | None = None
        try:
            async with asyncio.timeout(_TIMEOUT):
                loop = asyncio.get_running_loop()
                host, port = options.get("host", "localhost"), options.get("port", 6379)
                _, connection = await loop.create_connection(lambda: _Connection(self._encoding), host, port)
                greeting: list[tuple[str | int, ...]] = []
                if options.get("password"):
                    user = [options["username"]] if options.get("username") else []
                    greeting.append(("AUTH", *user, options["password"]))
                if options.get("db"):
                    greeting.append(("SELECT", int(options["db"])))
                if greeting:
                    greeted = _Asked.of(greeting)
                    connection.ask(greeted)
                    for reply in await greeted.future:
                        if isinstance(reply, hiredis.ReplyError):
                            raise redis.ConnectionError(str(reply))
        except BaseException as failed:
            if connection is not None:
                connection.close()
            error = _error_of(failed)
            for asked in self._take_waiting():
                asked.fail(error)
            if not isinstance(failed, Exception):
                raise  # cancelled: the callers were told
            return
        finally:
            self._connecting = None
        self._connection = connection
        for asked in self._take_waiting():
            connection.ask(asked)

    def _take_waiting(self) -> list[_Asked]:
        waiting, self._waiting = self._waiting, []
        return waiting

    async def close(self) -> None:
        connecting, self._connecting = self._connecting, None
        if connecting is not None:
            connecting.cancel()
            with contextlib.suppress(BaseException):
                await connecting
        connection, self._connection = self._connection, None
        if connection is not None:
            connection.close()
            await connection.closed


async def _replies(asked: _Asked) -> list[Any]:
    replies = await asked.future
    for reply in replies:
        if isinstance(reply, hiredis.ReplyError):
            raise redis.ResponseError(str(reply))
    return replies


def _error_of(failed: BaseException) -> redis.RedisError:
    """The redis-py error a caller is told of, for what went wrong with its exchange."""
    if isinstance(failed, redis.RedisError):
        return failed
    if isinstance(failed, TimeoutError):
        return redis.TimeoutError("Redis did not answer in time")
    if isinstance(failed, OSError):
        return redis.ConnectionError(str(failed))
    return redis.ConnectionError("the exchange with Redis was cancelled")


class _Asked:
    """One caller's commands, packed, and the future of their replies."""

    __slots__ = ("count", "future", "packed")

    def __init__(self, packed: bytes, count: int) -> None:
        self.packed = packed
        self.count = count
        self.future: asyncio.Future[list[Any]] = asyncio.get_running_loop().create_future()

    @classmethod
    def of(cls, commands: Sequence[Sequence[str | int | float | bytes]]) -> _Asked:
        return cls(b"".join(_packed(command) for command in commands), len(commands))

    def answer(self, replies: list[Any]) -> None:
        if not self.future.done():  # its caller may have been cancelled: the replies are dropped
            self.future.set_result(replies)

    def fail(self, error: redis.RedisError) -> None:
        if not self.future.done():
            self.future.set_exception(type(error)(str(error)))  # each caller raises an exception of its own


class _Connection(asyncio.Protocol):
    """One connection: the exchange under way (its callers, in order, and the replies read so far)
    and the callers that go in the next."""

    def __init__(self, encoding: str | None) -> None:
        self.open = True
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._reader = hiredis.Reader(encoding=encoding) if encoding else hiredis.Reader()
        self._transport: asyncio.Transport | None = None
        self._sent: list[_Asked] = []
        self._replies: list[Any] = []
        self._expected = 0
        self._next: list[_Asked] = []
        self._deadline: asyncio.TimerHandle | None = None

    def ask(self, asked: _Asked) -> None:
        if self._sent:
            self._next.append(asked)
        else:
            self._send([asked])

    def _send(self, batch: list[_Asked]) -> None:
        assert self._transport is not None
        self._sent, self._replies = batch, []
        self._expected = sum(asked.count for asked in batch)
        self._transport.write(b"".join(asked.packed for asked in batch))
        self._deadline = asyncio.get_running_loop().call_later(_TIMEOUT, self._timed_out)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport

    def data_received(self, data: bytes) -> None:
        self._reader.feed(data)
        replies = self._replies
        try:
            while len(replies) < self._expected:
                reply = self._reader.gets()
                if reply is False:
                    return  # more to come
                replies.append(reply)
            if not self._sent or self._reader.gets() is not False:
                raise hiredis.ProtocolError("a reply nobody asked for")
        except Exception as error:  # noqa: BLE001 - a reply not read (garbled, or not text as asked): every caller is told
            self._fail(redis.ConnectionError(f"Redis's reply could not be read: {error}"))
            return
        if self._deadline is not None:
            self._deadline.cancel()
        at = 0
        for asked in self._sent:
            asked.answer(replies[at : at + asked.count])
            at += asked.count
        self._sent = []
        if self._next:
            batch, self._next = self._next, []
            self._send(batch)

    def eof_received(self) -> bool | None:
        self._fail(redis.ConnectionError("Redis closed the connection"))
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        self._fail(redis.ConnectionError(str(exc) if exc else "Redis closed the connection"))
        if not self.closed.done():
            self.closed.set_result(None)

    def _timed_out(self) -> None:
        self._fail(redis.TimeoutError("Redis did not answer in time"))

    def _fail(self, error: redis.RedisError) -> None:
        """Every caller of this connection is told, and the connection is dropped: the next asks anew."""
        self.open = False
        if self._deadline is not None:
            self._deadline.cancel()
        failed, self._sent, self._next = self._sent + self._next, [], []
        for asked in failed:
            asked.fail(error)
        if self._transport is not None:
            self._transport.abort()

    def close(self) -> None:
        self.open = False
        if self._transport is not None:
            self._transport.close()


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
