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

import logging
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from django.db import connections

log = logging.getLogger(__name__)

INTERVAL = 0.2  # seconds between two progress pushes of one room from one process
_KEPT = 1024  # rooms remembered before idle ones are dropped


class Pending(Protocol):
    def cancel(self) -> None: ...


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
class _Room:
    last: float = float("-inf")  # when the last push of this room started
    pending: Pending | None = None  # the push due at the window's end
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
        later: Callable[[float, Callable[[], None]], Pending] = _timer,
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
                room.pending = self._later(wait, lambda: self._trailing(room_id, room))
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

    def _trailing(self, room_id: uuid.UUID, room: _Room) -> None:
        with self._guard:
            if room.pending is None:
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
    from leaderboard.rooms import push_room  # it imports this module

    push_room(room_id)


pushes = Throttle(_push)
