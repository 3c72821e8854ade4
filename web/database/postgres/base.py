"""Django's PostgreSQL backend, with a pool check that costs no round trip when nothing is wrong.

With CONN_HEALTH_CHECKS the pool checks each connection as it hands it out
(psycopg_pool's check_connection: an empty query), so a connection that a
PostgreSQL restart broke is replaced instead of failing a request. That is a
round trip to PostgreSQL on every request: half of a leaderboard read's time
waiting on the database.

A server that ends a connection says so first: on a restart, a shutdown or
pg_terminate_backend the backend sends its FATAL error and closes the socket,
and a backend that dies leaves the socket closed. Either way the idle
connection's socket has something to read. So the check here asks the
operating system whether it does (no round trip), and only then runs the full
check, which fails and has the pool replace the connection. A healthy idle
connection has nothing to read; a notice or notification that came in while
it was idle just means the full check runs.
"""

from __future__ import annotations

import select
from typing import Any

from django.db.backends.postgresql import base
from psycopg import pq
from psycopg_pool import ConnectionPool

from web.adapters import replace_pool_check


def check_connection(conn: Any) -> None:
    """Raise if the connection is broken, as ConnectionPool.check_connection does."""
    if conn.closed or conn.pgconn.status != pq.ConnStatus.OK or _has_input(conn.pgconn.socket):
        ConnectionPool.check_connection(conn)


def _has_input(fd: int) -> bool:
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLERR | select.POLLHUP)
    return bool(poller.poll(0))


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self) -> Any:
        pool = super().pool  # type: ignore[misc]  # Django's pool (5.1) is not in django-stubs 5.2.9 yet
        if pool is not None:
            replace_pool_check(pool, check_connection)  # Django passes psycopg's round trip (CONN_HEALTH_CHECKS)
        return pool
