"""A change fanned out to a board's watchers: each hears it once, the same frame, and nothing more.

The sockets here are in process (Channels' communicator); tests/reliability/test_push_wire.py
runs the real wire."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from config.routing import websocket_urlpatterns
from tests.leaderboard.factories import RUSSIAN_WIN, make_result, named, vector_log

APP = URLRouter(websocket_urlpatterns)
BOARD = f"code:{RUSSIAN_WIN}"
LOG = vector_log(RUSSIAN_WIN)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("socket_cleanup")]


async def _watchers(count: int) -> list[WebsocketCommunicator]:
    opened = []
    for _ in range(count):
        watcher = WebsocketCommunicator(APP, f"/ws/leaderboards/{BOARD}/")
        connected, _ = await watcher.connect()
        assert connected
        assert (await watcher.receive_json_from())["type"] == "snapshot"
        opened.append(watcher)
    return opened


async def test_every_watcher_hears_a_change_once_in_the_same_frame() -> None:
    watchers = await _watchers(6)
    await database_sync_to_async(make_result)(await database_sync_to_async(named)("solo"), RUSSIAN_WIN, LOG)
    frames = [await watcher.receive_output(timeout=2) for watcher in watchers]
    texts = [frame["text"] for frame in frames]
    assert all(frame["type"] == "websocket.send" for frame in frames)
    assert '"type":"change"' in texts[0] and '"player":"solo"' in texts[0]
    assert len(set(texts)) == 1
    for watcher in watchers:
        assert await watcher.receive_nothing(0.3)
        await watcher.disconnect()
