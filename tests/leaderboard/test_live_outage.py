"""Board and room sockets while Redis is away: they open, show the state from PostgreSQL, say that
live updates are paused, and resume (a fresh snapshot, then changes) when Redis is back.

A private Redis (tests.reliability.procs) is stopped and started under the sockets; the
channel layer and the rank index both point at it.
"""

from __future__ import annotations

import asyncio
import signal
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from config.routing import websocket_urlpatterns
from games.rooms import rooms
from tests.leaderboard.factories import RUSSIAN_WIN, SPIDERETTE_WIN, make_result, named, vector_log
from tests.reliability.procs import PrivateRedis
from web.sockets import live

APP = URLRouter(websocket_urlpatterns)
BOARD = f"code:{RUSSIAN_WIN}"
OTHER_BOARD = f"code:{SPIDERETTE_WIN}"
LOG = vector_log(RUSSIAN_WIN)
WAIT = 10  # seconds: Redis restarts, the layer's watch probes every second (web.sockets.live)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("socket_cleanup")]


async def _open(path: str, user: Any = None) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(APP, path)
    if user is not None:
        communicator.scope["user"] = user
    connected, _ = await communicator.connect(timeout=WAIT)
    assert connected
    return communicator


async def _until(socket: WebsocketCommunicator, kind: str) -> dict[str, Any]:
    """The next message of `kind`, skipping others."""
    while True:
        message = await socket.receive_json_from(timeout=WAIT)
        if message["type"] == kind:
            return message


def _paused(message: dict[str, Any]) -> bool:
    return message["type"] == "error" and message["status"] == 503 and "paused" in message["error"]["message"]


async def test_a_board_watcher_opens_while_redis_is_away_and_resumes_when_it_is_back(
    private_redis: PrivateRedis,
) -> None:
    first = await database_sync_to_async(named)("before")
    await database_sync_to_async(make_result)(first, RUSSIAN_WIN, LOG[:30])
    early = await _open(f"/ws/leaderboards/{BOARD}/")
    assert (await early.receive_json_from())["type"] == "snapshot"

    private_redis.stop()
    assert _paused(await early.receive_json_from(timeout=WAIT))  # open before: told, not closed
    late = await _open(f"/ws/leaderboards/{BOARD}/")
    snapshot = await late.receive_json_from(timeout=WAIT)  # from PostgreSQL
    assert snapshot["type"] == "snapshot" and [e["player"] for e in snapshot["entries"]] == ["before"]
    assert _paused(await late.receive_json_from(timeout=WAIT))
    during = await database_sync_to_async(named)("during")
    await database_sync_to_async(make_result)(during, RUSSIAN_WIN, LOG)  # stored; its push is lost

    private_redis.start()
    for socket in (early, late):
        resumed = await _until(socket, "snapshot")  # the state now, the missed change included
        assert [e["player"] for e in resumed["entries"]] == ["during", "before"]
    after = await database_sync_to_async(named)("after")
    await database_sync_to_async(make_result)(after, RUSSIAN_WIN, LOG[:60])
    for socket in (early, late):
        change = await _until(socket, "change")
        assert change["entry"]["player"] == "after" and change["entry"]["rank"] == 2
        await socket.disconnect()


async def test_a_room_socket_opens_while_redis_is_away(private_redis: PrivateRedis) -> None:
    host = await database_sync_to_async(named)("roomhost")
    room = await database_sync_to_async(rooms.create_room)(host=host, variant="SD1-S1")
    private_redis.stop()
    socket = await _open(f"/ws/rooms/{room.pk}/", host)
    document = await socket.receive_json_from(timeout=WAIT)
    assert document["type"] == "room" and document["you"]["host"] is True
    assert _paused(await socket.receive_json_from(timeout=WAIT))
    private_redis.start()
    assert (await _until(socket, "room"))["state"] == "lobby"
    guest = await database_sync_to_async(named)("roomguest")
    await database_sync_to_async(rooms.join_room)(room_id=room.pk, player=guest)
    joined = await _until(socket, "room")
    assert [p["player"] for p in joined["players"]] == ["roomhost", "roomguest"]
    await socket.disconnect()


async def test_a_slow_layer_pauses_nobody(private_redis: PrivateRedis, monkeypatch: pytest.MonkeyPatch) -> None:
    """Redis frozen longer than a probe waits, shorter than two silent probes (a busy server, not an
    outage): no socket is told that live updates are paused, and one that opens meanwhile follows its board."""
    monkeypatch.setattr(live, "PROBE_SECONDS", 0.2)
    monkeypatch.setattr(live, "ANSWER_SECONDS", 0.5)
    first = await database_sync_to_async(named)("first")
    await database_sync_to_async(make_result)(first, RUSSIAN_WIN, LOG[:30])
    early = await _open(f"/ws/leaderboards/{BOARD}/")
    assert (await early.receive_json_from())["type"] == "snapshot"

    assert private_redis.process is not None
    private_redis.process.send_signal(signal.SIGSTOP)
    try:
        joining = asyncio.ensure_future(_open(f"/ws/leaderboards/{OTHER_BOARD}/"))
        await asyncio.sleep(0.9)  # one probe goes silent; the next is answered once Redis runs again
    finally:
        private_redis.process.send_signal(signal.SIGCONT)
    late = await joining
    assert (await late.receive_json_from(timeout=WAIT))["type"] == "snapshot"

    second = await database_sync_to_async(named)("second")
    await database_sync_to_async(make_result)(second, SPIDERETTE_WIN, vector_log(SPIDERETTE_WIN))
    change = await late.receive_json_from(timeout=WAIT)  # the join held: the next change arrives, no pause first
    assert change["type"] == "change" and change["entry"]["player"] == "second"
    await database_sync_to_async(make_result)(second, RUSSIAN_WIN, LOG)
    change = await early.receive_json_from(timeout=WAIT)
    assert change["type"] == "change" and change["entry"]["player"] == "second"
    for socket in (early, late):
        await socket.disconnect()
