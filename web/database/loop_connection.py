"""An event loop's own connections to the database Django uses, for the work served on the loop
itself (play's appends in group commits, the hot HTTP requests: web/loop_http.py) rather than on
a thread with Django's connection.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping, Sequence
from typing import Any

import psycopg
from django.db import connections

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


class LoopConnection:
    """One of the loop's connections: prepared statements sent the lean way (web.database.pipelines),
    one call at a time (the others wait for the connection); reconnected on the next call after it
    broke. psycopg.Error if a call fails."""

    def __init__(self) -> None:
        self._connection: psycopg.AsyncConnection[Any] | None = None
        self._pipeline: Pipeline | None = None
        self._connecting = asyncio.Lock()  # the first calls of a loop arrive together: one connects

    async def fetchone(self, query: str, params: Params) -> Row | None:
        """The first row of `query`."""
        pipeline = await self._pipeline_now()
        try:
            (row,) = await pipeline.fetch_each([(query, params)])
        except (psycopg.OperationalError, psycopg.InterfaceError):
            await self.close()
            raise
        return row

    async def fetchall(self, query: str, params: Params) -> list[Row]:
        pipeline = await self._pipeline_now()
        try:
            return await pipeline.fetchall(query, params)
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
