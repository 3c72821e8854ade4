"""Django's ASGI handler, serving each HTTP request with one trip to a thread.

Every view and middleware here is synchronous. Django's own ASGI handler runs
the middleware chain in async mode, and a chain of synchronous middleware
whose innermost part (the view lookup) is asynchronous costs four trips
between the event loop and a thread per request: the request_started signal,
into the middleware, back out to the loop to find the view, into a thread
again for the view, and once more for request_finished. Each trip is a
thread wake-up and a GIL hand-over, and on a loaded machine any of them can
wait for a core: together they were a quarter of a leaderboard read.

This handler loads the chain in sync mode, as WSGI servers do, and runs
request_started, the whole chain and (for a response already in memory)
request_finished in one call on the request's thread, one of a few kept
for reuse; the event loop reads the body (counting it against MAX_BODY_BYTES as it comes,
see read_body) and writes the response. Behaviour is Django's: the same
middleware, signals, error responses and streaming (a streaming response,
e.g. a static file, is closed after it is sent, as before). What it no
longer does is cancel a view when the client goes away: a synchronous view
runs to its end in its thread either way, and daphne drops the reply to a
closed connection.

A request for one of the lean views (web/lean.py) that it serves itself runs through a shorter
chain of the same middleware (web/lean_chain.py); its path is resolved once, before either chain.
Before any of that, a request that a lean view's handler can answer on the event loop itself is
answered there, with no thread at all (web/loop_http.py).
"""

from __future__ import annotations

import gc
import tempfile
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.conf import settings
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers import asgi, base
from django.http import FileResponse, HttpResponseBase, JsonResponse
from django.urls import set_script_prefix
from django.utils import translation

from web import loop_http
from web.errors import error_body
from web.language import language_of
from web.lean_chain import LeanHandler, ResolvedHandler
from web.middleware import too_large_message

# Django's handler starts a thread per request (asgiref starts one more to join it at the end).
# Here each request borrows a one-thread executor from this list and gives it back when done: its
# thread-sensitive calls (the request, the close of a streaming response) all run on that one
# thread, as with Django's, and the threads are reused. As many run at once as requests do.
_idle: deque[ThreadPoolExecutor] = deque()
MAX_IDLE_THREADS = 32

# The first requests build what Django, DRF and psycopg cache for the process (after config/asgi.py
# froze start-up's): frozen too once warm, full collections stay short (bench/README.md).
WARM_AFTER_REQUESTS = 200
_served = 0


def _count_served() -> None:
    global _served
    _served += 1
    if _served == WARM_AFTER_REQUESTS:
        gc.collect()  # what is garbage now would never be freed once frozen
        gc.freeze()


class BodyTooLarge(Exception):
    """The body went over MAX_BODY_BYTES while it was read."""


def with_length(scope: dict[str, Any], body_file: Any) -> dict[str, Any]:
    """The scope with a Content-Length for a body that came without one (chunked): Django and DRF
    read a body only as far as Content-Length says, so a chunked body was read as empty."""
    headers = scope.get("headers") or []
    if any(name.lower() == b"content-length" for name, _ in headers):
        return scope
    size = body_file.seek(0, 2)
    body_file.seek(0)
    if not size:
        return scope
    return {**scope, "headers": [*headers, (b"content-length", str(size).encode())]}


class ASGIHandler(ResolvedHandler, asgi.ASGIHandler):
    def __init__(self) -> None:
        base.BaseHandler.__init__(self)
        self.load_middleware(is_async=False)
        self.lean = LeanHandler()  # the lean views' shorter chain (web/lean_chain.py)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        except BodyTooLarge:
            with translation.override(language_of(scope)):
                refusal = JsonResponse(error_body(too_large_message()), status=413)
            await self.send_response(refusal, send)
            return
        _count_served()
        try:
            scope = with_length(scope, body_file)
            answer = await loop_http.serve(scope, body_file.read())
            if answer is not None:
                status, headers, content = answer
                await send({"type": "http.response.start", "status": status, "headers": headers})
                await send({"type": "http.response.body", "body": content})
                return
            body_file.seek(0)
            await self._in_a_thread(scope, body_file, send)
        finally:
            body_file.close()

    async def _in_a_thread(self, scope: dict[str, Any], body_file: Any, send: Any) -> None:
        """Django's path: the request on a thread borrowed for it, the response sent from the loop."""
        try:
            executor = _idle.pop()
        except IndexError:
            executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="http")
        done = False
        try:
            async with ThreadSensitiveContext(executor=executor):
                set_script_prefix(asgi.get_script_prefix(scope))
                response = await sync_to_async(self._serve, thread_sensitive=True)(scope, body_file)
                try:
                    await self.send_response(response, send)
                finally:
                    if response.streaming:
                        await sync_to_async(response.close, thread_sensitive=True)()
            done = True
        finally:
            if done and len(_idle) < MAX_IDLE_THREADS:
                _idle.append(executor)
            else:
                # Cancelled (its thread may still be busy with the request) or one too many.
                executor.shutdown(wait=False)

    async def read_body(self, receive: Any) -> Any:
        """The body, counted as it arrives: over MAX_BODY_BYTES it is refused (BodyTooLarge) at once,
        whatever the Content-Length said or whether there was one."""
        body_file = tempfile.SpooledTemporaryFile(max_size=settings.FILE_UPLOAD_MAX_MEMORY_SIZE, mode="w+b")
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                body_file.close()
                raise RequestAborted()
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > settings.MAX_BODY_BYTES:
                body_file.close()
                raise BodyTooLarge()
            body_file.write(chunk)
            if not message.get("more_body", False):
                break
        body_file.seek(0)
        return body_file

    def _serve(self, scope: dict[str, Any], body_file: Any) -> HttpResponseBase:
        """In the request's thread: the signal, the request, the middleware and the view."""
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = (self.lean if LeanHandler.takes(request) else self).get_response(request)
            response._handler_class = self.__class__  # type: ignore[attr-defined]  # as Django's ASGIHandler does
            if isinstance(response, FileResponse):
                response.block_size = self.chunk_size  # the server chunks the body itself
        assert response is not None  # create_request answers a request or the response refusing it
        if not response.streaming:
            # request_finished now: the database connection goes back to the pool before the send.
            response.close()
        return response
