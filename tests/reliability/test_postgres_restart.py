"""PostgreSQL restarted under a running service: clear 503 answers while it is away, nothing
half-written, and the service recovers by itself (no restart of daphne)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack

import pytest
import requests

from tests.reliability.client import Api, play_socket, receive
from tests.reliability.conftest import Stack
from tests.reliability.db import legal_plan, rows, session_row, stored_log, view_after

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]  # a private PostgreSQL and Redis each

CODE = "RU1-C-AAAAABB"
SPIDER = "SP1-S2C-AAAAAKQ"


def assert_unavailable(answer: requests.Response) -> None:
    assert answer.status_code == 503, (answer.request.method, answer.request.url, answer.status_code, answer.text)
    error = answer.json()["error"]
    assert "unavailable" in error["message"] and error["index"] is None and error["token"] is None
    assert int(answer.headers["Retry-After"]) >= 1


def counts(stack: Stack) -> tuple[int, ...]:
    ((sessions, actions, results, players),) = rows(
        stack.database_url,
        "SELECT (SELECT count(*) FROM games_gamesession), (SELECT count(*) FROM games_gameaction),"
        " (SELECT count(*) FROM leaderboard_result), (SELECT count(*) FROM leaderboard_player)",
    )
    return int(sessions), int(actions), int(results), int(players)


def test_while_postgres_is_away_every_call_answers_503_and_changes_nothing(stack: Stack, sockets: ExitStack) -> None:
    # Persistent connections are the harder case: each one breaks when the server restarts.
    server = stack.daphne(DB_CONN_MAX_AGE="600")
    api = Api(server.http)
    name = api.sign_up()
    assert api.token is not None
    session_id = api.post("/api/sessions", {"code": CODE}).json()["id"]
    plan = legal_plan(CODE, 4)
    for token in plan[:2]:
        assert api.post(f"/api/sessions/{session_id}/actions", {"action": token}).status_code == 200
    socket = sockets.enter_context(play_socket(server.ws, session_id, api.token))
    assert receive(socket)["actions"] == 2
    before = counts(stack)

    stack.postgres.stop()
    calls: list[Callable[[], requests.Response]] = [
        lambda: api.get(f"/api/sessions/{session_id}"),
        lambda: api.post(f"/api/sessions/{session_id}/actions", {"action": plan[2]}),
        lambda: api.post(f"/api/sessions/{session_id}/finish"),
        lambda: api.post("/api/sessions", {"code": CODE}),
        lambda: api.post("/api/submissions", {"code": CODE, "moves": plan}),
        lambda: api.get(f"/api/leaderboards/code:{CODE}"),
        lambda: api.get("/api/daily"),
        lambda: api.get(f"/api/players/{name}"),
        lambda: Api(server.http).post("/api/auth/signup", {"username": "newcomer", "password": "a long passphrase 7"}),
        lambda: Api(server.http).post("/api/auth/login", {"username": name, "password": "a long passphrase 7"}),
    ]
    for call in calls:
        assert_unavailable(call())
    socket.send(json.dumps({"type": "action", "action": plan[2]}))
    refusal = receive(socket)
    assert refusal["type"] == "error" and refusal["status"] == 503 and "unavailable" in refusal["error"]["message"]
    socket.close()

    stack.postgres.start()
    # The first request after PostgreSQL is back is served: no restart, no stale connection reused.
    again = api.get(f"/api/sessions/{session_id}")
    assert again.status_code == 200, again.text
    assert again.json()["actions"] == 2 and again.json()["view"] == view_after(CODE, plan[:2])
    assert counts(stack) == before
    for count, token in enumerate(plan[2:], start=3):
        assert api.post(f"/api/sessions/{session_id}/actions", {"action": token}).json()["actions"] == count
    assert api.post(f"/api/sessions/{session_id}/finish").json()["result"]["actions"] == len(plan)


def test_a_restart_in_the_middle_of_play_leaves_no_half_written_action_or_result(
    stack: Stack, sockets: ExitStack
) -> None:
    server = stack.daphne(DB_CONN_MAX_AGE="600")
    api = Api(server.http)
    api.sign_up()
    assert api.token is not None
    session_id = api.post("/api/sessions", {"code": SPIDER}).json()["id"]
    plan = legal_plan(SPIDER, 40)
    # A socket that keeps its worker's database connection, and says nothing while PostgreSQL is away.
    idle = sockets.enter_context(play_socket(server.ws, session_id, api.token))
    assert receive(idle)["actions"] == 0
    acknowledged: list[int] = []
    refused: list[requests.Response] = []
    stop = threading.Event()

    def keep_playing() -> None:
        """Send the plan's actions one after another until the first answer that is not a 200."""
        for token in plan:
            if stop.is_set():
                return
            answer = api.post(f"/api/sessions/{session_id}/actions", {"action": token})
            if answer.status_code != 200:
                refused.append(answer)
                return
            acknowledged.append(answer.json()["actions"])
            time.sleep(0.05)  # a quick player's pace, so that PostgreSQL stops mid-plan on a fast server

    player = threading.Thread(target=keep_playing)
    player.start()
    try:
        while len(acknowledged) < 3 and player.is_alive():  # bounded: the plan has 40 actions
            player.join(timeout=0.05)
        stack.postgres.stop()
    finally:
        stop.set()
        player.join(timeout=60)
    assert not player.is_alive()
    assert refused, "PostgreSQL stopped after the whole plan was played: nothing was tested"
    assert_unavailable(refused[0])

    stack.postgres.start()
    resumed = api.get(f"/api/sessions/{session_id}")
    assert resumed.status_code == 200, resumed.text
    stored = resumed.json()["actions"]
    # Every acknowledged action is stored; the unanswered one is stored whole or not at all.
    assert stored in (len(acknowledged), len(acknowledged) + 1)
    assert acknowledged == list(range(1, len(acknowledged) + 1))
    assert stored_log(stack.database_url, session_id) == list(enumerate(plan[:stored], start=1))
    assert session_row(stack.database_url, session_id) == (stored, False)
    assert resumed.json()["view"] == view_after(SPIDER, plan[:stored])
    assert rows(stack.database_url, "SELECT count(*) FROM leaderboard_result") == [(0,)]
    # The socket's kept connection broke with the restart; its next action is served all the same.
    idle.send(json.dumps({"type": "action", "action": plan[stored]}))
    answer = receive(idle)
    while answer.get("pushed"):  # the game followed as it was played from elsewhere (docs/api.md)
        answer = receive(idle)
    assert answer.get("actions") == stored + 1, "the socket's worker reused a broken connection"
    idle.close()
    finished = api.post(f"/api/sessions/{session_id}/finish")
    assert finished.status_code == 200 and finished.json()["result"]["actions"] == stored + 1
