"""What an event loop keeps for itself: its own database connections and Redis client, one each per
running loop (the server runs one loop per process; a test makes one per test).

Each kept thing can `close()` (awaited on its own loop: at shutdown, after a test) and `abandon()`
(hang up without the loop, which has closed). Entries are held strongly: a loop that closed
without `close_this_loops` keeps its things until the next loop's first use (or a test session's
end) abandons them, so none is left to the collector with a socket open.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Generic, Protocol, TypeVar


class Kept(Protocol):
    async def close(self) -> None: ...

    def abandon(self) -> None: ...


K = TypeVar("K", bound=Kept)


class PerLoop(Generic[K]):
    """One `K` per running event loop, made by `make` on first use."""

    def __init__(self, make: Callable[[], K]) -> None:
        self._make = make
        self._by_loop: dict[asyncio.AbstractEventLoop, K] = {}
        _registries.append(self)  # type: ignore[arg-type]  # any K is a Kept

    def get(self) -> K:
        loop = asyncio.get_running_loop()
        found = self._by_loop.get(loop)
        if found is None:
            abandon_closed_loops()
            found = self._by_loop[loop] = self._make()
        return found

    def _abandon_closed(self) -> None:
        for loop, left in list(self._by_loop.items()):
            if loop.is_closed():
                del self._by_loop[loop]
                left.abandon()

    async def _close_this_loops(self) -> None:
        found = self._by_loop.pop(asyncio.get_running_loop(), None)
        if found is not None:
            await found.close()


_registries: list[PerLoop[Kept]] = []


def abandon_closed_loops() -> None:
    """Hang up what loops that closed without `close_this_loops` kept (they can no longer run its
    coroutines): no round trip."""
    for registry in _registries:
        registry._abandon_closed()


async def close_this_loops() -> None:
    """Close what the running loop keeps (at shutdown, and after a test)."""
    for registry in _registries:
        await registry._close_this_loops()
