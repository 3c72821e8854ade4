"""psycopg_pool's connection check, replaced where Django builds the pool (web.database.postgres).

Django builds the pool itself and, with CONN_HEALTH_CHECKS, passes it
check=ConnectionPool.check_connection (a round trip per request). The pool OPTIONS cannot name
another check (Django passes `check` itself, a second one is a TypeError) and the pool has no
setter: its attribute is replaced. Checked against psycopg-pool 3.3.3.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from psycopg_pool import ConnectionPool


def replace_pool_check(pool: ConnectionPool, check: Callable[[Any], None]) -> None:
    """Have `pool` check connections with `check` where Django gave it psycopg's round trip."""
    from psycopg_pool import ConnectionPool

    if pool._check is ConnectionPool.check_connection:
        pool._check = check
