"""Garbage on every WebSocket path: answered with an error (the socket stays usable), or closed
for frames over the cap and floods; never a crash, never a change."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from rest_framework.authtoken.models import Token

from config.asgi import application
from games.models import GameAction, Player
from games.rooms import rooms
from games.services import start_session
from tests.conftest import make_player

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("socket_cleanup")]

CODE = "SD1-S4-AAAAAAA"
GARBAGE_TEXT = [
    " ",
    "not json",
    "{",
    "[1, 2]",
    "null",
    '"type"',
    json.dumps({"no": "type"}),
    json.dumps({"type": 5}),
    json.dumps({"type": None}),
    json.dumps({"type": "dance"}),
    json.dumps({"type": "x" * 5000}),
    "[" * 20_000 + "]" * 20_000,  # under the frame cap, too deep for Python's JSON parser
    '{"type": "action", "action": ' + "[" * 3000 + "]" * 3000 + "}",
]
GARBAGE_BYTES = [b"\xff\xfe\x00", b"\x00" * 100, json.dumps({"type": "dance"}).encode()]


def _play_path(player: Player) -> str:
    session, _ = start_session(player=player, code=CODE)
    return f"/ws/play/{session.id}/"


def _board_path(player: Player) -> str:
    return f"/ws/leaderboards/code:{CODE}/"


def _room_path(player: Player) -> str:
    return f"/ws/rooms/{rooms.create_room(host=player, code=CODE).pk}/"


PATHS: dict[str, Callable[[Player], str]] = {"play": _play_path, "board": _board_path, "room": _room_path}
every_socket = pytest.mark.parametrize("kind", PATHS)


async def open_socket(kind: str) -> tuple[WebsocketCommunicator, dict[str, Any]]:
    def prepare() -> tuple[str, str]:
        player = make_player(f"sock{kind}")
        return PATHS[kind](player), Token.objects.create(user=player).key

    path, token = await database_sync_to_async(prepare)()
    socket = WebsocketCommunicator(
        application,
        path,
        headers=[
            (b"origin", b"http://127.0.0.1"),
            (b"host", b"127.0.0.1"),
            (b"authorization", f"Token {token}".encode()),
        ],
    )
    connected, _ = await socket.connect(timeout=5)
    assert connected
    first = await socket.receive_json_from(timeout=5)
    assert first["type"] in {"session", "snapshot", "room"}, first
    return socket, first


async def assert_refused_cleanly(socket: WebsocketCommunicator, send: Awaitable[None]) -> None:
    await send
    answer = await socket.receive_json_from(timeout=5)
    assert answer["type"] == "error" and answer["status"] == 400, answer
    assert answer["error"]["message"] and answer["error"]["index"] is None


@every_socket
async def test_garbage_is_answered_with_an_error_and_the_socket_stays_usable(kind: str, settings: Any) -> None:
    settings.RATE_WS_MESSAGES = 1000
    socket, first = await open_socket(kind)
    for text in GARBAGE_TEXT:
        await assert_refused_cleanly(socket, socket.send_to(text_data=text))
    for data in GARBAGE_BYTES:
        await assert_refused_cleanly(socket, socket.send_to(bytes_data=data))
    if kind == "play":
        assert await database_sync_to_async(GameAction.objects.count)() == 0
        await socket.send_json_to({"type": "action", "action": first["legal"][0]})
        moved = await socket.receive_json_from(timeout=5)
        assert moved["type"] == "delta" and moved["actions"] == 1
    else:
        await socket.send_json_to({"type": "dance"})  # still answering after all that
        assert (await socket.receive_json_from(timeout=5))["type"] == "error"
    await socket.disconnect()


@every_socket
@pytest.mark.parametrize("frame", ["text", "bytes"])
async def test_a_frame_over_the_cap_closes_the_socket(kind: str, frame: str) -> None:
    socket, _ = await open_socket(kind)
    big = json.dumps({"type": "action", "action": "D", "pad": "x" * settings.WS_MAX_FRAME_BYTES})
    if frame == "text":
        await socket.send_to(text_data=big)
    else:
        await socket.send_to(bytes_data=big.encode())
    assert await socket.receive_output(timeout=5) == {"type": "websocket.close", "code": 4413}
    if kind == "play":
        assert await database_sync_to_async(GameAction.objects.count)() == 0


@every_socket
async def test_a_flood_closes_the_socket(kind: str, settings: Any) -> None:
    settings.RATE_WS_MESSAGES = 5
    socket, _ = await open_socket(kind)
    for _ in range(settings.RATE_WS_MESSAGES + 1):
        await socket.send_to(text_data=json.dumps({"type": "dance"}))
    outputs = []
    while (output := await socket.receive_output(timeout=5))["type"] != "websocket.close":
        outputs.append(json.loads(output["text"]))
    assert output["code"] == 4429
    assert len(outputs) == settings.RATE_WS_MESSAGES and all(o["type"] == "error" for o in outputs)
