"""Group commit on an event loop: writes that arrive while a commit is under way share the next
statement, its transaction and its one commit (one WAL flush, one round trip), on one connection
of that loop's own.

A `Statement` says how one write is made alone and how many are made at once (all of their rows
in one statement: play's appends). A script is a write of several statements run in order (a
submission's result with its deal and its boards); the scripts of a batch go in one pipeline
(web.database.pipelines), which PostgreSQL commits at its sync, all or none. Each write is answered only once the commit
that holds it succeeded. A batch that fails is rolled back and its writes run again one each, so
that the error reaches only the write it belongs to. A broken connection fails its batch (whether
that commit happened is then unknown to us: the callers answer as for a database that is away)
and is replaced on the next batch. PostgreSQL only; durability as for any commit
(synchronous_commit on). Not psycopg's own pipeline mode: its async wait polls for a writable
socket while the answer is awaited, which cost a quarter of a worker's CPU under load
(bench/README.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, cast

import psycopg

from web.database import batches, loop_connection
from web.database.pipelines import Pipeline
from web.per_loop import PerLoop

log = logging.getLogger(__name__)

Row = tuple[Any, ...]
Params = Mapping[str, Any]
Connect = Callable[[], Awaitable[psycopg.AsyncConnection[Any]]]


@dataclasses.dataclass(frozen=True)
class Statement:
    """A write, alone (`one`: its first row answers it) or many at once (`many`, run with
    `gather(writes)`: each row starts with the `key` of the write it answers, then that write's row)."""

    one: str
    many: str
    gather: Callable[[list[Params]], Params]
    key: Callable[[Params], Any]


Script = Sequence[tuple[str, Params | Sequence[Any]]]


@dataclasses.dataclass(frozen=True)
class _Write:
    """One queued write: a Statement's (with its params), or a script's (statements run in order,
    answered by the first row of each)."""

    statement: Statement | None
    params: Params | Script
    future: asyncio.Future[Any]


class GroupCommit:
    """The writes of one event loop, committed in groups on its one connection."""

    def __init__(self, connect: Connect) -> None:
        self._connect = connect
        self._connection: psycopg.AsyncConnection[Any] | None = None
        self._queue: list[_Write] = []
        self._committing: asyncio.Task[None] | None = None
        self._pipeline: Pipeline | None = None  # the scripts' statements prepared on the connection

    async def fetchone(self, statement: Statement, params: Params) -> Row | None:
        """The row that answers this write (None if none), once it is committed; psycopg.Error if not."""
        row: Row | None = await self._queued(statement, params)
        return row

    async def fetch_each(self, script: Script) -> list[Row | None]:
        """The first row of each of `script`'s statements, run in order and committed together
        with the other scripts queued meanwhile (in one pipeline: one round trip, one commit); a
        statement's error fails its own script only. psycopg.Error if not committed."""
        rows: list[Row | None] = await self._queued(None, script)
        return rows

    async def _queued(self, statement: Statement | None, params: Params | Script) -> Any:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.append(_Write(statement, params, future))
        if self._committing is None:
            self._committing = asyncio.get_running_loop().create_task(self._commit_queued())
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
            await batches.answer_each(batch, self._run_batch, what="group commit of %s writes")
        except BaseException:  # cancelled at shutdown, or a bug: no write is left waiting
            for write in batch:
                write.future.cancel()
            await self._drop_connection()
            raise

    async def _run_batch(self, batch: list[_Write]) -> list[Any]:
        try:
            connection = await self._connection_now()
            if batch[0].statement is None:
                return await self._run_scripts(connection, batch)
            return await self._in_one_transaction(connection, batch)
        except (psycopg.OperationalError, psycopg.InterfaceError):
            await self._drop_connection()  # the batch fails; the next one connects anew
            raise

    async def _in_one_transaction(
        self, connection: psycopg.AsyncConnection[Any], batch: list[_Write]
    ) -> list[Row | None]:
        groups: dict[Statement, list[Params]] = {}
        for write in batch:
            assert write.statement is not None
            groups.setdefault(write.statement, []).append(write.params)  # type: ignore[arg-type]  # a Statement's
        if len(groups) == 1:  # the common case: one statement, its own transaction (autocommit)
            ((statement, writes),) = groups.items()
            answers = await self._run(connection, statement, writes)
        else:
            async with connection.transaction():
                answers = {}
                for statement, writes in groups.items():
                    answers.update(await self._run(connection, statement, writes))
        return [answers.get((write.statement, id(write.params))) for write in batch]  # type: ignore[arg-type]

    @staticmethod
    async def _run(
        connection: psycopg.AsyncConnection[Any], statement: Statement, writes: list[Params]
    ) -> dict[tuple[Statement, int], Row]:
        async with connection.cursor() as cursor:
            if len(writes) == 1:
                await cursor.execute(statement.one, writes[0], prepare=True)
                row = await cursor.fetchone()
                return {} if row is None else {(statement, id(writes[0])): tuple(row)}
            await cursor.execute(statement.many, statement.gather(writes), prepare=True)
            by_key = {row[0]: tuple(row[1:]) for row in await cursor.fetchall()}
        return {(statement, id(params)): by_key[key] for params in writes if (key := statement.key(params)) in by_key}

    async def _run_scripts(
        self, connection: psycopg.AsyncConnection[Any], batch: list[_Write]
    ) -> list[list[Row | None]]:
        """Every script's statements in one pipeline (web.database.pipelines): PostgreSQL runs them
        up to its sync as one transaction, so they commit together or not at all."""
        if self._pipeline is None or self._pipeline.connection is not connection:
            self._pipeline = Pipeline(connection)
        scripts = [cast(Script, write.params) for write in batch]
        rows = await self._pipeline.fetch_each([statement for script in scripts for statement in script])
        answers, at = [], 0
        for script in scripts:
            answers.append(rows[at : at + len(script)])
            at += len(script)
        return answers

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

    async def close(self) -> None:
        await self._drop_connection()

    def abandon(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            connection.pgconn.finish()


committer: PerLoop[GroupCommit] = PerLoop(lambda: GroupCommit(loop_connection.connect))


def for_this_loop() -> GroupCommit:
    """The running loop's group commit, on a connection of that loop's own (web.database.loop_connection)."""
    return committer.get()
