"""`make cluster` keeps the closer too: operations.cluster's Cluster, asked for it, starts the closer
beside its worker (here one, on the test database), starts it again when it dies, saying so, and
stops it with the rest."""

from __future__ import annotations

import datetime as dt
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from django.db import connection

from games.engine import DAILY_VARIANTS
from games.models import Daily
from operations.cluster import Cluster, nginx_binary
from tests.loopback import database_url_of, free_port, service_env
from tests.operations.test_make_run import alive

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def _until(holds: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not holds():
        assert time.monotonic() < deadline, what
        time.sleep(0.2)


@pytest.mark.django_db(transaction=True)  # the closer's process sees what this test's connection sees
def test_the_cluster_runs_the_closer_supervised_and_stops_it(tmp_path: Path) -> None:
    if nginx_binary() is None:
        pytest.skip("nginx is not installed (scripts/nginx.sh)")
    env = service_env(
        database_url=database_url_of(connection.settings_dict),
        redis_url=os.environ.get("REDIS_URL", ""),
        DAILY_SOLVER_BUDGET_SECONDS="0.05",
        DAILY_CANDIDATE_CAP="1",
        DAILY_PREPARE_DAYS="0",
    )
    told: list[str] = []
    cluster = Cluster(
        worker_ports=[free_port()], listen_port=free_port(), env=env, log_dir=tmp_path, closer=True, tell=told.append
    )
    closer_log = tmp_path / "closer.log"
    try:
        cluster.start()
        first = cluster.closer_pid
        assert first is not None and alive(first)
        _until(lambda: "today's dailies: 7 of 7 ready" in closer_log.read_text(), 60, "today's dailies")
        today = dt.datetime.now(dt.UTC).date()
        assert Daily.objects.filter(date=today).count() == len(DAILY_VARIANTS)

        os.kill(first, signal.SIGKILL)

        def restarted() -> bool:
            cluster.check()  # what the cluster's loop does every second
            return cluster.closer_pid != first

        _until(restarted, 20, f"the closer was not started again: {told}")
        assert told[0].startswith("cluster: the closer was killed by SIGKILL; starting it again in")
        assert told[1] == f"cluster: the closer started again (pid {cluster.closer_pid})"
        again = cluster.closer_pid
        assert again is not None
        _until(lambda: "(prepared before)" in closer_log.read_text(), 60, "the second closer's first round")
        worker = cluster.workers[0].pid
        assert worker is not None
    finally:
        cluster.stop(drain_seconds=15)
    assert not alive(again) and not alive(worker)
