"""A daphne process killed in the middle of a session: the client goes on with another process,
which rebuilds the game from the stored log; no acknowledged action is lost or applied twice."""

from __future__ import annotations

import json

import pytest

from tests.games.play_helpers import follow
from tests.reliability.client import Api, play_socket, receive
from tests.reliability.conftest import Stack
from tests.reliability.db import legal_plan, session_row, stored_log, view_after

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]  # a private PostgreSQL and Redis each

CODE = "SP1-S2C-AAAAAKQ"


def test_a_killed_worker_loses_no_acknowledged_action_and_applies_none_twice(stack: Stack) -> None:
    first, second = stack.daphne(), stack.daphne()
    api = Api(first.http)
    api.sign_up()
    assert api.token is not None
    session_id = api.post("/api/sessions", {"code": CODE}).json()["id"]
    plan = legal_plan(CODE, 14)

    with play_socket(first.ws, session_id, api.token) as socket:
        held = follow(None, receive(socket))  # the client's copy, deltas merged in as the browser does
        assert held["actions"] == 0
        acknowledged: list[str] = []
        for token in plan[:8]:
            socket.send(json.dumps({"type": "action", "action": token}))
            held = follow(held, receive(socket))
            assert held["actions"] == len(acknowledged) + 1, held
            acknowledged.append(token)
        # One more action is sent and the worker dies before (or while) answering it.
        socket.send(json.dumps({"type": "action", "action": plan[8]}))
        first.kill()

    # The client reconnects to another process, which has never seen this session.
    with play_socket(second.ws, session_id, api.token) as socket:
        resumed = receive(socket)
        assert resumed["type"] == "session"
        held = follow(None, resumed)
        applied = resumed["actions"]
        assert applied in (len(acknowledged), len(acknowledged) + 1), "an acknowledged action was lost or doubled"
        assert resumed["view"] == view_after(CODE, plan[:applied]), "the state was not rebuilt from the stored log"
        # Like the browser client: the counter tells whether the unanswered action got in; resend only if not.
        done = plan[:applied]
        for token in plan[applied:]:
            socket.send(json.dumps({"type": "action", "action": token}))
            held = follow(held, receive(socket))
            assert held["actions"] == len(done) + 1, held
            done.append(token)
        socket.send(json.dumps({"type": "finish"}))
        finished = follow(held, receive(socket))

    assert finished["finished"] is True and finished["result"]["actions"] == len(plan)
    assert stored_log(stack.database_url, session_id) == list(enumerate(plan, start=1))
    assert session_row(stack.database_url, session_id) == (len(plan), True)
    # Any process answers the same from the stored log, over HTTP too.
    again = api.at(second.http).get(f"/api/sessions/{session_id}").json()
    assert again["view"] == view_after(CODE, plan) and again["actions"] == len(plan)


def test_an_http_client_retrying_after_a_crash_sees_exactly_what_was_stored(stack: Stack) -> None:
    first, second = stack.daphne(), stack.daphne()
    api = Api(first.http)
    api.sign_up()
    session_id = api.post("/api/sessions", {"code": CODE}).json()["id"]
    plan = legal_plan(CODE, 6)
    for count, token in enumerate(plan[:5], start=1):
        answer = api.post(f"/api/sessions/{session_id}/actions", {"action": token})
        assert answer.status_code == 200 and answer.json()["actions"] == count
    first.kill()
    elsewhere = api.at(second.http)
    seen = elsewhere.get(f"/api/sessions/{session_id}").json()
    assert seen["actions"] == 5 and seen["view"] == view_after(CODE, plan[:5])
    assert elsewhere.post(f"/api/sessions/{session_id}/actions", {"action": plan[5]}).json()["actions"] == 6
    assert stored_log(stack.database_url, session_id) == list(enumerate(plan, start=1))
