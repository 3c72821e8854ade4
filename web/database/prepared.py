"""Statements the hot paths run on every request, kept prepared by PostgreSQL on each connection.

Django binds parameters on the client and never prepares, so PostgreSQL parses
and plans such a statement on every run (for the leaderboard's per-read query,
planning took five times as long as running it). Django also turns psycopg's
preparing off for the connection (prepare_threshold None, for transaction-mode
poolers; our pool keeps sessions): it is lifted only around these calls, so
nothing else on the connection is prepared. Errors come out as Django's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import psycopg
from django.db import connection

_NEVER_BY_COUNT = 2**31  # prepare=True prepares; nothing is prepared for having run often


def fetchone_prepared(query: str, params: Sequence[Any] | Mapping[str, Any]) -> tuple[Any, ...] | None:
    """The first row of `query` (None if it gives none), run as a prepared statement (PostgreSQL only)."""
    connection.ensure_connection()
    raw = connection.connection
    threshold = raw.prepare_threshold
    raw.prepare_threshold = _NEVER_BY_COUNT if threshold is None else threshold
    try:
        with connection.wrap_database_errors, psycopg.Cursor(raw) as cursor:
            cursor.execute(query, params, prepare=True)
            row = cursor.fetchone()
    finally:
        raw.prepare_threshold = threshold
    return None if row is None else tuple(row)
