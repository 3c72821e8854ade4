"""How async code reaches storage (web/storage.py): on the main thread's loop through its pool, where a
connection the server ended is replaced before a request gets it, and a loop's connections close
with the loop; from sync code on the caller's own connection, in its transaction; errors as Django's
either way, so the service answers them as it answers any database error."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import psycopg
import pytest
from asgiref.sync import async_to_sync
from django.db import DatabaseError, connection

from tests.conftest import make_player
from web import storage

NAMES = "SELECT username FROM leaderboard_player ORDER BY username"


def _params() -> dict[str, Any]:
    given = connection.settings_dict
    named = {"dbname": given["NAME"], "user": given["USER"], "host": given["HOST"], "port": given["PORT"]}
    return {name: value for name, value in named.items() if value}


def _backends() -> int:
    """Client connections to the test database other than this thread's."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return int(cursor.fetchone()[0])


@pytest.mark.django_db
def test_sync_code_reads_on_its_own_connection_and_sees_its_transaction() -> None:
    make_player("uncommitted")  # the test's transaction is never committed
    assert async_to_sync(storage.fetchall)(NAMES, []) == [("uncommitted",)]
    assert async_to_sync(storage.commit_each)([("SELECT count(*) FROM leaderboard_player", [])]) == [(1,)]


@pytest.mark.django_db
def test_errors_are_djangos_either_way() -> None:
    with pytest.raises(DatabaseError):
        async_to_sync(storage.fetchone)("SELECT no_such_column FROM leaderboard_player", [])


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
async def test_on_the_loop_a_connection_the_server_ended_is_replaced_before_a_read_gets_it() -> None:
    assert storage.grouped()  # the main thread's loop, on PostgreSQL: its pool
    first = await storage.fetchone("SELECT pg_backend_pid()", [])
    assert first is not None
    async with await psycopg.AsyncConnection.connect(**_params(), autocommit=True) as admin:
        await admin.execute("SELECT pg_terminate_backend(%s)", [first[0]])
    await asyncio.sleep(0.05)  # the server's goodbye reaches the idle connection's socket
    again = await storage.fetchone("SELECT pg_backend_pid()", [])
    assert again is not None and again != first
    with pytest.raises(DatabaseError):
        await storage.fetchone("SELECT no_such_column FROM leaderboard_player", [])
    await storage.close()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_loops_connections_close_with_the_loop() -> None:
    before = _backends()

    async def read() -> None:
        assert storage.grouped()
        await asyncio.gather(*(storage.fetchone("SELECT pg_sleep(0.05)", []) for _ in range(3)))

    asyncio.run(read())  # closed without a word to web.storage
    for _ in range(100):  # a backend whose client hung up takes a moment to leave
        if _backends() <= before:
            break
        time.sleep(0.02)
    assert _backends() == before
