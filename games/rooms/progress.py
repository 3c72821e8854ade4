"""A race room's table pushed on a throttle: the room's sockets hear of its members' actions at
most once per `INTERVAL` from each process, always with the last state, and of a finish at once.

Racers act several times a second each; one push per action would read and send the whole table
each time. Within a window the first action of a room is pushed at once and the later ones by one
push at the window's end (the trailing edge), which reads the table as it is then. A finish, a
join, the start and the end are pushed at once (`now`). Pushes of one room are sent one at a
time, each reading the table when its turn comes, so a later push never carries an older table.
No row lock is taken: a push only reads.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import os
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from asgiref.sync import SyncToAsync, sync_to_async
from django.db import close_old_connections, connections

log = logging.getLogger(__name__)

INTERVAL = 0.2  # seconds between two progress pushes of one room from one process
_KEPT = 1024  # rooms remembered before idle ones are dropped


class Pending(Protocol):
    def cancel(self) -> None: ...


def _later(delay: float, call: Callable[[], None]) -> Pending:
    """Run `call` after `delay`: on the server's event loop when the caller runs in one of its
    sync_to_async threads, else on a thread of its own."""
    loop = _server_loop()
    return _OnLoop(loop, delay, call) if loop is not None else _timer(delay, call)


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop that runs this sync_to_async thread's caller, if any (asgiref's own
    threadlocal: async_to_sync finds the loop the same way). The in-memory channel layer's queues
    belong to that loop: a push sent from another loop might not wake its sockets."""
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    return loop if isinstance(loop, asyncio.AbstractEventLoop) and loop.is_running() else None


class _OnLoop:
    """`call` run after `delay` in a sync thread of `loop` (so its sends go out on that loop)."""

    _running: set[asyncio.Future[None]] = set()  # the tasks are kept until done

    def __init__(self, loop: asyncio.AbstractEventLoop, delay: float, call: Callable[[], None]) -> None:
        self.cancelled = False

        def released() -> None:
            # What channels.db.database_sync_to_async does around a call, with Django's own function:
            # channels.testing's communicator patches channels.db's to a no-op for the whole process
            # while a test awaits a socket, and this thread's pooled connection would stay checked
            # out (the test database in use) until collected.
            close_old_connections()
            try:
                call()
            finally:
                close_old_connections()

        def due() -> None:
            if not self.cancelled:
                # On a thread of the loop's pool: the caller's thread may be busy by then.
                task = asyncio.ensure_future(sync_to_async(released, thread_sensitive=False)(), loop=loop)
                self._running.add(task)
                task.add_done_callback(self._running.discard)

        # In a context of its own, not the caller's (whose sync thread asgiref would see as nested).
        loop.call_soon_threadsafe(loop.call_later, delay, due, context=contextvars.Context())

    def cancel(self) -> None:
        self.cancelled = True


def _timer(delay: float, call: Callable[[], None]) -> Pending:
    """Run `call` after `delay` on a thread of its own, which lets go of its connections after."""

    def run() -> None:
        try:
            call()
        finally:
            connections.close_all()  # this thread's own: a timer's thread is never reused

    timer = threading.Timer(delay, run)
    timer.daemon = True
    timer.start()
    return timer


@dataclass
class _Due:
    """A push due at a window's end (only the room's current one is sent)."""

    handle: Pending | None = None

    def cancel(self) -> None:
        if self.handle is not None:
            self.handle.cancel()


@dataclass
class _Room:
    last: float = float("-inf")  # when the last push of this room started
    pending: _Due | None = None  # the push due at the window's end
    sending: threading.Lock = field(default_factory=threading.Lock)


class Throttle:
    """Calls `send(room_id)` for each room: at once on its first change in `interval`, once at the
    window's end for any later ones, and at once on `now`."""

    def __init__(
        self,
        send: Callable[[uuid.UUID], None],
        *,
        interval: float = INTERVAL,
        clock: Callable[[], float] = time.monotonic,
        later: Callable[[float, Callable[[], None]], Pending] = _later,
    ) -> None:
        self._send_room = send
        self.interval = interval
        self._clock = clock
        self._later = later
        self._rooms: dict[uuid.UUID, _Room] = {}
        self._guard = threading.Lock()

    def changed(self, room_id: uuid.UUID) -> None:
        """A member's action was stored: push now, or once at the end of the current window."""
        with self._guard:
            room = self._room(room_id)
            if room.pending is not None:
                return  # the push at the window's end reads this change too
            wait = room.last + self.interval - self._clock()
            if wait > 0:
                room.pending = due = _Due()
                due.handle = self._later(wait, lambda: self._trailing(room_id, room, due))
                return
            room.last = self._clock()
        self._send(room_id, room)

    def now(self, room_id: uuid.UUID) -> None:
        """Push at once (a finish, a join, the start, the end): a pending push has nothing to add."""
        with self._guard:
            room = self._room(room_id)
            if room.pending is not None:
                room.pending.cancel()
                room.pending = None
            room.last = self._clock()
        self._send(room_id, room)

    def clear(self) -> None:
        """Forget every room, and cancel the pushes still due (the tests start each from nothing)."""
        with self._guard:
            for room in self._rooms.values():
                if room.pending is not None:
                    room.pending.cancel()
            self._rooms.clear()

    def _trailing(self, room_id: uuid.UUID, room: _Room, due: _Due) -> None:
        with self._guard:
            if room.pending is not due:
                return  # pushed at once meanwhile, or cleared
            room.pending = None
            room.last = self._clock()
        self._send(room_id, room)

    def _room(self, room_id: uuid.UUID) -> _Room:
        room = self._rooms.get(room_id)
        if room is None:
            if len(self._rooms) >= _KEPT:
                idle = self._clock() - self.interval
                for key in [key for key, kept in self._rooms.items() if kept.pending is None and kept.last < idle]:
                    del self._rooms[key]
            room = self._rooms[room_id] = _Room()
        return room

    def _send(self, room_id: uuid.UUID, room: _Room) -> None:
        # A push happens after its write committed: its failure loses the push, never the write.
        with room.sending:
            try:
                self._send_room(room_id)
            except Exception:  # noqa: BLE001 - watchers resync on reconnect
                log.exception("could not push the table of room %s", room_id)


def _push(room_id: uuid.UUID) -> None:
    from games.rooms.rooms import push_room  # it imports this module

    push_room(room_id)


pushes = Throttle(_push)
