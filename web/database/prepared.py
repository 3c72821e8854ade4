"""Statements the hot paths run on every request, kept prepared by PostgreSQL on each connection.

Django binds parameters on the client and never prepares, so PostgreSQL parses
and plans such a statement on every run (for the leaderboard's per-read query,
planning took five times as long as running it). Django also turns psycopg's
preparing off for the connection (prepare_threshold None, for transaction-mode
poolers; our pool keeps sessions): it is lifted only around these calls, so
nothing else on the connection is prepared. Errors come out as Django's, and the
statements are logged like Django's own when queries are being captured.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from django.db import connection

_NEVER_BY_COUNT = 2**31  # prepare=True prepares; nothing is prepared for having run often

Params = Sequence[Any] | Mapping[str, Any]
Row = tuple[Any, ...]


def fetchone_prepared(query: str, params: Params) -> Row | None:
    """The first row of `query` (None if it gives none), run as a prepared statement (PostgreSQL only)."""
    with _preparing() as raw, psycopg.Cursor(raw) as cursor:
        _log(query, params, lambda: cursor.execute(query, params, prepare=True))
        row = cursor.fetchone()
    return None if row is None else tuple(row)


def fetchone(query: str, params: Params) -> Row | None:
    """The first row of a hot statement: prepared on PostgreSQL, plain on SQLite."""
    return fetch_each([(query, params)])[0]


def fetch_each(statements: Sequence[tuple[str, Params]]) -> list[Row | None]:
    """The first row of each statement, run in order (each sees what the ones before it wrote).

    On PostgreSQL they are prepared and sent in one pipeline, one round trip for all; their rows
    are read after its sync. On SQLite, one after the other. An error raises after the statements
    before it ran: inside a transaction, whose rollback takes them back.
    """
    if not statements:
        return []
    if connection.vendor != "postgresql":
        rows: list[Row | None] = []
        with connection.cursor() as plain:
            for query, params in statements:
                plain.execute(query, params)
                row = plain.fetchone()
                rows.append(None if row is None else tuple(row))
        return rows
    if len(statements) == 1:
        return [fetchone_prepared(*statements[0])]
    with _preparing() as raw:
        cursors = [psycopg.Cursor(raw) for _ in statements]
        try:
            with raw.pipeline():
                for cursor, (query, params) in zip(cursors, statements, strict=True):
                    _log(query, params, lambda c=cursor, q=query, p=params: c.execute(q, p, prepare=True))
            return [None if (row := cursor.fetchone()) is None else tuple(row) for cursor in cursors]
        finally:
            for cursor in cursors:
                cursor.close()


@contextmanager
def _preparing() -> Iterator[psycopg.Connection[Any]]:
    connection.ensure_connection()
    raw = connection.connection
    threshold = raw.prepare_threshold
    raw.prepare_threshold = _NEVER_BY_COUNT if threshold is None else threshold
    try:
        with connection.wrap_database_errors:
            yield raw
    finally:
        raw.prepare_threshold = threshold


def _log(query: str, params: Params, run: Any) -> None:
    """Run, and log the statement as Django's debug cursor does (CaptureQueriesContext counts it)."""
    if not connection.queries_logged:
        run()
        return
    start = time.monotonic()
    try:
        run()
    finally:
        connection.queries_log.append(
            {"sql": f"{query} -- prepared, params {params!r}", "time": f"{time.monotonic() - start:.3f}"}
        )
