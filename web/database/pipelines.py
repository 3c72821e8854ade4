"""Statements sent in one libpq pipeline on an async connection, waiting only to read: the event
loop's writes (web.database.group_commit) and reads (web.database.loop_connection).

psycopg's own pipeline, on an async connection, waits for the socket to be writable as well as
readable on each statement it sends and each result it reads: it cost a submission's worker more
than its replay (bench/README.md); for a single query the two cost about the same. Here the
statements are sent at once (each prepared the first time the connection meets it, under a name
of its own), with one sync, and the results are read as they come, the loop told to wake only
when there is input. Parameters and rows go through
psycopg's own adapters (a Transformer), so values are written and read as psycopg does.

PostgreSQL runs the statements up to the sync as one transaction (on an autocommit connection):
they commit together, or an error takes them all back and raises psycopg's error of the first.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

import psycopg
from psycopg import pq
from psycopg._queries import PostgresQuery  # psycopg's own: %s and %(name)s to $n, params dumped
from psycopg.adapt import Transformer

Row = tuple[Any, ...]
Params = Sequence[Any] | Mapping[str, Any]
_OK = (pq.ExecStatus.COMMAND_OK, pq.ExecStatus.TUPLES_OK)


class Pipeline:
    """Pipelines on one connection; remembers which statements that connection has prepared."""

    def __init__(self, connection: psycopg.AsyncConnection[Any]) -> None:
        self.connection = connection
        self._prepared: set[bytes] = set()

    async def fetch_each(self, statements: Sequence[tuple[str, Params]]) -> list[Row | None]:
        """The first row of each statement, run in order in one round trip and one transaction."""
        every_row = [False] * len(statements)
        return [rows[0] if rows else None for rows in await self.fetch_rows(statements, every_row)]

    async def fetch_rows(self, statements: Sequence[tuple[str, Params]], every_row: Sequence[bool]) -> list[list[Row]]:
        """The rows of each statement (all of them where `every_row` says so, else the first at
        most), run in order in one round trip and one transaction."""
        connection = self.connection
        pgconn = connection.pgconn
        transformer = Transformer(connection)
        sent: list[bytes | None] = []  # in the order of their results: a name being prepared, or None
        async with connection.lock:
            pgconn.enter_pipeline_mode()
            try:
                for query, params in statements:
                    converted = PostgresQuery(transformer)
                    converted.convert(query, params)
                    name = _name(converted)
                    if name not in self._prepared and name not in sent:
                        pgconn.send_prepare(name, converted.query, param_types=converted.types)
                        sent.append(name)
                    pgconn.send_query_prepared(name, converted.params, param_formats=converted.formats)
                    sent.append(None)
                pgconn.pipeline_sync()
                await _flushed(pgconn)
                results = await _results(pgconn)
            except BaseException:
                # Cut short (a caller cancelled, a value that would not dump): statements may be
                # half sent or their results unread, and the next round trip would read them as
                # its own. The connection is ended; its owner connects anew on its next call.
                pgconn.finish()
                raise
            finally:
                with contextlib.suppress(psycopg.Error):
                    pgconn.exit_pipeline_mode()
        failed: pq.abc.PGresult | None = None
        rows: list[list[Row]] = []
        wanted = iter(every_row)
        for preparing, result in zip(sent, results, strict=True):
            if result.status not in _OK:
                failed = failed or result
            elif preparing is not None:
                self._prepared.add(preparing)  # prepared statements outlive a failed transaction
            elif failed is None:
                transformer.set_pgresult(result)
                count = result.ntuples if next(wanted) else min(result.ntuples, 1)
                rows.append(transformer.load_rows(0, count, tuple))
        if failed is not None:
            raise psycopg.errors.error_from_result(failed, encoding=connection.info.encoding)
        return rows


def _name(converted: PostgresQuery) -> bytes:
    """The statement's name on the connection: its text and its parameters' types (a parameter
    first sent as NULL has no type of its own, as psycopg keys its own prepared statements)."""
    return _name_of(converted.query, tuple(converted.types))


@functools.lru_cache(maxsize=1024)  # worked out once: the code's statements are few, and come back on every read
def _name_of(query: bytes, types: tuple[int, ...]) -> bytes:
    return b"_loop_" + hashlib.blake2b(query + repr(types).encode(), digest_size=10).hexdigest().encode()


async def _flushed(pgconn: pq.abc.PGconn) -> None:
    while pgconn.flush():  # 1: more to send once the socket takes it
        await _socket_ready(pgconn, to_write=True)


async def _results(pgconn: pq.abc.PGconn) -> list[pq.abc.PGresult]:
    """Every result up to the pipeline's sync (an aborted statement's is PIPELINE_ABORTED)."""
    results: list[pq.abc.PGresult] = []
    while True:
        pgconn.consume_input()
        while not pgconn.is_busy():
            result = pgconn.get_result()
            if result is None:
                continue  # the end of one statement's results
            if result.status == pq.ExecStatus.PIPELINE_SYNC:
                return results
            results.append(result)
        await _socket_ready(pgconn, to_write=False)


async def _socket_ready(pgconn: pq.abc.PGconn, *, to_write: bool) -> None:
    """Until the connection's socket can be written to (`to_write`) or read from: the loop is told
    to wake for that alone."""
    loop = asyncio.get_running_loop()
    watch, unwatch = (loop.add_writer, loop.remove_writer) if to_write else (loop.add_reader, loop.remove_reader)
    ready = loop.create_future()
    watch(pgconn.socket, ready.set_result, None)
    try:
        await ready
    finally:
        unwatch(pgconn.socket)
