"""Which event loop a thread is working for, so that what it sends goes out from that loop.

A request's thread (Django's path, web/http.py, through asgiref's sync_to_async) and a play
socket's database thread (web.sockets.consumer.in_database_thread) each work for the server's
event loop. A channel layer's connections and queues belong to a loop: a push made on such a
thread is handed to its loop rather than sent from a new one.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from asgiref.sync import SyncToAsync

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
    """The running event loop this thread works for, if any: a socket's, or the request's (asgiref's
    own threadlocal: async_to_sync finds the loop the same way)."""
    loop = getattr(_serving, "loop", None)
    if loop is None and getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) == os.getpid():
        loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    return loop if isinstance(loop, asyncio.AbstractEventLoop) and loop.is_running() else None
