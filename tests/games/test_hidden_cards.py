"""No answer about a game in progress carries a face-down or stock card, over HTTP or WebSocket."""

from __future__ import annotations

import random
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config.asgi import application
from games.engine import ALL_VARIANTS
from games.models import Player
from tests.games.play_helpers import card_mentions, follow, visible_cards

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("socket_cleanup")]


def assert_nothing_hidden_leaks(document: dict[str, Any]) -> None:
    view = document["view"]
    assert isinstance(view["stock"], int)
    assert all(isinstance(column["down"], int) for column in view["columns"])
    # Every card named anywhere in the document is a visible one, counted once.
    assert card_mentions(document) == visible_cards(view)


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_http_answers_show_only_visible_cards(player_api: APIClient, variant: str, unlimited_actions: None) -> None:
    doc = player_api.post("/api/sessions", {"variant": variant}, format="json").json()
    rng = random.Random(variant)
    for _ in range(25):
        assert_nothing_hidden_leaks(doc)
        choices = [token for token in doc["legal"] if token != "U"] or doc["legal"]
        if not choices:
            break  # the deal is over (a Russian Classic one often dead-ends): nothing left to play
        doc = player_api.post(
            f"/api/sessions/{doc['id']}/actions", {"action": rng.choice(choices)}, format="json"
        ).json()
    assert_nothing_hidden_leaks(doc)
    refused = player_api.post(f"/api/sessions/{doc['id']}/actions", {"action": "1:1>1"}, format="json").json()
    assert card_mentions(refused) == 0


@pytest.mark.parametrize("variant", ALL_VARIANTS)
async def test_socket_messages_show_only_visible_cards(player: Player, variant: str, unlimited_actions: None) -> None:
    from channels.db import database_sync_to_async

    from games.services import start_session

    session, _ = await database_sync_to_async(start_session)(player=player, variant=variant)
    token = await database_sync_to_async(lambda: Token.objects.get_or_create(user=player)[0].key)()
    socket = WebsocketCommunicator(
        application,
        f"/ws/play/{session.id}/",
        headers=[
            (b"authorization", f"Token {token}".encode()),
            (b"origin", b"http://127.0.0.1"),
            (b"host", b"127.0.0.1"),
        ],
    )
    connected, _ = await socket.connect()
    assert connected
    frame = await socket.receive_json_from(timeout=5)
    assert frame["type"] == "session"
    doc = follow(None, frame)
    rng = random.Random(variant)
    for _ in range(15):
        assert_nothing_hidden_leaks(doc)
        choices = [t for t in doc["legal"] if t != "U"] or doc["legal"]
        if not choices:
            break  # the deal is over: nothing left to play
        await socket.send_json_to({"type": "action", "action": rng.choice(choices)})
        frame = await socket.receive_json_from(timeout=5)
        doc = follow(doc, frame)
        # A delta names only cards the document it makes shows (it may name fewer).
        assert card_mentions(frame) <= card_mentions(doc)
    assert_nothing_hidden_leaks(doc)
    await socket.disconnect()
