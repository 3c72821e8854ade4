"""WS /ws/leaderboards/{board}/: a snapshot, then changes after commit only, coalesced under a burst."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import transaction

from config.routing import websocket_urlpatterns
from games.models import Player
from games.ranking.boards import parse_board
from leaderboard import selectors
from tests.leaderboard.factories import RUSSIAN_WIN, make_result, named, vector_log
from tests.leaderboard.watchers import apply_message

APP = URLRouter(websocket_urlpatterns)
BOARD = f"code:{RUSSIAN_WIN}"
LOG = vector_log(RUSSIAN_WIN)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("socket_cleanup")]


async def _watch(board: str = BOARD, user: Player | None = None) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(APP, f"/ws/leaderboards/{board}/")
    if user is not None:
        communicator.scope["user"] = user
    connected, _ = await communicator.connect()
    assert connected
    return communicator


def _true_entries() -> list[dict[str, Any]]:
    return selectors.leaderboard(board=parse_board(BOARD), viewer=None)["entries"]


async def test_a_watcher_gets_a_snapshot_then_each_change_after_commit() -> None:
    first = await database_sync_to_async(named)("first")
    await database_sync_to_async(make_result)(first, RUSSIAN_WIN, LOG[:30])
    watcher = await _watch(user=first)
    snapshot = await watcher.receive_json_from()
    assert snapshot["type"] == "snapshot" and snapshot["board"] == BOARD and snapshot["total"] == 1
    assert snapshot["me"]["player"] == "first" and snapshot["next_cursor"] is None
    second = await database_sync_to_async(named)("second")
    result = await database_sync_to_async(make_result)(second, RUSSIAN_WIN, LOG)
    change = await watcher.receive_json_from(timeout=2)
    assert change == {
        "type": "change",
        "board": BOARD,
        "entry": {
            "rank": 1,
            "player": "second",
            "score": 655,
            "moves": 99,
            "won": True,
            "cards_home": 52,
            "elapsed_ms": 60_000,
            "undos": 0,
            "result": result.pk,
        },
    }
    await watcher.disconnect()


async def test_nothing_is_pushed_before_commit_nor_on_rollback() -> None:
    player = await database_sync_to_async(named)("careful")
    watcher = await _watch()
    await watcher.receive_json_from()

    def commit_after_checking_silence() -> None:
        with transaction.atomic():
            make_result(player, RUSSIAN_WIN, LOG[:50], run_on_commit=False)
            assert async_to_sync(watcher.receive_nothing)(0.3), "pushed before the commit"

    def roll_back() -> None:
        with pytest.raises(RuntimeError), transaction.atomic():
            make_result(player, RUSSIAN_WIN, LOG, run_on_commit=False)
            raise RuntimeError("the request failed after the result was written")

    await database_sync_to_async(roll_back)()
    assert await watcher.receive_nothing(0.3), "pushed a result that was rolled back"
    await database_sync_to_async(commit_after_checking_silence)()
    change = await watcher.receive_json_from(timeout=2)
    assert change["entry"]["player"] == "careful" and change["entry"]["cards_home"] < 52
    await watcher.disconnect()


async def test_a_burst_is_coalesced_and_ends_at_the_true_state() -> None:
    watcher = await _watch()
    state = (await watcher.receive_json_from())["entries"]

    def burst() -> None:
        players = [named(f"b{i:02d}") for i in range(25)]
        for i, player in enumerate(players):  # players arrive, then some improve
            make_result(player, RUSSIAN_WIN, LOG[: 10 + 3 * i])
        for player in players[:10]:
            make_result(player, RUSSIAN_WIN, LOG[:95])

    writes = asyncio.ensure_future(database_sync_to_async(burst)())
    received: list[tuple[float, dict[str, Any]]] = []
    while True:  # read while the burst is written, so that arrival times are send times
        if await watcher.receive_nothing(0.03):
            if writes.done() and await watcher.receive_nothing(0.6):
                break
            continue
        received.append((time.monotonic(), await watcher.receive_json_from()))
    await writes
    for _, message in received:
        state = apply_message(state, message)
    assert state == await database_sync_to_async(_true_entries)()
    kinds = [message["type"] for _, message in received]
    assert "snapshot" in kinds and len(received) < 35 / 3, kinds
    gaps = [later - earlier for (earlier, _), (later, _) in zip(received, received[1:], strict=False)]
    assert all(gap > 0.2 for gap in gaps), gaps  # a few updates per second at most
    await watcher.disconnect()


async def test_a_watcher_may_send_nothing() -> None:
    watcher = await _watch()
    await watcher.receive_json_from()
    await watcher.send_json_to({"type": "hello"})
    assert (await watcher.receive_json_from())["type"] == "error"
    await watcher.send_to(text_data="x" * (settings.WS_MAX_FRAME_BYTES + 1))
    assert (await watcher.receive_output())["type"] == "websocket.close"


async def test_a_flooding_watcher_is_closed() -> None:
    watcher = await _watch()
    await watcher.receive_json_from()
    for _ in range(settings.RATE_WS_MESSAGES + 1):
        await watcher.send_to(text_data="{}")
    while (output := await watcher.receive_output())["type"] != "websocket.close":
        assert output["type"] == "websocket.send"


async def test_a_bad_board_is_refused_and_closed() -> None:
    watcher = await _watch("code:nonsense")
    refusal = await watcher.receive_json_from()
    assert refusal["type"] == "error" and refusal["status"] == 400 and "game code" in refusal["error"]["message"]
    assert (await watcher.receive_output())["code"] == 4400


async def test_anonymous_watchers_sharing_a_snapshot_read_both_end_at_the_true_state() -> None:
    watchers = [await _watch(), await _watch()]
    states = [(await w.receive_json_from())["entries"] for w in watchers]

    def burst() -> None:
        for i in range(6):  # inside one coalescing window: a change, then a shared snapshot
            make_result(named(f"s{i}"), RUSSIAN_WIN, LOG[: 20 + 10 * i])

    await database_sync_to_async(burst)()
    for n, watcher in enumerate(watchers):
        while not await watcher.receive_nothing(0.6):
            states[n] = apply_message(states[n], await watcher.receive_json_from())
        await watcher.disconnect()
    truth = await database_sync_to_async(_true_entries)()
    assert states == [truth, truth] and len(truth) == 6
