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
