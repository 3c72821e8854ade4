"""A change fanned out to a board's watchers: one frame for all of them, and a watcher whose client
stops reading neither holds up the others nor is left stale (it gets a `resync` snapshot).

The sockets here are in process (Channels' communicator): a slow client is one whose outlet says
that bytes are waiting for it, as daphne's transport would (tests/reliability/test_push_wire.py
runs the real wire)."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from config.routing import websocket_urlpatterns
from games.boards import parse_board
from leaderboard import consumers, selectors
from tests.leaderboard.factories import RUSSIAN_WIN, make_result, named, vector_log
from tests.leaderboard.watchers import apply_message
from web.sockets.frames import BEHIND_BYTES, Outlet

APP = URLRouter(websocket_urlpatterns)
BOARD = f"code:{RUSSIAN_WIN}"
LOG = vector_log(RUSSIAN_WIN)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("socket_cleanup")]


class SlowableOutlet(Outlet):
    """An outlet whose unsent bytes the test sets (a client that stopped reading)."""

    made: list[SlowableOutlet] = []
    __slots__ = ("waiting",)

    def __init__(self, send: Any) -> None:
        super().__init__(send)
        self.waiting = 0
        SlowableOutlet.made.append(self)

    def backlog(self) -> int:
        return self.waiting


@pytest.fixture
def outlets(monkeypatch: pytest.MonkeyPatch) -> list[SlowableOutlet]:
    SlowableOutlet.made = []
    monkeypatch.setattr(consumers, "Outlet", SlowableOutlet)
    return SlowableOutlet.made


async def _watchers(count: int) -> list[WebsocketCommunicator]:
    opened = []
    for _ in range(count):
        watcher = WebsocketCommunicator(APP, f"/ws/leaderboards/{BOARD}/")
        connected, _ = await watcher.connect()
        assert connected
        assert (await watcher.receive_json_from())["type"] == "snapshot"
        opened.append(watcher)
    return opened


def _true_entries() -> list[dict[str, Any]]:
    return selectors.leaderboard(board=parse_board(BOARD), viewer=None)["entries"]


async def test_every_watcher_hears_a_change_in_the_one_frame_encoded_for_all() -> None:
    watchers = await _watchers(6)
    await database_sync_to_async(make_result)(await database_sync_to_async(named)("solo"), RUSSIAN_WIN, LOG)
    frames = [await watcher.receive_output(timeout=2) for watcher in watchers]
    texts = [frame["text"] for frame in frames]
    assert all(frame["type"] == "websocket.send" for frame in frames)
    assert '"type":"change"' in texts[0] and '"player":"solo"' in texts[0]
    assert len({id(text) for text in texts}) == 1, "each watcher's frame was encoded again"
    for watcher in watchers:
        assert await watcher.receive_nothing(0.3)
        await watcher.disconnect()


async def test_a_watcher_that_stops_reading_is_skipped_then_resynced_and_the_others_are_not_held_up(
    outlets: list[SlowableOutlet],
) -> None:
    slow, *others = await _watchers(3)
    states: list[list[dict[str, Any]]] = [[] for _ in others]  # the board is empty
    outlets[0].waiting = BEHIND_BYTES + 1  # the slow client's bytes pile up in the server

    for name, moves in (("early", LOG[:40]), ("later", LOG)):
        player = await database_sync_to_async(named)(name)
        await database_sync_to_async(make_result)(player, RUSSIAN_WIN, moves)
        for n, watcher in enumerate(others):
            message = await watcher.receive_json_from(timeout=2)
            assert message["type"] in ("change", "snapshot")
            states[n] = apply_message(states[n], message)
    assert await slow.receive_nothing(0.5), "a watcher too far behind was sent more"

    truth = await database_sync_to_async(_true_entries)()
    assert [e["player"] for e in truth] == ["later", "early"]
    for n, watcher in enumerate(others):
        while not await watcher.receive_nothing(0.4):  # a coalesced snapshot may still come
            states[n] = apply_message(states[n], await watcher.receive_json_from())
    assert states == [truth, truth]

    outlets[0].waiting = 0  # it reads again
    resync = await slow.receive_json_from(timeout=3)
    assert resync["type"] == "snapshot" and resync["resync"] is True and resync["entries"] == truth

    third = await database_sync_to_async(named)("third")
    await database_sync_to_async(make_result)(third, RUSSIAN_WIN, LOG[:20])
    change = await slow.receive_json_from(timeout=3)  # back to changes after its resync
    assert change["type"] == "change" and change["entry"]["player"] == "third"
    for watcher in (slow, *others):
        await watcher.disconnect()
