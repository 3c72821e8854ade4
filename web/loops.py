"""Which event loop a play socket's database thread is working for, so that what it sends goes out
from that loop.

A play socket's database thread (web.sockets.consumer.in_database_thread) works for the server's
event loop. A channel layer's connections and queues belong to a loop: a push made on such a
thread is handed to its loop rather than sent from a new one. A request's thread (asgiref's
sync_to_async) needs nothing of this: asgiref's own async_to_sync sends from the request's loop.
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
