"""A real worker for the tests that must see what daphne does: `python -m operations.server` (as
`make run` and the image run it) on a free loopback port, on pytest-django's test database."""

from __future__ import annotations

import subprocess
import tempfile
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.loopback import database_url_of, free_port, service_env, serving


@dataclass
class Worker:
    port: int
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")


@pytest.fixture(scope="package")
def worker(django_db_setup: None, django_db_blocker: Any) -> Iterator[Worker]:
    from django.conf import settings
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("the worker runs on PostgreSQL (set DATABASE_URL)")
    port = free_port()
    env = service_env(database_url=database_url_of(connection.settings_dict), redis_url=settings.REDIS_URL or "")
    env.pop("MAX_BODY_BYTES", None)
    env.pop("WS_MAX_FRAME_BYTES", None)
    env["RATE_WS_MESSAGES"] = "20"
    log = Path(tempfile.mkdtemp(prefix="security-worker-")) / "worker.log"

    def alive() -> None:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/health/alive", timeout=2).close()

    with serving("config.asgi:application", port=port, env=env, log=log, ready=alive) as process:
        yield Worker(port, process, log)
