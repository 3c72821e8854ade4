"""A play socket's answers on a real worker (daphne): in order with its refusals, merging into the
document a sync sends whole, and each counted as an answer in the worker's metrics."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from typing import Any

import pytest
import websockets
from channels.db import database_sync_to_async
from prometheus_client.parser import text_string_to_metric_families
from rest_framework.authtoken.models import Token

from games.services import start_session
from tests.conftest import make_player
from tests.games.play_helpers import follow
from tests.leaderboard.factories import legal_walk
from tests.security.conftest import Worker

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]  # a real worker, on the test database
CODE = "SP1-S2C-AAAAAKQ"


def answers_counted(worker: Worker) -> float:
    with urllib.request.urlopen(f"{worker.origin}/metrics", timeout=10) as answer:
        text = answer.read().decode()
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == "league_socket_answer_seconds_count" and sample.labels.get("kind") == "play":
                return sample.value
    return 0.0


def prepare() -> tuple[str, str]:
    player = make_player("wired")
    session, _ = start_session(player=player, code=CODE)
    return str(session.id), Token.objects.create(user=player).key


async def test_answers_written_straight_keep_their_order_and_are_counted(worker: Worker) -> None:
    session_id, token = await database_sync_to_async(prepare)()
    first, second = legal_walk(CODE, 2)
    before = answers_counted(worker)
    async with websockets.connect(
        f"ws://127.0.0.1:{worker.port}/ws/play/{session_id}/",
        origin=worker.origin,
        additional_headers={"Authorization": f"Token {token}"},
    ) as socket:

        async def frame() -> dict[str, Any]:
            return dict(json.loads(await asyncio.wait_for(socket.recv(), 10)))

        document = follow(None, await frame())
        assert document["actions"] == 0
        for message in (
            {"type": "action", "action": first},
            {"type": "action", "action": "9:1>9"},  # no such move: refused through the ASGI send
            {"type": "action", "action": second},
        ):
            await socket.send(json.dumps(message))
        played = await frame()
        refused = await frame()
        document = follow(follow(document, played), await frame())
        assert played["type"] == "delta" and played["actions"] == 1
        assert refused["type"] == "error" and refused["status"] == 422
        assert document["actions"] == 2
        await socket.send(json.dumps({"type": "sync"}))
        whole = await frame()
        assert whole["type"] == "session"
        assert {**follow(None, whole), "elapsed_ms": 0} == {**document, "elapsed_ms": 0}  # the clock runs on
    assert answers_counted(worker) == before + 4  # three actions and a sync, each answered once
