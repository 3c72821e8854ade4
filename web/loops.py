"""Which event loop a socket's database thread works for, so a push made there goes out from that loop
(a channel layer's connections belong to a loop). A request's thread needs none: async_to_sync does it.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_serving = threading.local()


@contextmanager
def serving(loop: asyncio.AbstractEventLoop) -> Iterator[None]:
    """While inside, this thread works for `loop` (the sockets' database threads)."""
    before = getattr(_serving, "loop", None)
    _serving.loop = loop
    try:
        yield
    finally:
        _serving.loop = before


def serving_loop() -> asyncio.AbstractEventLoop | None:
    """The running event loop this thread works for, if it is a socket's database thread."""
    loop = getattr(_serving, "loop", None)
    return loop if isinstance(loop, asyncio.AbstractEventLoop) and loop.is_running() else None
