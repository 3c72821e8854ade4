"""An event loop's own read connection (web/database/loop_connection.py): opened once however many
reads arrive together, and replaced after it broke."""

from __future__ import annotations

import asyncio
from typing import Any

import psycopg
import pytest

from web.database import loop_connection

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, pytest.mark.usefixtures("socket_cleanup")]


@pytest.fixture
def connects(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    made: list[Any] = []
    real = loop_connection.connect

    async def counted() -> Any:
        made.append(await real())
        return made[-1]

    monkeypatch.setattr(loop_connection, "connect", counted)
    return made


async def test_reads_arriving_together_open_one_connection(connects: list[Any]) -> None:
    reads = loop_connection.reads.get()
    rows = await asyncio.gather(*(reads.fetchone("SELECT %s::int", [n]) for n in range(10)))
    assert rows == [(n,) for n in range(10)]
    assert len(connects) == 1


async def test_a_broken_connection_fails_its_read_and_is_replaced_on_the_next(connects: list[Any]) -> None:
    reads = loop_connection.reads.get()
    assert await reads.fetchone("SELECT 1", []) == (1,)
    (pid,) = await reads.fetchone("SELECT pg_backend_pid()", []) or (None,)
    async with await loop_connection.connect() as other:  # the server ends it (a restart, an admin)
        await other.execute("SELECT pg_terminate_backend(%s)", [pid])
    with pytest.raises(psycopg.OperationalError):
        await reads.fetchone("SELECT 1", [])
    assert await reads.fetchone("SELECT 2", []) == (2,)
    assert len(connects) == 3  # the first, the one that ended it, the new one


@pytest.fixture
def round_trips(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of statements in each round trip of the loop's reads."""
    from web.database.pipelines import Pipeline

    sizes: list[int] = []
    real = Pipeline.fetch_rows

    async def counted(self: Pipeline, statements: Any, every_row: Any) -> Any:
        sizes.append(len(statements))
        return await real(self, statements, every_row)

    monkeypatch.setattr(Pipeline, "fetch_rows", counted)
    return sizes


async def test_reads_that_arrive_during_a_round_trip_share_the_next(round_trips: list[int]) -> None:
    reads = loop_connection.reads.get()
    await reads.fetchone("SELECT 0", [])  # connected
    round_trips.clear()
    # The first is sent at once and kept under way (an answer can come back before the loop turns).
    first = asyncio.ensure_future(reads.fetchone("SELECT pg_sleep(0.1), 1", []))
    await asyncio.sleep(0.02)
    ones = [reads.fetchone("SELECT %s::int", [n]) for n in range(6)]
    alls = [reads.fetchall("SELECT generate_series(1, %s::int)", [n]) for n in range(1, 4)]
    rows = await asyncio.gather(*ones, *alls)
    assert rows == [(n,) for n in range(6)] + [[(k,) for k in range(1, n + 1)] for n in range(1, 4)]
    assert (await first)[1] == 1  # type: ignore[index]
    assert round_trips == [1, 9]  # the first alone, at once; the nine that waited for it together


async def test_a_read_that_fails_in_a_shared_round_trip_fails_alone(round_trips: list[int]) -> None:
    reads = loop_connection.reads.get()
    await reads.fetchone("SELECT 0", [])
    round_trips.clear()
    answers = await asyncio.gather(
        reads.fetchone("SELECT pg_sleep(0.1), 1", []),
        reads.fetchone("SELECT 2", []),
        reads.fetchone("SELECT 1 / %s::int", [0]),
        reads.fetchone("SELECT 4", []),
        return_exceptions=True,
    )
    assert answers[0][1] == 1 and answers[1] == (2,) and answers[3] == (4,)  # type: ignore[index]
    assert isinstance(answers[2], psycopg.errors.DivisionByZero)
    assert round_trips == [1, 3, 1, 1, 1]  # the shared one failed: each of its reads again, alone
    assert await reads.fetchone("SELECT 5", []) == (5,)  # and the connection serves on


async def test_a_read_whose_caller_went_away_leaves_the_others_answered(round_trips: list[int]) -> None:
    reads = loop_connection.reads.get()
    await reads.fetchone("SELECT 0", [])
    first = asyncio.ensure_future(reads.fetchone("SELECT pg_sleep(0.05), 1", []))
    await asyncio.sleep(0.01)  # the first is under way
    gone = asyncio.ensure_future(reads.fetchone("SELECT 2", []))
    kept = asyncio.ensure_future(reads.fetchone("SELECT 3", []))
    await asyncio.sleep(0)
    gone.cancel()
    assert (await first)[1] == 1  # type: ignore[index]
    assert await kept == (3,)
    assert gone.cancelled()


async def test_a_read_cancelled_on_its_way_leaves_no_answer_for_the_next(connects: list[Any]) -> None:
    reads = loop_connection.reads.get()
    await reads.fetchone("SELECT 0", [])
    slow = asyncio.ensure_future(reads.fetchone("SELECT pg_sleep(0.2), 1", []))
    await asyncio.sleep(0.05)  # sent, its answer not yet read
    slow.cancel()
    with pytest.raises(asyncio.CancelledError):
        await slow
    # Its row must not answer the next read: the connection it was cut short on is replaced.
    assert await reads.fetchone("SELECT 2", []) == (2,)
    assert len(connects) == 2
