"""The service's ASGI application plus echo sockets that do no game work, for `bench/floor.py`.

`/bench/echo/` goes through everything a play socket goes through (the
worker's socket wrapper, the origin check, session and token auth run and
left as config/asgi.py runs them, `JsonConsumer` framing and flood control)
and answers each message with a fixed document of the size of a play
answer; `/bench/hop/` adds the trip to a database thread every action
makes; `/bench/raw/` is a bare ASGI WebSocket loop under the same daphne, and `/bench/raw-http/`
a bare ASGI HTTP answer of `FLOOR_HTTP_BYTES` (the size of a board page).
Together with the real `/ws/play/` they split an action's cost into the
server's floor, Channels' share and the game's share. Only `bench/` loads
this module: the service never serves these paths.
"""

from __future__ import annotations

import os
from typing import Any

from config.asgi import application as service  # sets Django up first

# isort: split
from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

from operations.asgi import operated  # noqa: E402
from web.sockets.auth import TokenAuthMiddleware  # noqa: E402
from web.sockets.consumer import JsonConsumer, in_database_thread  # noqa: E402
from web.sockets.origin import SameOriginValidator  # noqa: E402

REPLY_BYTES = int(os.environ.get("FLOOR_REPLY_BYTES", "1200"))
# A session-shaped document of REPLY_BYTES once encoded.
_FILLER = {"type": "session", "view": "x" * max(0, REPLY_BYTES - 30)}


class EchoConsumer(JsonConsumer):
    channel_layer_alias = "no-layer"  # the client alone: what a socket costs before it follows anything

    async def receive_message(self, message: dict[str, Any]) -> None:
        await self.send_json(_FILLER)


def _nothing() -> dict[str, Any]:
    return _FILLER


class HopConsumer(EchoConsumer):
    """The echo, with the trip to a socket database thread and back that every action makes."""

    async def receive_message(self, message: dict[str, Any]) -> None:
        await self.send_json(await in_database_thread(_nothing)())


# As config/asgi.py serves the play socket.
echo = operated(
    websocket=SameOriginValidator(
        AuthMiddlewareStack(
            TokenAuthMiddleware(
                URLRouter([path("bench/echo/", EchoConsumer.as_asgi()), path("bench/hop/", HopConsumer.as_asgi())])
            )
        )
    )
)
_RAW_REPLY = "x" * REPLY_BYTES
HTTP_BYTES = int(os.environ.get("FLOOR_HTTP_BYTES", "6000"))
_RAW_HTTP_BODY = b'{"x":"' + b"x" * max(0, HTTP_BYTES - 8) + b'"}'
_RAW_HTTP_HEADERS = [(b"content-type", b"application/json"), (b"content-length", str(len(_RAW_HTTP_BODY)).encode())]


async def raw(scope: dict[str, Any], receive: Any, send: Any) -> None:
    while True:
        message = await receive()
        kind = message["type"]
        if kind == "websocket.connect":
            await send({"type": "websocket.accept"})
        elif kind == "websocket.receive":
            await send({"type": "websocket.send", "text": _RAW_REPLY})
        else:
            return


async def raw_http(scope: dict[str, Any], receive: Any, send: Any) -> None:
    while (await receive()).get("more_body"):
        pass
    await send({"type": "http.response.start", "status": 200, "headers": _RAW_HTTP_HEADERS})
    await send({"type": "http.response.body", "body": _RAW_HTTP_BODY})


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    where = scope.get("path", "")
    if scope["type"] == "http" and where == "/bench/raw-http/":
        await raw_http(scope, receive, send)
        return
    if scope["type"] == "websocket" and where.startswith("/bench/raw/"):
        await raw(scope, receive, send)
    elif scope["type"] == "websocket" and where.startswith(("/bench/echo/", "/bench/hop/")):
        await echo(scope, receive, send)
    else:
        await service(scope, receive, send)
