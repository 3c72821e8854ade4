"""SIGTERM to a worker (operations.server): it stops listening at once, answers what is in flight,
then closes each socket with 4012 so its client reconnects at once; nothing acknowledged is lost."""

from __future__ import annotations

import json
import signal
import threading
import time
from contextlib import ExitStack
from pathlib import Path

import psycopg
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from operations.cluster import Worker
from operations.drain import CLOSE_RESTARTING
from tests.loopback import free_port
from tests.reliability.client import TIMEOUT, Api, origin_of, play_socket, receive
from tests.reliability.conftest import Stack
from tests.reliability.db import legal_plan, session_row, stored_log
from tests.reliability.procs import port_open, wait_until

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]  # a private PostgreSQL and Redis each

CODE = "SP1-S2C-AAAAAKQ"


def _closed_with(socket: object, *, timeout: float) -> int | None:
    """The close code the server sent, waiting at most `timeout` (None: still open)."""
    try:
        socket.recv(timeout=timeout)  # type: ignore[attr-defined]
    except TimeoutError:
        return None
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd is not None else 1006
    raise AssertionError("a frame came where a close was expected")


def test_a_stopping_worker_answers_what_is_in_flight_then_closes_its_sockets_with_the_restart_code(
    stack: Stack, sockets: ExitStack
) -> None:
    log = Path(stack.log_dir) / "worker.log"
    worker = Worker(free_port(), stack.env(DRAIN_SECONDS="20", LOG_LEVEL="INFO", LOG_FORMAT="json"), log)
    try:
        worker.start()
        worker.wait_ready()
        api = Api(worker.url)
        api.sign_up()
        assert api.token is not None
        on_socket, over_http, idle_one = (api.post("/api/sessions", {"code": CODE}).json()["id"] for _ in range(3))
        plan = legal_plan(CODE, 2)
        ws = f"ws://127.0.0.1:{worker.port}"
        busy = sockets.enter_context(play_socket(ws, on_socket, api.token))
        idle = sockets.enter_context(play_socket(ws, idle_one, api.token))
        watcher = sockets.enter_context(
            connect(f"{ws}/ws/leaderboards/code:{CODE}/", origin=origin_of(ws), proxy=None, open_timeout=TIMEOUT)  # type: ignore[arg-type]
        )
        assert receive(busy)["actions"] == 0 and receive(idle)["actions"] == 0
        assert receive(watcher)["type"] == "snapshot"

        http_answer: list[object] = []
        with psycopg.connect(stack.database_url) as holder:
            # Hold both sessions' rows: their next actions wait inside the worker, in flight.
            holder.execute("SELECT 1 FROM games_gamesession WHERE id IN (%s, %s) FOR UPDATE", [on_socket, over_http])
            busy.send(json.dumps({"type": "action", "action": plan[0], "at": 1}))
            post = threading.Thread(
                target=lambda: http_answer.append(
                    api.post(f"/api/sessions/{over_http}/actions", {"action": plan[0], "at": 1})
                )
            )
            post.start()
            wait_until(lambda: _waiting_on_locks(stack.database_url) == 2, timeout=20, what="both actions in flight")

            worker.signal(signal.SIGTERM)
            wait_until(lambda: not port_open(worker.port), timeout=5, what="the worker to stop listening")
            # Idle sockets are closed at once, with the code that says "reconnect now".
            assert _closed_with(idle, timeout=5) == CLOSE_RESTARTING
            assert _closed_with(watcher, timeout=5) == CLOSE_RESTARTING
            # The busy one owes an answer: it stays open while its action waits.
            assert _closed_with(busy, timeout=1) is None
            assert worker.process is not None and worker.process.poll() is None
            holder.rollback()  # let the actions through

        answer = receive(busy)
        assert answer["type"] in {"session", "delta"} and answer["actions"] == 1, answer
        assert _closed_with(busy, timeout=10) == CLOSE_RESTARTING
        post.join(timeout=20)
        (response,) = http_answer
        assert response.status_code == 200 and response.json()["actions"] == 1  # type: ignore[attr-defined]
        assert response.headers["Connection"] == "close"  # type: ignore[attr-defined]  # go elsewhere next time
        assert worker.wait(timeout=20) == 0, worker._tail()
        said = [json.loads(line)["message"] for line in log.read_text().splitlines() if line.startswith("{")]
        assert "SIGTERM: draining 3 sockets and 1 requests" in said and said[-2:] == [
            "drained: stopping",
            "Killed 0 pending application instances",
        ]
    finally:
        worker.signal(signal.SIGKILL)
        worker.wait(timeout=10)

    for session_id in (on_socket, over_http):
        assert stored_log(stack.database_url, session_id) == [(1, plan[0])]
        assert session_row(stack.database_url, session_id) == (1, False)


def test_a_second_signal_stops_a_draining_worker_at_once(stack: Stack, sockets: ExitStack) -> None:
    worker = Worker(free_port(), stack.env(DRAIN_SECONDS="60"), Path(stack.log_dir) / "worker.log")
    try:
        worker.start()
        worker.wait_ready()
        api = Api(worker.url)
        api.sign_up()
        assert api.token is not None
        session_id = api.post("/api/sessions", {"code": CODE}).json()["id"]
        socket = sockets.enter_context(play_socket(f"ws://127.0.0.1:{worker.port}", session_id, api.token))
        receive(socket)
        with psycopg.connect(stack.database_url) as holder:
            holder.execute("SELECT 1 FROM games_gamesession WHERE id = %s FOR UPDATE", [session_id])
            socket.send(json.dumps({"type": "action", "action": legal_plan(CODE, 1)[0], "at": 1}))
            wait_until(lambda: _waiting_on_locks(stack.database_url) == 1, timeout=20, what="the action in flight")
            worker.signal(signal.SIGTERM)
            wait_until(lambda: not port_open(worker.port), timeout=5, what="the worker to stop listening")
            started = time.monotonic()
            worker.signal(signal.SIGTERM)
            assert worker.wait(timeout=15) == 1 and time.monotonic() - started < 10
            holder.rollback()
    finally:
        worker.signal(signal.SIGKILL)
        worker.wait(timeout=10)


def _waiting_on_locks(database_url: str) -> int:
    with psycopg.connect(database_url) as connection:
        row = connection.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        ).fetchone()
    return int(row[0]) if row else 0
