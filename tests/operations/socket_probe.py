"""A bare ASGI application that looks inside the worker serving it, for tests/operations/test_upgraded_sockets.py
and test_worker_requests.py (`python -m operations.server ... tests.operations.socket_probe:application`).

A WebSocket at any path: `facts` answers what the worker keeps for this socket (its transport's
producer, the HTTP objects of its connection still alive, the protocol's attributes, the scope's
headers); `fill` writes frames straight to the socket (web.sockets.frames) until the socket is
behind; anything else is echoed. `GET /state` answers what the sockets heard, whether the filled
one is behind, the lines Twisted's own HTTP log was given and how many other HTTP requests the
server still lists; `POST /body` answers the content type and body it was handed. `GET /then-wait?<path>`
(and `/then-wait-chunked?<path>`, the answer in chunks) answers at once, then holds the event loop
until a file appears at <path> (the client makes it once it has read the answer), and
`state["read_while_held"]` says whether it appeared in time.
"""

from __future__ import annotations

import gc
import os
import time
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

import orjson  # noqa: E402
from twisted.logger import globalLogPublisher  # noqa: E402
from twisted.web.http import HTTPChannel, Request  # noqa: E402

from operations.shared_headers import shared  # noqa: E402
from web import adapters  # noqa: E402
from web.sockets.frames import Frame, Outlet  # noqa: E402

FILL_FRAME = Frame({"fill": "x" * 16_000})
FILL_LIMIT = 4_000  # frames: 64 MB, far more than any kernel buffer takes before the socket is behind
HELD_SECONDS = 5.0
state: dict[str, Any] = {"heard": [], "outlet": None, "twisted_http_lines": 0, "read_while_held": None}


def _twisted_event(event: dict[str, Any]) -> None:
    if '" 200 ' in str(event.get("log_io", "")):  # a request's line in the combined log format
        state["twisted_http_lines"] += 1


globalLogPublisher.addObserver(_twisted_event)


def facts(protocol: Any, scope: dict[str, Any]) -> dict[str, Any]:
    transport = protocol.transport
    headers = scope["headers"]
    gc.collect()
    peer = transport.getPeer()
    http_objects = [
        type(thing).__name__
        for thing in gc.get_objects()
        # issubclass(type(...)), not isinstance(): isinstance() asks a dead weak proxy its class, and raises
        if (issubclass(type(thing), HTTPChannel) and thing.transport is transport)
        or (issubclass(type(thing), Request) and thing.client == peer)
    ]
    return {
        "producer": None if transport.producer is None else type(transport.producer).__name__,
        "http_objects": http_objects,
        "attributes": sorted(vars(protocol)),
        "send_queue": type(protocol.send_queue).__name__,
        "asgi": [type(scope["asgi"]).__name__, dict(scope["asgi"])],
        "between_messages": {
            name: type(getattr(protocol, name)).__name__ for name in ("utf8validator", "current_frame_masker")
        },
        "request_path": protocol.request.path,
        "headers": [[name.decode("latin-1"), value.decode("latin-1")] for name, value in headers],
        "headers_shared": all(a[0] is b[0] and a[1] is b[1] for a, b in zip(shared(headers), headers, strict=True)),
    }


async def _socket(scope: dict[str, Any], receive: Any, send: Any) -> None:
    protocol = adapters.daphne_websocket(send)
    while True:
        message = await receive()
        if message["type"] == "websocket.connect":
            await send({"type": "websocket.accept"})
        elif message["type"] == "websocket.receive":
            text = message.get("text") or ""
            if text == "facts":
                await send({"type": "websocket.send", "text": orjson.dumps(facts(protocol, scope)).decode()})
            elif text == "fill":
                outlet = state["outlet"] = Outlet(send)
                for _ in range(FILL_LIMIT):
                    if outlet.behind():
                        break
                    await outlet.put(FILL_FRAME)
            else:
                state["heard"].append(text)
                await send({"type": "websocket.send", "text": text})
        else:
            return


def _other_requests_listed(send: Any) -> int:
    """How many HTTP requests other than this one the server still lists as connections (daphne
    hands the application `partial(server.handle_reply, protocol)` as its send)."""
    server, this = send.func.__self__, send.args[0]
    return sum(1 for protocol in server.connections if isinstance(protocol, Request) and protocol is not this)


async def _state(send: Any) -> None:
    outlet = state["outlet"]
    document = {
        "other_requests_listed": _other_requests_listed(send),
        "heard": state["heard"],
        "backlog": outlet.backlog() if outlet is not None else 0,
        "behind": outlet is not None and outlet.behind(),
        "caught_up": outlet is not None and outlet.caught_up(),
        "twisted_http_lines": state["twisted_http_lines"],
        "read_while_held": state["read_while_held"],
    }
    await _json(send, document)


async def _json(send: Any, document: Any) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": orjson.dumps(document)})


def _held_until(flag: str) -> bool:
    """Hold the event loop (no await: nothing else of the worker runs) until `flag` exists."""
    deadline = time.monotonic() + HELD_SECONDS
    while time.monotonic() < deadline:
        if os.path.exists(flag):
            return True
        time.sleep(0.01)
    return False


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "websocket":
        await _socket(scope, receive, send)
    elif scope["type"] == "http":
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        if scope["method"] == "POST" and scope["path"] == "/body":
            content_type = dict(scope["headers"]).get(b"content-type", b"").decode("latin-1")
            await _json(send, {"content_type": content_type, "body": body.decode("latin-1")})
        elif scope["path"] == "/then-wait":  # with a Content-Length
            await _json(send, {"answered": True})
            state["read_while_held"] = _held_until(scope["query_string"].decode())
        elif scope["path"] == "/then-wait-chunked":  # no Content-Length: Twisted sends it in chunks
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b'{"answered":', "more_body": True})
            await send({"type": "http.response.body", "body": b"true}"})
            state["read_while_held"] = _held_until(scope["query_string"].decode())
        else:
            await _state(send)
