"""A game followed everywhere it is open: a change made on one play socket, or over HTTP, is pushed
to the session's other sockets once it is committed (games.sessions.pushes), as the state that
player's view shows; the socket that made the move gets its answer and nothing more, and another
player's socket hears nothing.

On PostgreSQL and Redis (make test) the group is Redis's and the socket's common action is judged
on the event loop (games.sessions.play_loop); on the embedded default, the in-memory layer and the thread path.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections

from games.models import Player
from games.services import apply_action, start_session
from tests.conftest import make_player
from tests.games.play_helpers import follow
from tests.games.test_play_socket import open_socket, token_of
from tests.operations.asgi_client import call
from tests.reliability.procs import PrivateRedis

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("socket_cleanup")]

CODE = "SP1-S4C-AAAAAAD"


async def first_document(socket: WebsocketCommunicator) -> dict[str, Any]:
    hello = await socket.receive_json_from()
    assert hello["type"] == "session" and "pushed" not in hello
    return follow(None, hello)


async def http(path: str, token: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Token {token}", "Accept": "application/json"}
    if body is not None:
        headers["Content-Type"] = "application/json"
    answer = await call(path, method="POST", headers=headers, body=json.dumps(body or {}).encode())
    assert answer["status"] == 200, answer
    document: dict[str, Any] = json.loads(answer["body"])
    return document


def seen_by_player(document: dict[str, Any]) -> dict[str, Any]:
    """What a document shows of the game, without the clock that moves between two reads."""
    return {key: value for key, value in document.items() if key not in {"elapsed_ms", "starts_in_ms"}}


async def test_a_move_on_one_socket_is_pushed_to_the_other_and_to_nobody_else(player: Player) -> None:
    session, _ = await database_sync_to_async(start_session)(player=player, code=CODE)
    other = await database_sync_to_async(make_player)("bystander")
    theirs, _ = await database_sync_to_async(start_session)(player=other, code=CODE)
    token = await token_of(player)
    first, second = await open_socket(session.id, token), await open_socket(session.id, token)
    bystander = await open_socket(theirs.id, await token_of(other))
    here, there = await first_document(first), await first_document(second)
    await first_document(bystander)

    for played in range(1, 4):
        move = next(t for t in here["legal"] if t != "U")
        await first.send_json_to({"type": "action", "action": move, "at": played})
        answer = await first.receive_json_from()
        assert answer["type"] == "delta" and "pushed" not in answer and answer["actions"] == played
        here = follow(here, answer)
        pushed = await second.receive_json_from(timeout=5)
        assert pushed["pushed"] is True and pushed["actions"] == played, pushed
        there = follow(there, pushed)
        assert seen_by_player(there) == seen_by_player(here)

    # The mover has its answer and nothing more; the other player's socket heard nothing.
    assert await first.receive_nothing(timeout=0.5)
    assert await bystander.receive_nothing(timeout=0.1)

    # The follower plays on from what it was pushed: its next action is not refused.
    move = next(t for t in there["legal"] if t != "U")
    await second.send_json_to({"type": "action", "action": move, "at": there["actions"] + 1})
    answer = await second.receive_json_from()
    assert answer["type"] == "delta" and answer["actions"] == 4 and "pushed" not in answer
    here = follow(here, await first.receive_json_from(timeout=5))
    assert here["actions"] == 4
    for socket in (first, second, bystander):
        await socket.disconnect()


async def test_an_action_and_a_finish_over_http_reach_the_open_socket(player: Player) -> None:
    session, _ = await database_sync_to_async(start_session)(player=player, code=CODE)
    token = await token_of(player)
    socket = await open_socket(session.id, token)
    shown = await first_document(socket)

    played = await http(f"/api/sessions/{session.id}/actions", token, {"action": "D", "at": 1})
    pushed = await socket.receive_json_from(timeout=5)
    assert pushed["type"] == "delta" and pushed["pushed"] is True and pushed["base"] == 0
    shown = follow(shown, pushed)
    assert seen_by_player(shown) == seen_by_player(played)

    finished = await http(f"/api/sessions/{session.id}/finish", token)
    pushed = await socket.receive_json_from(timeout=5)
    assert pushed["pushed"] is True and pushed["finished"] is True
    shown = follow(shown, pushed)
    assert shown["result"] == finished["result"] and shown["actions"] == 1
    await socket.disconnect()


async def test_a_change_made_by_the_service_alone_is_pushed_once(player: Player) -> None:
    """A change from a thread that serves no loop (a command, a script in process) is pushed too."""
    session, _ = await database_sync_to_async(start_session)(player=player, code=CODE)
    socket = await open_socket(session.id, await token_of(player))
    await first_document(socket)

    def alone() -> None:
        try:
            apply_action(player=player, session_id=session.id, token="D", at=1)
        finally:
            connections.close_all()  # this thread's own

    await asyncio.to_thread(alone)
    pushed = await socket.receive_json_from(timeout=5)
    assert pushed["pushed"] is True and pushed["actions"] == 1
    assert await socket.receive_nothing(timeout=0.5)
    await socket.disconnect()


async def test_a_racers_table_follows_the_race_played_in_another_tab(player: Player) -> None:
    """A race's game is a session like any other: its second tab follows it, and the room hears of it."""
    from games.rooms import rooms

    def race() -> Any:
        room = rooms.create_room(host=player, variant="SD1-S1")  # a fresh deal: its code secret
        rooms.start_room(room_id=room.pk, player=player)
        return room.members.get(player=player).session

    session = await database_sync_to_async(race)()
    token = await token_of(player)
    first, second = await open_socket(session.id, token), await open_socket(session.id, token)
    here, there = await first_document(first), await first_document(second)
    assert here["code"] is None and here["room"]
    move = next(t for t in here["legal"] if t != "U")
    await first.send_json_to({"type": "action", "action": move, "at": 1})
    here = follow(here, await first.receive_json_from())
    pushed = await second.receive_json_from(timeout=5)
    assert pushed["pushed"] is True
    there = follow(there, pushed)
    assert seen_by_player(there) == seen_by_player(here) and there["code"] is None
    for socket in (first, second):
        await socket.disconnect()


