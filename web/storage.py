"""How async code reaches storage: PostgreSQL through psycopg's AsyncConnectionPool, Redis through
redis.asyncio, chosen here once per event loop: the main thread's loop on PostgreSQL gets the loop's
pool (writes committed in groups, web.group_commit); any other (SQLite, asgiref's loops for sync code)
the caller's Django connection, so it sees its transaction. Errors come out as Django's either way.
Each loop's clients are closed with it (held by an async generator the loop finalizes), or by `close`.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import functools
import select
import threading
import weakref
from collections.abc import AsyncGenerator, Mapping, Sequence
from typing import Any

import psycopg
import redis
import redis.asyncio
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from psycopg import pq
from psycopg_pool import AsyncConnectionPool
from redis.backoff import NoBackoff

from web.group_commit import GroupCommit, Statement

Row = tuple[Any, ...]
Params = Sequence[Any] | Mapping[str, Any]
Statements = Sequence[tuple[str, Params]]

REDIS_TIMEOUT = 1.0  # seconds: a Redis slower than this is treated as away (every caller falls back)


async def fetchone(query: str, params: Params) -> Row | None:
    """The first row of `query` (None if it gives none)."""
    rows = await _read(query, params, every_row=False)
    return rows[0] if rows else None


async def fetchall(query: str, params: Params) -> list[Row]:
    return await _read(query, params, every_row=True)


async def commit_each(statements: Statements) -> list[Row | None]:
    """The first row of each statement, run in order in one transaction, once it is committed."""
    clients = await _clients()
    if clients.commits is None:
        return await sync_to_async(_commit_each_here)(statements)
    with values_database().wrap_database_errors:
        return await clients.commits.fetch_each(statements)


def grouped() -> bool:
    """Whether this loop commits in groups (`commit_row` serves): PostgreSQL, on the loop's pool."""
    return _clients_now().pool is not None


async def commit_row(statement: Statement, params: Mapping[str, Any]) -> Row | None:
    """The row that answers `statement`'s write, once committed in a group (only where `grouped`)."""
    clients = await _clients()
    assert clients.commits is not None, "commit_row serves only where grouped()"
    with values_database().wrap_database_errors:
        return await clients.commits.fetchone(statement, params)


def redis_client() -> redis.asyncio.Redis | None:
    """This loop's Redis client (answers str), None without REDIS_URL."""
    return _clients_now().redis


async def close() -> None:
    """Close the running loop's clients (the server, when it has drained)."""
    clients = _by_loop.pop(asyncio.get_running_loop(), None)
    if clients is not None:
        await clients.close()


def fetch_each(statements: Statements) -> list[Row | None]:
    """The first row of each statement, run in order on this thread's Django connection."""
    rows: list[Row | None] = []
    with connection.cursor() as cursor:
        for query, params in statements:
            cursor.execute(query, params)
            row = cursor.fetchone() if cursor.description is not None else None
            rows.append(None if row is None else tuple(row))
    return rows


def stored_datetime(value: dt.datetime | str) -> dt.datetime:
    """A timestamp as a row of these functions gives it: aware on PostgreSQL; on SQLite in UTC as
    Django writes it there (`values_database().ops.adapt_datetimefield_value`), naive or as text."""
    moment = dt.datetime.fromisoformat(value) if isinstance(value, str) else value
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)


@functools.cache
def values_database() -> BaseDatabaseWrapper:
    """The default database's wrapper, once per process, to prepare values and wrap errors (no query)."""
    return connections.create_connection(DEFAULT_DB_ALIAS)


@functools.cache
def blocking_redis(url: str) -> redis.Redis:
    """The process's redis-py client for `url`, for sync code (answers str)."""
    return redis.Redis.from_url(url, retry=redis.retry.Retry(NoBackoff(), 0), **_redis_options())


def _commit_each_here(statements: Statements) -> list[Row | None]:
    with transaction.atomic():
        return fetch_each(statements)


async def _read(query: str, params: Params, *, every_row: bool) -> list[Row]:
    clients = await _clients()
    if clients.pool is None:
        return await sync_to_async(_read_here)(query, params, every_row)
    with values_database().wrap_database_errors:
        async with clients.pool.connection() as conn:
            cursor = await conn.execute(query, params)
            return await cursor.fetchall() if every_row else await cursor.fetchmany(1)


def _read_here(query: str, params: Params, every_row: bool) -> list[Row]:
    with connection.cursor() as cursor:
        cursor.execute(query, params)
        return [tuple(row) for row in (cursor.fetchall() if every_row else cursor.fetchmany(1))]


