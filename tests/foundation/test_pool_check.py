"""The database pool's check (web/database/postgres): no round trip for a healthy connection, the full
check for one the server ended, so a PostgreSQL restart still costs no request."""

from __future__ import annotations

import time
from typing import Any

import psycopg
import pytest
from django.db import connection
from psycopg_pool import ConnectionPool

from web.database.postgres.base import check_connection

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]  # PostgreSQL's pool


@pytest.fixture
def raw() -> Any:
    conn = psycopg.connect(**connection.get_connection_params(), autocommit=True)
    yield conn
    conn.close()


@pytest.fixture
def full_checks(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    calls: list[object] = []
    original = ConnectionPool.check_connection

    def counted(conn: object) -> None:
        calls.append(conn)
        original(conn)

    monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(counted))
    return calls


def test_the_pool_uses_the_check() -> None:
    if connection.pool is None:
        pytest.skip("DB_POOL is off")
    assert connection.pool._check is check_connection


def test_a_healthy_connection_passes_without_a_round_trip(raw: Any, full_checks: list[object]) -> None:
    raw.execute("SELECT 1")
    check_connection(raw)
    assert full_checks == []


def test_a_connection_the_server_ended_fails_the_check(raw: Any, full_checks: list[object]) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [raw.info.backend_pid])
    deadline = time.monotonic() + 5
    with pytest.raises(psycopg.OperationalError):
        while time.monotonic() < deadline:  # the backend's goodbye reaches the socket
            check_connection(raw)
            time.sleep(0.01)
    assert full_checks == [raw]


def test_a_broken_connection_that_says_nothing_still_fails(raw: Any, full_checks: list[object]) -> None:
    raw.close()
    with pytest.raises(psycopg.OperationalError):
        check_connection(raw)
