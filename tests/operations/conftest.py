"""The probe worker: `python -m operations.server` serving tests/operations/socket_probe.py, shared by
the tests that look inside a real worker."""

from __future__ import annotations

import json
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.loopback import free_port, service_env, serving

TIMEOUT = 10.0


@dataclass
class Probe:
    port: int
    log: Path
    access_log: Path

    def state(self) -> dict[str, Any]:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/state", timeout=TIMEOUT) as answer:
            return dict(json.loads(answer.read()))

    def until(self, holds: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        deadline = time.monotonic() + TIMEOUT
        while not holds(state := self.state()):
            assert time.monotonic() < deadline, state
            time.sleep(0.05)
        return state


@pytest.fixture(scope="module")
def probe() -> Iterator[Probe]:
    """A worker serving tests/operations/socket_probe.py (no database, no Redis)."""
    port = free_port()
    logs = Path(tempfile.mkdtemp(prefix="probe-worker-"))
    log, access_log = logs / "worker.log", logs / "access.log"
    probe = Probe(port, log, access_log)
    with serving(
        "tests.operations.socket_probe:application",
        port=port,
        env=service_env(database_url="", redis_url=""),
        log=log,
        ready=probe.state,
        options=["--access-log", str(access_log)],
    ):
        yield probe
