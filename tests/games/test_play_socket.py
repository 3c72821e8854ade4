"""`/ws/play/{id}/`: the whole session document on connect and on sync, a delta after every action,
refusals as errors."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from rest_framework.authtoken.models import Token

from config.asgi import application
from games.models import GameAction, Player
from games.services import start_session
from tests.conftest import make_player
from tests.games.play_helpers import follow

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("socket_cleanup")]
ORIGIN = (b"origin", b"http://127.0.0.1")
HOST = (b"host", b"127.0.0.1")  # the origin check compares the Origin with the address the socket was opened on


async def token_of(player: Player) -> str:
    return await database_sync_to_async(lambda: Token.objects.get_or_create(user=player)[0].key)()


async def open_socket(session_id: object, token: str | None) -> WebsocketCommunicator:
    headers = [ORIGIN, HOST] + ([(b"authorization", f"Token {token}".encode())] if token else [])
    socket = WebsocketCommunicator(application, f"/ws/play/{session_id}/", headers=headers)
    connected, _ = await socket.connect()
    assert connected
    return socket


async def test_connect_act_refuse_and_finish(player: Player) -> None:
    session, _ = await database_sync_to_async(start_session)(player=player, code="SD1-S4-AAAAAAA")
    socket = await open_socket(session.id, await token_of(player))
    hello = await socket.receive_json_from()
    assert hello["type"] == "session" and hello["id"] == str(session.id) and hello["actions"] == 0
    await socket.send_json_to({"type": "action", "action": "1:1>2", "at": 1})
    moved = await socket.receive_json_from()
    assert moved["type"] == "delta" and moved["base"] == 0 and moved["actions"] == 1
    await socket.send_json_to({"type": "action", "action": "1:1>2", "at": 1})  # a resend is answered
    resent = await socket.receive_json_from()
    assert resent["type"] == "delta" and resent["base"] == 1 and resent["actions"] == 1
    await socket.send_json_to({"type": "action", "action": "2:5>3"})
    refused = await socket.receive_json_from()
    assert refused["type"] == "error" and refused["status"] == 422
    assert refused["error"]["index"] == 2 and refused["error"]["token"] == "2:5>3"
    await socket.send_json_to({"type": "finish"})
    finished = await socket.receive_json_from()
    assert finished["type"] == "delta" and finished["finished"] is True and finished["result"]["moves"] == 1
    await socket.send_json_to({"type": "action", "action": "U"})
    over = await socket.receive_json_from()
    assert over["type"] == "error" and over["status"] == 409
    await socket.disconnect()
    assert await database_sync_to_async(GameAction.objects.count)() == 1


async def test_without_a_player_the_socket_is_refused() -> None:
    socket = await open_socket("00000000-0000-0000-0000-000000000000", None)
    message = await socket.receive_json_from()
    assert message["type"] == "error" and message["status"] == 401
    assert (await socket.receive_output())["type"] == "websocket.close"


async def test_another_players_session_is_not_found(player: Player) -> None:
    session, _ = await database_sync_to_async(start_session)(player=player, code="RU1-C-AAAAABB")
    intruder = await database_sync_to_async(make_player)("mallory")
    socket = await open_socket(session.id, await token_of(intruder))
    message = await socket.receive_json_from()
    assert message == {
        "type": "error",
        "status": 404,
        "error": {"message": "No such game session.", "index": None, "token": None},
    }
    assert (await socket.receive_output())["type"] == "websocket.close"


async def test_garbage_is_answered_and_oversized_frames_close_the_socket(player: Player) -> None:
    session, _ = await database_sync_to_async(start_session)(player=player, code="RU1-C-AAAAABB")
    socket = await open_socket(session.id, await token_of(player))
    await socket.receive_json_from()
    for garbage in ("not json", "[1, 2]", json.dumps({"type": "dance"}), json.dumps({"no": "type"})):
        await socket.send_to(text_data=garbage)
        answer = await socket.receive_json_from()
        assert answer["type"] == "error" and answer["status"] == 400 and answer["error"]["message"]
    await socket.send_json_to({"type": "action", "action": 12})
    assert (await socket.receive_json_from())["status"] == 400
    await socket.send_to(text_data="x" * (64 * 1024 + 1))
    closed = await socket.receive_output()
    assert closed == {"type": "websocket.close", "code": 4413}


async def test_a_foreign_origin_is_refused(player: Player) -> None:
    socket = WebsocketCommunicator(application, "/ws/play/x/", headers=[(b"origin", b"http://evil.example")])
    connected, _ = await socket.connect()
    assert not connected


async def test_a_delta_merged_into_the_first_document_is_the_document_a_sync_sends(player: Player) -> None:
    session, _ = await database_sync_to_async(start_session)(player=player, code="SP1-S4C-AAAAAAD")
    socket = await open_socket(session.id, await token_of(player))
    hello = await socket.receive_output()
    copy = follow(None, json.loads(hello["text"]))
    sizes = []
    for _ in range(6):
        token = next(t for t in copy["legal"] if t != "U")
        await socket.send_json_to({"type": "action", "action": token, "at": copy["actions"] + 1})
        answer = await socket.receive_output()
        frame = json.loads(answer["text"])
        assert frame["type"] == "delta"
        sizes.append(len(answer["text"].encode()))
        copy = follow(copy, frame)
    assert max(sizes) < len(hello["text"].encode()) / 2
    await socket.send_json_to({"type": "sync"})
    synced = await socket.receive_json_from()
    assert synced["type"] == "session"
    whole = follow(None, synced)
    assert {**copy, "elapsed_ms": 0} == {**whole, "elapsed_ms": 0}  # the clock ran on meanwhile
    await socket.send_json_to({"type": "action", "action": "U", "at": whole["actions"] + 1})
    undone = await socket.receive_json_from()
    assert undone["type"] == "delta" and undone["base"] == whole["actions"]  # the sync is the new base
    await socket.disconnect()


async def test_a_refusal_leaves_the_base_where_it_was(player: Player) -> None:
    session, _ = await database_sync_to_async(start_session)(player=player, code="SD1-S4-AAAAAAA")
    socket = await open_socket(session.id, await token_of(player))
    copy = follow(None, await socket.receive_json_from())
    await socket.send_json_to({"type": "action", "action": "2:5>3"})
    assert (await socket.receive_json_from())["status"] == 422
    for message in ({"type": "Sync"}, {"type": "sync!"}, {"type": ["sync"]}):
        await socket.send_json_to(message)
        refused = await socket.receive_json_from()
        assert refused["type"] == "error" and refused["status"] == 400 and refused["error"]["message"]
    await socket.send_json_to({"type": "action", "action": "1:1>2"})
    copy = follow(copy, await socket.receive_json_from())
    assert copy["actions"] == 1
    await socket.disconnect()


async def test_a_connected_socket_keeps_none_of_its_handshake_s_headers_and_plays_on_in_its_language(
    player: Player,
) -> None:
    """What the client sent with the handshake (its token, its user agent) is let go once connected,
    in every copy of the scope (they share the list); the socket has read its language by then."""
    session, _ = await database_sync_to_async(start_session)(player=player, code="SD1-S4-AAAAAAA")
    token = await token_of(player)
    headers = [ORIGIN, HOST, (b"authorization", f"Token {token}".encode()), (b"accept-language", b"fi")]
    headers.append((b"user-agent", b"Mozilla/5.0 (X11; Linux x86_64) a browser of its own"))
    socket = WebsocketCommunicator(application, f"/ws/play/{session.id}/", headers=headers)
    connected, _ = await socket.connect()
    assert connected
    assert (await socket.receive_json_from())["type"] == "session"
    assert socket.scope["headers"] == []
    await socket.send_json_to({"type": "action", "action": "1:1>2"})
    assert (await socket.receive_json_from())["type"] == "delta"
    await socket.send_json_to({"type": "action", "action": "2:5>3"})
    refused = await socket.receive_json_from()
    assert refused["status"] == 422 and refused["error"]["message"] == "Sarakkeessa 2 on vain 2 näkyvää korttia"
    await socket.disconnect()


@pytest.mark.usefixtures("prepared_dailies")
async def test_a_daily_attempt_over_the_socket_cannot_undo_its_deal(player: Player) -> None:
    """The socket's own path (on PostgreSQL, judged on the event loop) refuses what HTTP refuses."""
    session, _ = await database_sync_to_async(start_session)(player=player, daily="SP1-S1C")
    socket = await open_socket(session.id, await token_of(player))
    hello = follow(None, await socket.receive_json_from())
    await socket.send_json_to({"type": "action", "action": "D", "at": 1})
    dealt = follow(hello, await socket.receive_json_from())
    assert dealt["actions"] == 1 and "U" not in dealt["legal"] and dealt["legal"]
    await socket.send_json_to({"type": "action", "action": "U", "at": 2})
    refused = await socket.receive_json_from()
    assert refused["type"] == "error" and refused["status"] == 409
    assert refused["error"]["rule"] == "undo_would_hide" and refused["error"]["index"] == 2
    await socket.disconnect()
    assert await database_sync_to_async(GameAction.objects.filter(session=session).count)() == 1
