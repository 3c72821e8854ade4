"""One closer at a time (docs/dailies.md): a closer closes and prepares only while it holds this lock.

The lock is what the database already offers, held for as long as the process lives, so it is
let go when the process ends however it ends (a crash, a kill): on PostgreSQL a session-level
advisory lock on a connection of its own; on SQLite an flock on a file next to the database file.
A second closer started by mistake finds it taken and stands by, asking again every round.
"""

from __future__ import annotations

import fcntl
import hashlib
import logging
import os
from pathlib import Path
from typing import Any, Protocol

from django.db import DEFAULT_DB_ALIAS, connections

log = logging.getLogger(__name__)

# pg_try_advisory_lock's key, a bigint of the database's one key space: this name's, not a number another tool may pick.
ADVISORY_KEY = int.from_bytes(hashlib.sha256(b"league.closer").digest()[:8], "big", signed=True)


class CloserLock(Protocol):
    def acquire(self) -> bool:
        """Whether this process holds the lock now (taking it if it is free)."""

    def release(self) -> None: ...


def closer_lock(alias: str = DEFAULT_DB_ALIAS) -> CloserLock:
    """The lock for the database of `alias`."""
    settings_dict = connections[alias].settings_dict
    if connections[alias].vendor == "postgresql":
        return AdvisoryLock(settings_dict)
    name = str(settings_dict["NAME"])
    if name == ":memory:" or name.startswith("file:"):  # a database of this process alone
        return ProcessLock()
    return FileLock(Path(f"{name}.closer.lock"))


class ProcessLock:
    def acquire(self) -> bool:
        return True

    def release(self) -> None:
        pass


class FileLock:
    """An exclusive flock on `path`, kept open while held; the kernel lets it go with the process."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def acquire(self) -> bool:
        if self._fd is not None:
            return True
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        self._fd = fd
        return True

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the only descriptor releases the flock
            self._fd = None


class AdvisoryLock:
    """pg_try_advisory_lock on a connection of its own, outside Django's (pooled) connections, so
    nothing hands it back or closes it while the closer runs. If that connection breaks (PostgreSQL
    restarted), the lock went with it: the next acquire connects again and tries again."""

    def __init__(self, settings_dict: dict[str, Any]) -> None:
        self.settings_dict = settings_dict
        self._connection: Any = None

    def acquire(self) -> bool:
        import psycopg

        if self._connection is not None:
            try:
                self._connection.execute("SELECT 1")
                return True
            except psycopg.Error:
                log.warning("the closer's lock connection broke; taking the lock again")
                self.release()
        try:
            connection = psycopg.connect(autocommit=True, connect_timeout=10, **self._params())
        except psycopg.Error:
            log.exception("could not connect to take the closer's lock")
            return False
        row = connection.execute("SELECT pg_try_advisory_lock(%s)", [ADVISORY_KEY]).fetchone()
        if not (row and row[0]):
            connection.close()
            return False
        self._connection = connection
        return True

    def release(self) -> None:
        if self._connection is not None:
            try:
                self._connection.close()  # the session ends: its advisory locks go with it
            except Exception:  # noqa: BLE001 - a broken connection has let go of the lock already
                pass
            self._connection = None

    def _params(self) -> dict[str, Any]:
        s = self.settings_dict
        params = {"dbname": s["NAME"], "user": s.get("USER"), "password": s.get("PASSWORD")}
        params |= {"host": s.get("HOST"), "port": s.get("PORT"), "application_name": "league-closer"}
        return {k: v for k, v in params.items() if v not in (None, "")}
