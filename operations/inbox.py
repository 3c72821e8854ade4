"""A connection's input queue under daphne: what its asyncio.Queue did, in one small object.

daphne puts what a client sends into the connection's queue (`put_nowait`) and the application
awaits it (`get`, its ASGI receive). daphne's queue is an asyncio.Queue: three deques and an Event
with a fourth, held as long as the socket is open (bench/README.md, memory per play socket), for
what no one here uses (a bound, putters that wait, join). An Inbox keeps a list and the futures of its getters,
and hands items out as asyncio.Queue does: in order, one getter woken per item, and an item whose
getter was cancelled left for the next.
"""

from __future__ import annotations

import asyncio
from typing import Any

Message = dict[str, Any]


class Inbox:
    __slots__ = ("_items", "_taken", "_waiters")

    def __init__(self) -> None:
        self._items: list[Message] = []
        self._taken = 0  # items before this index were handed out
        self._waiters: list[asyncio.Future[None]] = []

    def put_nowait(self, item: Message) -> None:
        self._items.append(item)
        self._wake_next()

    async def get(self) -> Message:
        while self._taken == len(self._items):
            waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            try:
                await waiter
            except BaseException:
                waiter.cancel()
                if waiter in self._waiters:
                    self._waiters.remove(waiter)
                if self._taken < len(self._items) and not waiter.cancelled():
                    self._wake_next()  # woken for an item it will not take: the next getter takes it
                raise
        item = self._items[self._taken]
        self._taken += 1
        if self._taken * 2 >= len(self._items):  # half or more handed out: let go of them (amortised O(1))
            del self._items[: self._taken]
            self._taken = 0
        return item

    def _wake_next(self) -> None:
        while self._waiters:
            waiter = self._waiters.pop(0)
            if not waiter.done():
                waiter.set_result(None)
                return
