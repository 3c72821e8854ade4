"""What the tests that start their own service processes share."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def service_env(*, database_url: str, redis_url: str, **extra: str) -> dict[str, str]:
    """The environment of a daphne or manage.py the tests start on loopback: their database and
    Redis, and the rate limits raised (tests act faster than a person may)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        APP_ENV="development",
        DEBUG="false",
        LOG_LEVEL="WARNING",
        RATE_ACTIONS="100000",
        RATE_SUBMISSIONS="100000",
        RATE_SUBMISSIONS_PER_ADDRESS="100000",
        RATE_SESSION_STARTS="100000",
        RATE_SESSION_STARTS_PER_ADDRESS="100000",
        RATE_GUESTS="100000",
        RATE_ROOMS="100000",
        RATE_ROOMS_PER_ADDRESS="100000",
        RATE_SIGNUPS="100000",
        RATE_WS_MESSAGES="100000",
        RATE_LOGIN_FAILURES="100000",
        RATE_LOGIN_FAILURES_PER_ADDRESS="100000",
        # With a connection pool, each request waits this long for a connection while PostgreSQL
        # is away before it answers 503; kept short so the outage tests stay quick.
        DB_POOL_TIMEOUT="2",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


def worker_env(**extra: str) -> dict[str, str]:
    """service_env for a worker on pytest-django's test database: PostgreSQL's and the test Redis,
    or on the embedded default the test database's file (tests/django_fixtures.py), the in-memory layer."""
    from django.conf import settings
    from django.db import connection

    if connection.vendor == "postgresql":
        return service_env(
            database_url=database_url_of(connection.settings_dict), redis_url=settings.REDIS_URL or "", **extra
        )
    return service_env(database_url="", redis_url="", SQLITE_PATH=connection.settings_dict["NAME"], **extra)


def free_port() -> int:
    """A port nothing listens on now, on loopback, for a process a test starts."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def database_url_of(settings_dict: dict) -> str:
    """The URL of a Django database (pytest-django's test database, for a process a test starts)."""
    user = settings_dict.get("USER") or ""
    password = settings_dict.get("PASSWORD") or ""
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{auth}{host}:{port}/{settings_dict['NAME']}"


@contextmanager
def serving(
    application: str,
    *,
    port: int,
    env: dict[str, str],
    log: Path,
    ready: Callable[[], object],
    options: Sequence[str] = (),
    within: float = 60,
) -> Iterator[subprocess.Popen[bytes]]:
    """A worker (`python -m operations.server`, as `make run` starts it) serving `application` on
    `port`, its output in `log`, once `ready()` no longer raises OSError; terminated on leaving."""
    command = [sys.executable, "-m", "operations.server", "-b", "127.0.0.1", "-p", str(port), *options, application]
    with log.open("wb") as output:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + within
    while True:
        try:
            ready()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError(f"the worker did not start: {log.read_text(errors='replace')[-2000:]}") from None
            time.sleep(0.2)
    try:
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
