"""Group commit: the writes of one event loop that arrive while a commit is under way share the next
transaction and its one commit, on a connection of the loop's pool. Each write is answered once its
commit succeeded; a batch that fails runs again one write at a time, so an error reaches only its own
write; a broken connection fails its batch (the callers answer as for a database that is away).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

import psycopg
from psycopg_pool import AsyncConnectionPool

log = logging.getLogger(__name__)

Row = tuple[Any, ...]
Params = Mapping[str, Any]
Script = Sequence[tuple[str, Mapping[str, Any] | Sequence[Any]]]


@dataclasses.dataclass(frozen=True)
class Statement:
    """A write alone (`one`), or many at once (`many` with `gather(writes)`: rows keyed by `key`)."""

    one: str
    many: str
    gather: Callable[[list[Params]], Params]
    key: Callable[[Params], Any]


@dataclasses.dataclass(frozen=True)
class _Write:
    """One queued write: a Statement's (with its params), or a script's (`statement` None)."""

    statement: Statement | None
    params: Params | Script
    future: asyncio.Future[Any]


class GroupCommit:
    """The writes of one event loop, committed in groups on connections of its pool."""

    def __init__(self, pool: AsyncConnectionPool) -> None:
        self._pool = pool
        self._queue: list[_Write] = []
        self._committing: asyncio.Task[None] | None = None

    async def fetchone(self, statement: Statement, params: Params) -> Row | None:
        """The row that answers this write (None if none), once it is committed; psycopg.Error if not."""
        row: Row | None = await self._queued(statement, params)
        return row

    async def fetch_each(self, script: Script) -> list[Row | None]:
        """The first row of each of `script`'s statements, committed with the scripts queued meanwhile."""
        rows: list[Row | None] = await self._queued(None, script)
        return rows

    async def _queued(self, statement: Statement | None, params: Params | Script) -> Any:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._queue.append(_Write(statement, params, future))
        if self._committing is None:
            self._committing = loop.create_task(self._commit_queued())
        # Shielded: a client that goes away while its write commits must not cancel the others'.
        return await asyncio.shield(future)

    async def _commit_queued(self) -> None:
        try:
            while self._queue:
                await asyncio.sleep(0)  # the writes queued in this turn of the loop join the batch
                batch, self._queue = self._queue, []
                statements = [write for write in batch if write.statement is not None]
                scripts = [write for write in batch if write.statement is None]
                for kind in (statements, scripts):  # each kind its own transaction
                    if kind:
                        await self._commit(kind)
        finally:
            self._committing = None

    async def _commit(self, batch: list[_Write]) -> None:
        try:
            await _answer_each(batch, self._run_batch)
        except BaseException:  # cancelled at shutdown, or a bug: no write is left waiting
            for write in batch:
                write.future.cancel()
            raise

    async def _run_batch(self, batch: list[_Write]) -> list[Any]:
        async with self._pool.connection() as connection:
            if batch[0].statement is None:
                return await _run_scripts(connection, [cast(Script, write.params) for write in batch])
            return await _in_one_transaction(connection, batch)


async def _in_one_transaction(connection: psycopg.AsyncConnection[Any], batch: list[_Write]) -> list[Row | None]:
    groups: dict[Statement, list[Params]] = {}
    for write in batch:
        assert write.statement is not None
        groups.setdefault(write.statement, []).append(cast(Params, write.params))
    if len(groups) == 1:  # the common case: one statement, its own transaction (autocommit)
        ((statement, writes),) = groups.items()
        answers = await _run(connection, statement, writes)
    else:
        async with connection.transaction():
            answers = {}
            for statement, writes in groups.items():
                answers.update(await _run(connection, statement, writes))
    return [answers.get((write.statement, id(write.params))) for write in batch]  # type: ignore[arg-type]


async def _run(
    connection: psycopg.AsyncConnection[Any], statement: Statement, writes: list[Params]
) -> dict[tuple[Statement, int], Row]:
    async with connection.cursor() as cursor:
        if len(writes) == 1:
            await cursor.execute(statement.one, writes[0])
            row = await cursor.fetchone()
            return {} if row is None else {(statement, id(writes[0])): tuple(row)}
        await cursor.execute(statement.many, statement.gather(writes))
        by_key = {row[0]: tuple(row[1:]) for row in await cursor.fetchall()}
    return {(statement, id(params)): by_key[key] for params in writes if (key := statement.key(params)) in by_key}


async def _run_scripts(connection: psycopg.AsyncConnection[Any], scripts: list[Script]) -> list[list[Row | None]]:
    """Every script's statements in one pipeline and one transaction: one round trip, one commit."""
    cursors: list[psycopg.AsyncCursor[Any]] = []
    async with connection.pipeline(), connection.transaction():
        for script in scripts:
            for query, params in script:
                cursor = connection.cursor()
                await cursor.execute(query, params)
                cursors.append(cursor)
    rows = [(await cursor.fetchone()) if cursor.description is not None else None for cursor in cursors]
    answers, at = [], 0
    for script in scripts:
        answers.append([None if row is None else tuple(row) for row in rows[at : at + len(script)]])
        at += len(script)
    return answers


async def _answer_each(batch: list[_Write], run: Callable[[list[_Write]], Any]) -> None:
    """Run `batch` and answer every write (a broken connection fails them all, another error runs each alone)."""
    try:
        answers = await run(batch)
    except (psycopg.OperationalError, psycopg.InterfaceError) as broken:
        _fail(batch, broken)
        return
    except psycopg.Error as error:
        if len(batch) == 1:
            _fail(batch, error)
            return
        log.warning("group commit of %s writes failed (%s): each again alone", len(batch), error)
        for write in batch:
            await _answer_each([write], run)
        return
    for write, answer in zip(batch, answers, strict=True):
        if not write.future.done():
            write.future.set_result(answer)


def _fail(batch: list[_Write], error: BaseException) -> None:
    for write in batch:
        if not write.future.done():
            write.future.set_exception(error)
