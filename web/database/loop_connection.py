"""An event loop's own connections to the database Django uses, for the work served on the loop
itself (play's appends in group commits, the hot HTTP requests: web/loop_http.py) rather than on
a thread with Django's connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import psycopg
from django.db import connections

from web.database import batches
from web.database.pipelines import Pipeline
from web.per_loop import PerLoop

Row = tuple[Any, ...]
Params = Sequence[Any] | Mapping[str, Any]

# libpq parameters of the Django connection that the loop's own connections take too.
_LIBPQ_OPTIONS = ("sslmode", "sslrootcert", "sslcert", "sslkey", "connect_timeout", "application_name", "options")


async def connect() -> psycopg.AsyncConnection[Any]:
    """A new connection to the database Django uses (autocommit: each statement, or each batch in
    its `transaction()`, is a transaction of its own)."""
    given = connections["default"].settings_dict
    params: dict[str, Any] = {
        "dbname": given["NAME"],
        "user": given.get("USER") or None,
        "password": given.get("PASSWORD") or None,
        "host": given.get("HOST") or None,
        "port": given.get("PORT") or None,
        "connect_timeout": 3,
    }
    options = given.get("OPTIONS") or {}
    params.update({name: options[name] for name in _LIBPQ_OPTIONS if name in options})
    return await psycopg.AsyncConnection.connect(
        autocommit=True, **{name: value for name, value in params.items() if value is not None}
    )


@dataclasses.dataclass(frozen=True, slots=True)
class _Read:
    """A read waiting for the round trip under way to end: it goes with the next one."""

    query: str
    params: Params
    every_row: bool
    future: asyncio.Future[list[Row]]


class LoopConnection:
    """One of the loop's connections: prepared statements sent the lean way (web.database.pipelines),
    one round trip at a time. A read that finds the connection free is sent at once; the reads that
    arrive while a round trip is under way wait for it and then share the next, one pipeline for
    them all, so a busy loop pays one send, one wake-up of PostgreSQL and one answer to read for
    many. Reconnected on the next call after it broke. psycopg.Error if a call fails."""

    def __init__(self) -> None:
        self._connection: psycopg.AsyncConnection[Any] | None = None
        self._pipeline: Pipeline | None = None
        self._connecting = asyncio.Lock()  # the first calls of a loop arrive together: one connects
        self._busy = False  # a round trip is under way
        self._waiting: list[_Read] = []
        self._serving: asyncio.Task[None] | None = None  # held: the loop keeps only a weak reference

    async def fetchone(self, query: str, params: Params) -> Row | None:
        """The first row of `query`."""
        rows = await self._read(query, params, every_row=False)
        return rows[0] if rows else None

    async def fetchall(self, query: str, params: Params) -> list[Row]:
        return await self._read(query, params, every_row=True)

    async def _read(self, query: str, params: Params, *, every_row: bool) -> list[Row]:
        if self._busy:
            future: asyncio.Future[list[Row]] = asyncio.get_running_loop().create_future()
            self._waiting.append(_Read(query, params, every_row, future))
            return await future
        self._busy = True
        try:
            (rows,) = await self._round_trip([(query, params)], [every_row])
        finally:
            self._next()
        return rows

    def _next(self) -> None:
        """The round trip under way ended: the reads that waited for it go together, on a task of
        their own (their callers only await their answers)."""
        waiting, self._waiting = self._waiting, []
        self._busy = bool(waiting)
        self._serving = asyncio.get_running_loop().create_task(self._serve(waiting)) if waiting else None

    async def _serve(self, reads: list[_Read]) -> None:
        try:
            await batches.answer_each(reads, self._rows_of, what="%s reads")
        except BaseException as error:  # not a database's error (the loop stopping): none waits forever
            for read in reads:
                _stop_waiting(read, error)
            raise
        finally:
            self._next()

    async def _rows_of(self, reads: list[_Read]) -> list[list[Row]]:
        return await self._round_trip([(read.query, read.params) for read in reads], [read.every_row for read in reads])

    async def _round_trip(self, statements: list[tuple[str, Params]], every_row: list[bool]) -> list[list[Row]]:
        pipeline = await self._pipeline_now()
        try:
            return await pipeline.fetch_rows(statements, every_row)
        except (psycopg.OperationalError, psycopg.InterfaceError):
            await self.close()
            raise

    async def _pipeline_now(self) -> Pipeline:
        pipeline, connection = self._pipeline, self._connection
        if pipeline is not None and connection is not None and not (connection.closed or connection.broken):
            return pipeline
        async with self._connecting:
            connection = self._connection
            if self._pipeline is None or connection is None or connection.closed or connection.broken:
                connection = self._connection = await connect()
                self._pipeline = Pipeline(connection)
            return self._pipeline

    async def close(self) -> None:
        connection, self._connection, self._pipeline = self._connection, None, None
        if connection is not None:
            with contextlib.suppress(Exception):
                await connection.close()

    def abandon(self) -> None:
        connection, self._connection, self._pipeline = self._connection, None, None
        if connection is not None:
            connection.pgconn.finish()


# The loop's reads; its writes go through its group commit (web.database.group_commit), on a
# connection of their own: a read never waits behind a commit.
reads: PerLoop[LoopConnection] = PerLoop(LoopConnection)


def _stop_waiting(read: _Read, error: BaseException) -> None:
    """A read that will not be answered by its round trip (the loop stopping): none waits forever."""
    if isinstance(error, asyncio.CancelledError):
        if not read.future.done():
            read.future.cancel()
    else:
        batches.fail([read], error)