class _Clients:
    """One event loop's clients."""

    def __init__(self, *, pooled: bool) -> None:
        self.connections: weakref.WeakSet[psycopg.AsyncConnection[Any]] = weakref.WeakSet()
        self.pool = _pool(self.connections) if pooled else None
        self.commits = GroupCommit(self.pool) if self.pool is not None else None
        url = settings.REDIS_URL
        self.redis = (
            redis.asyncio.Redis.from_url(url, retry=redis.asyncio.retry.Retry(NoBackoff(), 0), **_redis_options())
            if url
            else None
        )
        self._held: AsyncGenerator[None, None] | None = None
        self.ready = asyncio.get_running_loop().create_task(self._open())

    async def _open(self) -> None:
        if self.pool is not None:
            await self.pool.open()
        self._held = self._held_until_closed()
        await anext(self._held)  # the loop finalizes it (and so closes these) before it closes

    async def _held_until_closed(self) -> AsyncGenerator[None, None]:
        try:
            yield
        finally:
            if self.redis is not None:
                await self.redis.aclose()
            if self.pool is not None:
                # A loop that shuts down cancelled the pool's workers first: its close then fails
                # waiting for them, and the connections it made are closed here instead.
                with contextlib.suppress(asyncio.CancelledError, _Cancelled):
                    await self.pool.close()
                for made in list(self.connections):
                    await made.close()

    async def close(self) -> None:
        await self.ready
        if self._held is not None:
            await self._held.aclose()


_by_loop: dict[asyncio.AbstractEventLoop, _Clients] = {}


def _clients_now() -> _Clients:
    loop = asyncio.get_running_loop()
    found = _by_loop.get(loop)
    if found is None:
        for closed in [other for other in _by_loop if other.is_closed()]:
            del _by_loop[closed]  # closed without shutting down: nothing more can be done for it
        on_postgres = values_database().vendor == "postgresql"
        found = _by_loop[loop] = _Clients(pooled=on_postgres and threading.current_thread() is threading.main_thread())
    return found


async def _clients() -> _Clients:
    found = _clients_now()
    await found.ready
    return found


def _pool(made: weakref.WeakSet[psycopg.AsyncConnection[Any]]) -> AsyncConnectionPool:
    given = settings.DATABASES[DEFAULT_DB_ALIAS]
    options = given.get("OPTIONS") or {}
    params: dict[str, Any] = {
        "dbname": given["NAME"],
        "user": given.get("USER") or None,
        "password": given.get("PASSWORD") or None,
        "host": given.get("HOST") or None,
        "port": given.get("PORT") or None,
        "connect_timeout": settings.DB_POOL_TIMEOUT,
        **{name: options[name] for name in _LIBPQ_OPTIONS if name in options},
    }

    async def configure(conn: psycopg.AsyncConnection[Any]) -> None:
        made.add(conn)

    return AsyncConnectionPool(
        connection_class=_Connection,
        kwargs={"autocommit": True, **{name: value for name, value in params.items() if value is not None}},
        min_size=0,  # none made ahead: a loop that never queries opens none
        max_size=settings.DB_ASYNC_POOL_MAX,
        timeout=settings.DB_POOL_TIMEOUT,
        # While PostgreSQL is away each request tries again (after this): none waits for a long backoff.
        reconnect_timeout=1.0,
        configure=configure,
        check=_check,
        open=False,
        name="async",
    )


class _Connection(psycopg.AsyncConnection[Any]):
    """A cancelled connect says so past the pool, which would take it for a failure and try again
    forever while its loop shuts down."""

    @classmethod
    async def connect(cls, *args: Any, **kwargs: Any) -> _Connection:
        try:
            return await super().connect(*args, **kwargs)
        except asyncio.CancelledError:
            raise _Cancelled() from None


class _Cancelled(BaseException):
    """A connect cancelled (its loop shutting down): not an exception the pool takes for a failure."""


# libpq parameters of the Django connection that the pool's connections take too.
_LIBPQ_OPTIONS = ("sslmode", "sslrootcert", "sslcert", "sslkey", "application_name", "options")


async def _check(conn: psycopg.AsyncConnection[Any]) -> None:
    """psycopg's own check (a round trip) only when the idle connection has something to read: a
    server that ends a connection says so first, and a healthy idle one has nothing to read."""
    if conn.closed or conn.pgconn.status != pq.ConnStatus.OK or _has_input(conn.pgconn.socket):
        await AsyncConnectionPool.check_connection(conn)


def _has_input(fd: int) -> bool:
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLERR | select.POLLHUP)
    return bool(poller.poll(0))


def _redis_options() -> dict[str, Any]:
    """Both clients' (no retry: a failure is answered at once, and its caller falls back)."""
    return {
        "decode_responses": True,
        "socket_timeout": REDIS_TIMEOUT,
        "socket_connect_timeout": REDIS_TIMEOUT,
        "driver_info": None,  # no CLIENT SETINFO: one command less for each new connection
    }
