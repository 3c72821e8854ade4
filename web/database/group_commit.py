"""Group commit on an event loop: single-statement writes that arrive while a commit is under way
share the next transaction and its one commit (one WAL flush), sent in psycopg's pipeline mode (two
round trips for the batch; a write alone is its own transaction, one round trip), on one
connection of that loop's own.

Each write is answered only once the commit that holds it succeeded. A statement that fails
rolls its batch back; the batch's writes are then run again one transaction each, so that the
error reaches only the writes it belongs to. A broken connection fails its batch (whether that
commit happened is then unknown to us: the callers answer as for a database that is away) and is
replaced on the next batch. PostgreSQL only; durability as for any commit (synchronous_commit on).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import psycopg

log = logging.getLogger(__name__)

Row = tuple[Any, ...]
Connect = Callable[[], Awaitable[psycopg.AsyncConnection[Any]]]
_Write = tuple[str, Mapping[str, Any], "asyncio.Future[Row | None]"]


class GroupCommit:
    """The writes of one event loop, committed in groups on its one connection."""

    def __init__(self, connect: Connect) -> None:
        self._connect = connect
        self._connection: psycopg.AsyncConnection[Any] | None = None
        self._queue: list[_Write] = []
        self._committing: asyncio.Task[None] | None = None

    async def fetchone(self, query: str, params: Mapping[str, Any]) -> Row | None:
        """The first row `query` gives (None if none), once it is committed; psycopg.Error if not."""
        future: asyncio.Future[Row | None] = asyncio.get_running_loop().create_future()
        self._queue.append((query, params, future))
        if self._committing is None:
            self._committing = asyncio.get_running_loop().create_task(self._commit_queued())
        # Shielded: a socket that goes away while its write commits must not cancel the others'.
        return await asyncio.shield(future)

    async def _commit_queued(self) -> None:
        try:
            while self._queue:
                await asyncio.sleep(0)  # the writes queued in this turn of the loop join the batch
                batch, self._queue = self._queue, []
                await self._commit(batch)
        finally:
            self._committing = None

    async def _commit(self, batch: list[_Write]) -> None:
        try:
            rows = await self._in_one_transaction(batch)
        except (psycopg.OperationalError, psycopg.InterfaceError) as error:
            await self._drop_connection()
            self._fail(batch, error)
            return
        except psycopg.Error as error:  # rolled back: the connection is fine
            if len(batch) == 1:
                self._fail(batch, error)
                return
            log.warning("group commit of %s writes failed (%s): each again alone", len(batch), error)
            for write in batch:
                await self._commit([write])
            return
        except BaseException:  # cancelled at shutdown, or a bug: no write is left waiting
            for _, _, future in batch:
                future.cancel()
            await self._drop_connection()
            raise
        for (_, _, future), row in zip(batch, rows, strict=True):
            if not future.done():
                future.set_result(row)

    async def _in_one_transaction(self, batch: list[_Write]) -> list[Row | None]:
        connection = await self._connection_now()
        if len(batch) == 1:  # alone: its own transaction (autocommit), committed in its one round trip
            query, params, _ = batch[0]
            async with connection.cursor() as alone:
                await alone.execute(query, params, prepare=True)
                row = await alone.fetchone()
            return [None if row is None else tuple(row)]
        cursors = []
        async with connection.pipeline(), connection.transaction():
            for query, params, _ in batch:
                cursor = connection.cursor()
                await cursor.execute(query, params, prepare=True)
                cursors.append(cursor)
        # Two round trips (the statements, then COMMIT: psycopg syncs a transaction's block before
        # committing it, so a failed statement rolls back). Out of the block, every row is durable.
        rows = []
        for cursor in cursors:
            row = await cursor.fetchone()
            rows.append(None if row is None else tuple(row))
        return rows

    async def _connection_now(self) -> psycopg.AsyncConnection[Any]:
        connection = self._connection
        if connection is None or connection.closed or connection.broken:
            connection = self._connection = await self._connect()
        return connection

    async def _drop_connection(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                await connection.close()

    @staticmethod
    def _fail(batch: list[_Write], error: BaseException) -> None:
        for _, _, future in batch:
            if not future.done():
                future.set_exception(error)

    async def close(self) -> None:
        await self._drop_connection()

    def abandon(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            connection.pgconn.finish()


# Held strongly: a loop that closed without `close_this_loops` keeps its entry until the next loop's
# first write (or a test session's end) hangs its connection up, so none is left to the collector.
_per_loop: dict[asyncio.AbstractEventLoop, GroupCommit] = {}


def for_this_loop(connect: Connect) -> GroupCommit:
    """The running loop's group commit (each loop has its own connection: a test makes a loop per
    test, the server one per process)."""
    loop = asyncio.get_running_loop()
    found = _per_loop.get(loop)
    if found is None:
        abandon_closed_loops()
        found = _per_loop[loop] = GroupCommit(connect)
    return found


def abandon_closed_loops() -> None:
    """Hang up the connections of loops that closed without `close_this_loops` (they can no longer
    run its coroutine): libpq's own close, no round trip."""
    for loop, left in list(_per_loop.items()):
        if loop.is_closed():
            del _per_loop[loop]
            left.abandon()


async def close_this_loops() -> None:
    """Close the running loop's connection (at shutdown, and after a test)."""
    found = _per_loop.pop(asyncio.get_running_loop(), None)
    if found is not None:
        await found.close()
