"""Readiness: PostgreSQL and Redis answer, every migration is applied (docs/operations.md, "Health")."""

from __future__ import annotations

import logging
import threading
import time

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.migrations.executor import MigrationExecutor

from web.storage import blocking_redis

log = logging.getLogger(__name__)

FINE = ("ok", "not configured")
# While the same checks fail, they are logged again at most this often, not on every probe.
LOG_AGAIN_SECONDS = 60
_logged: tuple[str, float] | None = None  # the failures last logged, and when (monotonic)
_logged_lock = threading.Lock()

# Applied migrations stay applied: once seen, the (costly) check is not made again.
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
        blocking_redis(settings.REDIS_URL).ping()
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


def log_readiness(checks: dict[str, str]) -> None:
    """Log what fails, when it is new or not logged for LOG_AGAIN_SECONDS; once all is well again, that."""
    global _logged
    failing = {name: state for name, state in checks.items() if state not in FINE}
    now = time.monotonic()
    with _logged_lock:
        if not failing:
            if _logged is not None:
                _logged = None
                log.info("ready again")
            return
        key = repr(sorted(failing.items()))
        if _logged is not None and _logged[0] == key and now - _logged[1] < LOG_AGAIN_SECONDS:
            return
        _logged = (key, now)
    log.warning(
        "not ready: %s",
        "; ".join(f"{name} {state}" for name, state in failing.items()),
        extra={"fields": {"checks": failing}},
    )
