"""Statements in one libpq pipeline on the event loop's connection (web/database/pipelines.py): values
written and read as psycopg writes and reads them, each statement prepared once per connection,
all committed at the sync or none, and psycopg's own error for the first that fails."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from typing import Any

import psycopg
import pytest

from web.database import loop_connection
from web.database.pipelines import Pipeline

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


@pytest.fixture
async def pipeline() -> AsyncIterator[Pipeline]:
    connection = await loop_connection.connect()
    await connection.execute("CREATE TEMPORARY TABLE kept (n int, t text)")
    try:
        yield Pipeline(connection)
    finally:
        await connection.close()


async def _prepared(pipeline: Pipeline) -> int:
    cursor = await pipeline.connection.execute("SELECT count(*) FROM pg_prepared_statements WHERE name LIKE '_loop_%'")
    row = await cursor.fetchone()
    assert row is not None
    return int(row[0])


async def test_values_go_and_come_back_as_psycopg_writes_and_reads_them(pipeline: Pipeline) -> None:
    moment = dt.datetime(2026, 12, 4, 5, 6, 7, 890123, tzinfo=dt.UTC)
    rows = await pipeline.fetch_each(
        [
            ("SELECT %s::int, %s::text, %s::bool, %s::timestamptz", [7, "Ärrä 'quoted'", True, moment]),
            ("SELECT %s::int IS NULL", [None]),
            ("SELECT 'b' = ANY(%s)", [["a", "b"]]),
            ("SELECT %(x)s::int + %(y)s::int", {"x": 2, "y": 3}),
            ("SELECT 1 WHERE false", []),
        ]
    )
    assert rows == [(7, "Ärrä 'quoted'", True, moment), (True,), (True,), (5,), None]


async def test_every_row_where_asked_the_first_elsewhere(pipeline: Pipeline) -> None:
    series = "SELECT n FROM generate_series(1, %s) AS n"
    rows = await pipeline.fetch_rows(
        [(series, [3]), (series, [3]), ("SELECT 1 WHERE false", []), ("SELECT 1 WHERE false", [])],
        [True, False, True, False],
    )
    assert rows == [[(1,), (2,), (3,)], [(1,)], [], []]


async def test_each_statement_is_prepared_once_per_connection(pipeline: Pipeline) -> None:
    statements: list[tuple[str, Any]] = [("SELECT %s::int + 1", [n]) for n in range(3)]
    assert await pipeline.fetch_each(statements) == [(1,), (2,), (3,)]
    assert await pipeline.fetch_each(statements) == [(1,), (2,), (3,)]
    assert await _prepared(pipeline) == 1
    # a parameter first sent as NULL, then with a value: a statement of its own (its types differ)
    assert await pipeline.fetch_each([("SELECT %s::int", [None]), ("SELECT %s::int", [4])]) == [(None,), (4,)]
    assert await _prepared(pipeline) == 3


async def test_all_or_nothing_with_psycopgs_error_of_the_first_failure(pipeline: Pipeline) -> None:
    with pytest.raises(psycopg.errors.DivisionByZero):
        await pipeline.fetch_each(
            [("INSERT INTO kept VALUES (%s, %s)", [1, "a"]), ("SELECT 1 / %s", [0]), ("SELECT no_such_column", [])]
        )
    with pytest.raises(psycopg.errors.UndefinedColumn):  # its prepare failed before: asked again, fails again
        await pipeline.fetch_each([("SELECT no_such_column", [])])
    again = [("INSERT INTO kept VALUES (%s, %s) RETURNING n", [2, "b"]), ("SELECT count(*) FROM kept", [])]
    rows = await pipeline.fetch_each(again)
    assert rows == [(2,), (1,)]  # the first insert was taken back; the connection goes on
