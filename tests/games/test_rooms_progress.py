"""A race room's progress is pushed on a throttle, with no row lock per action: many actions, few
pushes, the last state always sent, and a finish sent at once."""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest
from asgiref.sync import sync_to_async
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext

from games import groups
from games import services as games
from games.models import GameSession, Room
from games.rooms import progress as room_progress
from games.rooms import rooms
from games.rooms.progress import Throttle
from tests.leaderboard.factories import legal_walk, named


class Timers:
    """Stands in for the throttle's timer thread: the due pushes run when the test says."""

    def __init__(self) -> None:
        self.due: list[tuple[float, Callable[[], None], list[bool]]] = []

    def later(self, delay: float, call: Callable[[], None]) -> Any:
        cancelled = [False]
        self.due.append((delay, call, cancelled))

        class Handle:
            def cancel(self) -> None:
                cancelled[0] = True

        return Handle()

    def fire(self) -> int:
        fired = 0
        while self.due:
            _, call, cancelled = self.due.pop(0)
            if not cancelled[0]:
                call()
                fired += 1
        return fired


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_first_change_goes_at_once_later_ones_once_at_the_windows_end() -> None:
    sent: list[uuid.UUID] = []
    clock, timers = Clock(), Timers()
    throttle = Throttle(sent.append, interval=0.2, clock=clock, later=timers.later)
    room, other = uuid.uuid4(), uuid.uuid4()
    for _ in range(10):
        throttle.changed(room)
        clock.now += 0.01
    throttle.changed(other)  # each room has a window of its own
    assert sent == [room, other] and len(timers.due) == 1
    assert timers.due[0][0] == pytest.approx(0.19)  # set at the second change: due as the window ends
    assert timers.fire() == 1 and sent == [room, other, room]  # the trailing edge: the last state
    clock.now += 0.01
    throttle.changed(room)  # a window began at the trailing push: this one waits for its end
    assert sent == [room, other, room] and len(timers.due) == 1
    clock.now += 0.2
    timers.fire()
    clock.now += 0.2
    throttle.changed(room)  # quiet for a whole window since the last push: at once again
    assert sent == [room, other, room, room, room]


def test_a_push_at_once_sends_now_and_makes_the_pending_one_needless() -> None:
    sent: list[uuid.UUID] = []
    clock, timers = Clock(), Timers()
    throttle = Throttle(sent.append, interval=0.2, clock=clock, later=timers.later)
    room = uuid.uuid4()
    throttle.changed(room)
    throttle.changed(room)
    throttle.now(room)  # a finish: it reads the state after every change before it
    assert sent == [room, room] and timers.fire() == 0


def test_a_failed_push_loses_the_push_only() -> None:
    def broken(room_id: uuid.UUID) -> None:
        raise RuntimeError("the layer is down")

    Throttle(broken, interval=0.2).now(uuid.uuid4())  # logged, not raised: the write behind it stands


def _race(count: int) -> tuple[Room, list[Any], list[str]]:
    host, rival = named(), named()
    room = rooms.create_room(host=host, variant="SD1-S1")
    rooms.join_room(room_id=room.pk, player=rival)
    rooms.start_room(room_id=room.pk, player=host)
    members = [host, rival]
    return room, members, legal_walk(room.code, count)


@pytest.mark.django_db
def test_many_actions_in_a_room_make_few_pushes_the_last_state_arrives_and_a_finish_goes_at_once(
    monkeypatch: pytest.MonkeyPatch, unlimited_actions: None, django_capture_on_commit_callbacks: Any
) -> None:
    pushed: list[dict[str, Any]] = []

    async def send(group: str, message: dict[str, Any]) -> None:
        pushed.append(message["room"])

    monkeypatch.setattr(groups, "send", send)
    timers = Timers()
    clock = Clock()  # the game below is played inside one window
    monkeypatch.setattr(room_progress, "pushes", Throttle(room_progress._push, clock=clock, later=timers.later))
    room, (host, _), tokens = _race(13)
    assert len(tokens) >= 5
    *window, last = tokens
    session = GameSession.objects.get(player=host)
    pushed.clear()
    for token in window:
        games.apply_action(player=host, session_id=session.id, token=token)
    assert len(pushed) == 1 and len(timers.due) == 1  # one push at once, one due at the window's end
    timers.fire()
    assert len(pushed) == 2
    mine = next(row for row in pushed[-1]["players"] if row["moves"])
    assert mine["moves"] == len(window) and not mine["finished"]  # the last state arrived

    games.apply_action(player=host, session_id=session.id, token=last)  # due at the next window's end
    with django_capture_on_commit_callbacks(execute=True):
        games.finish_session(player=host, session_id=session.id)
    assert len(pushed) == 3 and timers.fire() == 0  # the finish went at once, and carried that action too
    finished = next(row for row in pushed[-1]["players"] if row["finished"])
    assert finished["moves"] == len(tokens)


@pytest.mark.django_db
def test_a_race_action_takes_no_row_lock(monkeypatch: pytest.MonkeyPatch, unlimited_actions: None) -> None:
    pushed: list[str] = []

    async def send(group: str, message: dict[str, Any]) -> None:
        pushed.append(group)

    monkeypatch.setattr(groups, "send", send)
    # No throttle at all: every action pushes the table from the request's own thread, and still locks nothing.
    monkeypatch.setattr(room_progress, "pushes", Throttle(room_progress._push, interval=0))
    room, (host, _), tokens = _race(4)
    session = GameSession.objects.get(player=host)
    with CaptureQueriesContext(connection) as during:
        for token in tokens:
            games.apply_action(player=host, session_id=session.id, token=token)
    statements = [query["sql"] for query in during.captured_queries]
    assert len(pushed) == len(tokens) and any(f'FROM "{Room._meta.db_table}"' in sql for sql in statements)
    assert not [sql for sql in statements if "FOR UPDATE" in sql.upper()]
    assert GameSession.objects.get(pk=session.pk).action_count == len(tokens)


@pytest.mark.django_db(transaction=True)
async def test_a_push_due_on_the_loop_lets_go_of_its_connection_while_a_test_awaits_a_socket() -> None:
    """A push due at a window's end runs on a thread of the server's loop. While a test awaits a
    socket, channels.testing's communicator patches channels.db.close_old_connections to a no-op for
    the whole process; the push must still give its connection back, or it stays checked out of the
    pool (and the test database in use) until the collector finds it."""
    ran = threading.Event()
    used: list[Any] = []

    def push() -> None:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT 1")
        used.append(connections["default"])
        ran.set()

    with mock.patch("channels.db.close_old_connections", lambda: None):  # as ApplicationCommunicator does
        await sync_to_async(room_progress._later)(0, push)  # from a sync thread of this loop: on the loop
        for _ in range(200):
            if ran.is_set() and not room_progress._OnLoop._running:
                break
            await asyncio.sleep(0.01)
    assert ran.is_set() and not room_progress._OnLoop._running
    (wrapper,) = used
    try:
        assert wrapper.connection is None, "the push kept its connection"
    finally:
        if wrapper.connection is not None:  # the failing run leaves no session on the test database
            wrapper.inc_thread_sharing()
            await asyncio.to_thread(wrapper.close)
