"""What every consumer shares: JSON frames, the size cap, flood control, the error shape, the language."""

from __future__ import annotations

import asyncio
import contextvars
import select
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cached_property, partial
from typing import Any, TypeVar

import orjson
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import connections
from django.utils import translation

from web.errors import ServiceError, error_body
from web.language import in_use, language_of
from web.loops import serving
from web.sockets.close_codes import CLOSE_TOO_LARGE, CLOSE_TOO_MANY

R = TypeVar("R")

# Channels runs every consumer's database work of a process on one shared thread, one call after
# another; sockets here use a small pool of threads instead, so one process overlaps its database
# waits. Each of these threads keeps its database connection between calls (a bounded number,
# WS_DB_THREADS per process) and drops it only when it broke or was left inside a transaction.
_database_threads = ThreadPoolExecutor(max_workers=settings.WS_DB_THREADS, thread_name_prefix="ws-db")
_queue_lock = threading.Lock()
_queued = 0  # calls handed to the threads that none has begun yet


def queued_calls() -> int:
    """Socket database calls waiting for one of the sockets' threads (a metric)."""
    return _queued


def _count(change: int) -> None:
    global _queued
    with _queue_lock:
        _queued += change


def _server_hung_up(raw: Any) -> bool:
    """Whether the server spoke on an idle kept connection (in practice: it is shutting down), no round trip."""
    try:
        readable, _, _ = select.select([raw.fileno()], [], [], 0)
    except (OSError, ValueError):
        return True
    return bool(readable) or bool(raw.closed or raw.broken)


def _run_with_connection(
    loop: asyncio.AbstractEventLoop, language: str | None, func: Callable[..., R], *args: Any
) -> R:
    _count(-1)
    for connection in connections.all(initialized_only=True):
        raw = connection.connection
        if raw is not None and connection.vendor == "postgresql" and _server_hung_up(raw):
            connection.close()
    try:
        with translation.override(language), serving(loop):  # what it pushes goes out from the loop
            return func(*args)
    finally:
        for connection in connections.all(initialized_only=True):
            if connection.connection is None:
                continue
            if connection.in_atomic_block or (connection.errors_occurred and not connection.is_usable()):
                connection.close()


def in_database_thread(func: Callable[..., R]) -> Callable[..., Awaitable[R]]:
    """`func` as a coroutine run on one of the sockets' database threads (positional arguments)."""

    async def run(*args: Any) -> R:
        loop = asyncio.get_running_loop()
        # In the socket's context (its request id reaches the log lines written there, see
        # operations.requests) and its language (see JsonConsumer.dispatch): refusals are worded there.
        language = translation.get_language()
        call = partial(contextvars.copy_context().run, _run_with_connection, loop, language, func, *args)
        _count(+1)
        return await loop.run_in_executor(_database_threads, call)

    return run


def release_database_threads() -> None:
    """Close the connections the sockets' threads keep (at shutdown, and after a test session)."""
    parties = settings.WS_DB_THREADS
    barrier = threading.Barrier(parties)

    def close_own() -> None:
        barrier.wait(timeout=10)  # one task per thread: each closes its own connections
        connections.close_all()

    for future in [_database_threads.submit(close_own) for _ in range(parties)]:
        future.result(timeout=20)


def let_go_of_headers(scope: dict[str, Any]) -> None:
    """Empty the handshake's headers (shared by every copy of the scope), all read by now: nothing the
    client sent (cookies, its token) is kept as long as the socket is open."""
    headers = scope.get("headers")
    if type(headers) is list:
        headers.clear()


def encode_frame(payload: dict[str, Any]) -> str:
    """A socket frame's text: compact JSON (orjson, faster than json: bench/README.md)."""
    return orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS).decode()


class JsonConsumer(AsyncWebsocketConsumer):
    """Decodes frames, closes a socket that sends frames over the cap or floods."""

    _window_start = 0.0
    _window_count = 0
    _in_its_language: bool | None = None  # whether its language is the one in use (dispatch)

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels first closes old connections on its shared database thread before every message;
        # our database calls run in `in_database_thread`, which does that itself, so skip the hop.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        if self._in_its_language is None:
            # The socket's task keeps the language it started in from one message to the next
            # (nothing activates one for good): asked once, not on every message.
            self._in_its_language = in_use(self.language)
        if self._in_its_language:
            await handler(message)
            return
        with translation.override(self.language):  # every refusal in the player's language
            await handler(message)

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        await super().websocket_connect(message)
        let_go_of_headers(self.scope)  # its language was read before (dispatch)

    @cached_property
    def language(self) -> str:
        """The language this socket's player reads; every message is handled in it (``dispatch``)."""
        return language_of(self.scope)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        size = len(text_data.encode()) if text_data is not None else len(bytes_data or b"")
        if size > settings.WS_MAX_FRAME_BYTES:
            await self.close(code=CLOSE_TOO_LARGE)
            return
        if self._flooding():
            await self.close(code=CLOSE_TOO_MANY)
            return
        try:
            message = orjson.loads(text_data if text_data is not None else (bytes_data or b""))
        except ValueError:  # also bad UTF-8 and nesting too deep: orjson raises JSONDecodeError for both
            await self.send_error(400, 'Messages are JSON objects with a "type".')
            return
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await self.send_error(400, 'Messages are JSON objects with a "type".')
            return
        await self.receive_message(message)

    def _flooding(self) -> bool:
        now = time.monotonic()
        if now - self._window_start >= 1.0:
            self._window_start, self._window_count = now, 0
        self._window_count += 1
        return self._window_count > settings.RATE_WS_MESSAGES

    async def receive_message(self, message: dict[str, Any]) -> None:
        await self.send_error(400, "This socket accepts no messages.")

    async def send_json(self, payload: dict[str, Any]) -> None:
        await self.send(text_data=encode_frame(payload))

    async def send_error(self, status: int, message: str, **detail: Any) -> None:
        await self.send_json({"type": "error", "status": status, **error_body(message, **detail)})

    async def send_refusal(self, error: ServiceError) -> None:
        payload: dict[str, Any] = {"type": "error", "status": error.status, **error.body()}
        if error.retry_after is not None:
            payload["retry_after"] = error.retry_after
        await self.send_json(payload)