async def test_a_socket_plays_on_while_redis_is_away_and_catches_up_when_it_is_back(
    private_redis: PrivateRedis, player: Player
) -> None:
    session, _ = await database_sync_to_async(start_session)(player=player, code=CODE)
    socket = await open_socket(session.id, await token_of(player))
    shown = await first_document(socket)

    private_redis.stop()
    await socket.send_json_to({"type": "action", "action": "D", "at": 1})  # play goes on
    shown = follow(shown, await socket.receive_json_from(timeout=10))
    assert shown["actions"] == 1
    # Played elsewhere meanwhile: stored, its push lost.
    await database_sync_to_async(apply_action)(player=player, session_id=session.id, token="D", at=2)
    assert await socket.receive_nothing(timeout=1.5)

    private_redis.start()  # live updates resume: the socket reads the game and sends what it missed
    pushed = await socket.receive_json_from(timeout=10)
    assert pushed["pushed"] is True and pushed["actions"] == 2
    shown = follow(shown, pushed)
    await socket.disconnect()


@pytest.mark.postgres
@pytest.mark.redis
async def test_a_lone_socket_tells_nobody_of_its_moves_until_another_opens(player: Player) -> None:
    """A move answered on the event loop is told on the group only once another socket of the
    session is open (games.sessions.pushes.opened): one tab costs no message an action."""
    from tests.operations.test_metrics import value

    def told() -> float:
        return value("league_pushes_total", type="session.changed")

    session, _ = await database_sync_to_async(start_session)(player=player, code=CODE)
    token = await token_of(player)
    first = await open_socket(session.id, token)
    here = await first_document(first)
    for played in (1, 2, 3):
        if played == 2:  # the first went to a database thread (the game not in the live cache yet)
            await asyncio.sleep(0.3)  # its push, and the socket's own "opened", heard
            before = told()
        move = next(t for t in here["legal"] if t != "U")
        await first.send_json_to({"type": "action", "action": move, "at": played})
        here = follow(here, await first.receive_json_from())
    assert told() == before

    # A second tab: it is sent the game as it is, and follows the first's moves from then on.
    second = await open_socket(session.id, token)
    there = await first_document(second)
    assert there["actions"] == 3
    await asyncio.sleep(0.3)  # each has heard of the other
    move = next(t for t in here["legal"] if t != "U")
    await first.send_json_to({"type": "action", "action": move, "at": 4})
    here = follow(here, await first.receive_json_from())
    there = follow(there, await second.receive_json_from(timeout=5))
    assert seen_by_player(there) == seen_by_player(here) and told() > before
    assert await first.receive_nothing(timeout=0.3)
    for socket in (first, second):
        await socket.disconnect()


async def test_a_read_that_lands_while_the_socket_answers_waits_for_the_answer(
    player: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A socket reading its game to follow it (here: live updates resumed) while it answers its own
    message sends nothing of that read: the answer, read after the change, goes alone, and the
    client never gets a pushed state ahead of the answer to its own message."""
    import threading

    from channels.layers import get_channel_layer

    from games import consumers, groups

    session, _ = await database_sync_to_async(start_session)(player=player, code=CODE)
    socket = await open_socket(session.id, await token_of(player))
    await first_document(socket)

    reading, committed, read = threading.Event(), threading.Event(), threading.Event()
    document_for, act = consumers._document_for, consumers._act

    def read_after_the_commit(*args: Any) -> dict[str, Any]:
        reading.set()
        committed.wait(10)
        try:
            return document_for(*args)
        finally:
            read.set()

    def act_then_let_the_read_land(*args: Any) -> Any:
        answer = act(*args)  # the finish is committed and its answer read
        committed.set()
        read.wait(10)  # the follower's read lands before this answer reaches the loop
        return answer

    monkeypatch.setattr(consumers, "_document_for", read_after_the_commit)
    monkeypatch.setattr(consumers, "_act", act_then_let_the_read_land)
    group = groups.session_group(session.id)
    await get_channel_layer().group_send(group, {"type": "live.resumed", "group": group})
    assert await asyncio.to_thread(reading.wait, 10)  # the socket heard it and is reading
    await socket.send_json_to({"type": "finish"})
    answer = await socket.receive_json_from(timeout=10)
    assert "pushed" not in answer and answer["finished"] is True, answer
    assert await socket.receive_nothing(timeout=0.5)
    await socket.disconnect()
