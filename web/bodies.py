"""A request body without a Content-Length (chunked), read and counted against MAX_BODY_BYTES before
Django's ASGI handler, which would read it as empty (413 past it), then handed on with its length.
"""

from __future__ import annotations

from typing import Any

import orjson
from django.conf import settings
from django.utils import translation

from web.errors import error_body
from web.language import language_of
from web.middleware import too_large_message

ASGIApp = Any


class WithLength:
    """ASGI middleware in front of Django's handler (config/asgi.py)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        headers = scope.get("headers") or []
        if scope["type"] != "http" or any(name.lower() == b"content-length" for name, _ in headers):
            await self.app(scope, receive, send)
            return
        pieces, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            piece = message.get("body", b"")
            size += len(piece)
            if size > settings.MAX_BODY_BYTES:
                await _refuse(scope, send)
                return
            pieces.append(piece)
            if not message.get("more_body", False):
                break
        body = b"".join(pieces)
        whole = [{"type": "http.request", "body": body, "more_body": False}]

        async def replayed() -> dict[str, Any]:
            return whole.pop() if whole else await receive()  # then the disconnect, as it comes

        if body:
            scope = {**scope, "headers": [*headers, (b"content-length", str(len(body)).encode())]}
        await self.app(scope, replayed, send)


async def _refuse(scope: dict[str, Any], send: Any) -> None:
    with translation.override(language_of(scope)):
        content = orjson.dumps(error_body(too_large_message()))
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(content)).encode())]
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": content})
