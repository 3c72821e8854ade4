"""Readiness: can this worker serve? PostgreSQL answers, Redis answers, every migration is applied.

Liveness needs no check of its own (operations.asgi answers it from the event loop). Each check
reads "ok" (or "not configured" for Redis on the embedded default) or says what is wrong.
"""

from __future__ import annotations

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.migrations.executor import MigrationExecutor

from web.redis_clients import shared_client

FINE = ("ok", "not configured")

# Applied migrations stay applied: once seen, the check is not made again (it reads every
# migration module and the django_migrations table).
_migrated = False


def readiness() -> dict[str, str]:
    """Each check's state; called in a thread of its own (it waits on the network)."""
    connection = connections[DEFAULT_DB_ALIAS]
    try:
        return {"postgres": _database(connection), "redis": _redis(), "migrations": _migrations(connection)}
    finally:
        connection.close()  # back to the pool, or closed: this thread keeps nothing


def _database(connection: BaseDatabaseWrapper) -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError as error:
        return f"unreachable: {_first_line(error)}"
    return "ok"


def _redis() -> str:
    if not settings.REDIS_URL:
        return "not configured"
    try:
        shared_client(settings.REDIS_URL).ping()
    except Exception as error:  # noqa: BLE001 - any failure means not ready
        return f"unreachable: {_first_line(error)}"
    return "ok"


def _migrations(connection: BaseDatabaseWrapper) -> str:
    global _migrated
    if _migrated:
        return "ok"
    try:
        executor = MigrationExecutor(connection)
        pending = executor.migration_plan(executor.loader.graph.leaf_nodes())
    except DatabaseError as error:
        return f"unknown: {_first_line(error)}"
    if pending:
        return f"{len(pending)} not applied (run manage.py migrate)"
    _migrated = True
    return "ok"


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return (text.splitlines() or [type(error).__name__])[0][:200]
