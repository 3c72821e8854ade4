"""What a worker has in flight, and its drain before it stops (docs/operations.md, "Stopping a worker")."""

from __future__ import annotations

import asyncio
from typing import Protocol

from operations import metrics
from web.sockets.close_codes import CLOSE_RESTARTING as CLOSE_RESTARTING  # where the tests and the layer look


class Drainable(Protocol):
    async def restart(self) -> None:
        """Close with CLOSE_RESTARTING once the message in hand (if any) is answered."""


class InFlight:
    def __init__(self) -> None:
        self.requests = 0
        self.sockets: set[Drainable] = set()
        self.draining = False


state = InFlight()


async def drain(*, seconds: float) -> tuple[int, int]:
    """Close every socket once idle and wait at most `seconds` for all to end: the (requests, sockets) left."""
    state.draining = True
    metrics.DRAINING.set(1)
    for socket in list(state.sockets):
        await socket.restart()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while (state.requests or state.sockets) and loop.time() < deadline:
        await asyncio.sleep(0.02)
    return state.requests, len(state.sockets)
