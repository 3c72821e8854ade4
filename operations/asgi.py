"""The operations layer around the whole ASGI application (config/asgi.py; docs/operations.md):
health and metrics before Django, the client a trusted balancer names, request ids and access log
lines, counts, and what is in flight so the worker can drain (a socket closes only between messages).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import orjson
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

from operations import drain, forwarded, health, metrics, requests

access = logging.getLogger("operations.access")

Scope = dict[str, Any]
Message = dict[str, Any]


def operated(*, http: Any = None, websocket: Any = None) -> Any:
    """The service's application: `http` for requests and `websocket` for sockets."""

    async def app(scope: Scope, receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind == "http" and http is not None:
            own = _OWN.get(scope["path"])  # these see the peer as it connected: _ready tells a probe by it
            if own is not None:
                await own(scope, send)
            else:
                await _http(http, forwarded.resolved(scope), receive, send)
        elif kind == "websocket" and websocket is not None:
            await Socket(forwarded.resolved(scope), receive, send).serve(websocket)
        else:
            raise ValueError(f"No application configured for scope type {kind!r}")  # as Channels' router says

    return app


async def _http(application: Any, scope: Scope, receive: Any, send: Any) -> None:
    request_id = requests.from_scope(scope)
    token = requests.current.set(request_id)  # Django's request thread runs in a copy of this context
    started = time.perf_counter()
    status = 0
    echo = (b"x-request-id", request_id.encode())

    async def send_with_id(message: Message) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
            headers = [*message.get("headers", ()), echo]
            if drain.state.draining:
                headers.append((b"connection", b"close"))  # a kept-alive client goes elsewhere next time
            message = {**message, "headers": headers}
        await send(message)

    drain.state.requests += 1
    try:
        await application(scope, receive, send_with_id)
    finally:
        drain.state.requests -= 1
        seconds = time.perf_counter() - started
        method = scope.get("method", "")
        metrics.HTTP_REQUESTS.labels(method, str(status)).inc()
        metrics.HTTP_SECONDS.labels(method).observe(seconds)
        if access.isEnabledFor(logging.INFO):
            path = scope.get("path", "")
            fields = {"method": method, "path": path, "status": status, "ms": round(seconds * 1000, 2)}
            access.info("%s %s %s", method, path, status, extra=_extra(request_id, fields))
        requests.current.reset(token)


def _extra(request_id: str, fields: dict[str, Any]) -> dict[str, Any]:
    return {"request_id": request_id, "fields": fields}


def _kind(path: str) -> str:
    """The socket's kind, for metrics (a bounded set)."""
    parts = path.split("/", 3)
    kind = parts[2] if len(parts) > 2 and parts[1] == "ws" else ""
    return kind if kind in ("play", "leaderboards", "rooms") else "other"


class Socket:
    """One WebSocket between the server and the application: its id, counts, and drain."""

    # Slots, not a dictionary: one per open socket.
    __slots__ = (
        "_receive",
        "accepted",
        "asked_at",
        "busy",
        "close_code",
        "closed",
        "kind",
        "messages",
        "request_id",
        "restarting",
        "_send",
        "scope",
    )

    def __init__(self, scope: Scope, receive: Any, send: Any) -> None:
        self.scope = scope
        self.kind = _kind(scope.get("path", ""))
        self.request_id = requests.from_scope(scope)
        self._receive = receive
        self._send = send
        self.accepted = False
        self.closed = False  # a close was sent (by the application or by the drain)
        self.close_code: int | None = None
        self.busy = True  # a message handed to the application is not yet answered (first: the handshake)
        self.asked_at = 0.0  # when the unanswered client message was handed over (0: none)
        self.restarting = False
        self.messages = 0

    async def serve(self, application: Any) -> None:
        token = requests.current.set(self.request_id)
        drain.state.sockets.add(self)
        opened = time.perf_counter()
        try:
            await application(self.scope, self.receive, self.send)
        finally:
            drain.state.sockets.discard(self)
            if self.accepted:
                metrics.OPEN_SOCKETS.labels(self.kind).dec()
                if access.isEnabledFor(logging.INFO):
                    path, code, messages = self.scope.get("path", ""), self.close_code, self.messages
                    fields = {"path": path, "kind": self.kind, "close_code": code, "messages": messages}
                    fields["seconds"] = round(time.perf_counter() - opened, 3)
                    message = "socket %s closed (%s) after %d messages"
                    access.info(message, path, code, messages, extra=_extra(self.request_id, fields))
            requests.current.reset(token)

    async def receive(self) -> Message:
        # The application asks for its next message: the one it had is answered.
        self.busy = False
        if self.restarting and not self.closed and self.accepted:
            await self._close_for_restart()
        while True:
            message: Message = await self._receive()
            kind = message["type"]
            if kind == "websocket.disconnect":
                if self.close_code is None:
                    self.close_code = message.get("code")
                return message
            if self.closed:
                continue  # after our close: never handed over, never acknowledged; the client sends it again
            self.busy = True
            if kind == "websocket.receive":
                self.messages += 1
                self.asked_at = time.perf_counter()
            return message

    async def send(self, message: Message) -> None:
        kind = message["type"]
        if self.closed:
            return  # e.g. a push that was on its way when the drain closed this socket
        if kind == "websocket.send":
            if self.asked_at:  # the first frame after a client message answers it
                self._answered()
        elif kind == "websocket.accept":
            self.accepted = True
            metrics.OPEN_SOCKETS.labels(self.kind).inc()
        elif kind == "websocket.close":
            self.closed = True
            self.close_code = message.get("code", 1000)
        await self._send(message)

    def _answered(self) -> None:
        seconds = time.perf_counter() - self.asked_at
        self.asked_at = 0.0
        metrics.socket_answer_seconds(self.kind).observe(seconds)
        if access.isEnabledFor(logging.DEBUG):
            fields = {"kind": self.kind, "ms": round(seconds * 1000, 2)}
            access.debug("socket message %d answered", self.messages, extra=_extra(self.request_id, fields))

    async def restart(self) -> None:
        self.restarting = True
        if not self.busy and self.accepted and not self.closed:
            await self._close_for_restart()

    async def _close_for_restart(self) -> None:
        await self.send({"type": "websocket.close", "code": drain.CLOSE_RESTARTING})


async def _answer(send: Any, status: int, body: bytes, content_type: bytes = b"application/json") -> None:
    headers = [(b"content-type", content_type), (b"cache-control", b"no-store")]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _alive(scope: Scope, send: Any) -> None:
    await _answer(send, 200, b'{"status": "alive"}')


async def _ready(scope: Scope, send: Any) -> None:
    """The checks (in a thread: they wait on I/O) name internal addresses: only a probe beside the
    worker is told them (forwarded.direct_from_loopback); anyone else gets the status alone."""
    if drain.state.draining:
        document: dict[str, Any] = {"status": "draining", "checks": {}}
        ready = False
    else:
        checks = await asyncio.get_running_loop().run_in_executor(None, health.readiness)
        health.log_readiness(checks)
        ready = all(value in health.FINE for value in checks.values())
        document = {"status": "ready" if ready else "not ready", "checks": checks}
    if not forwarded.direct_from_loopback(scope):
        del document["checks"]
    await _answer(send, 200 if ready else 503, orjson.dumps(document))


async def _metrics(scope: Scope, send: Any) -> None:
    text = await asyncio.get_running_loop().run_in_executor(None, generate_latest, REGISTRY)
    await _answer(send, 200, text, CONTENT_TYPE_LATEST.encode())


_OWN = {"/health/alive": _alive, "/health/ready": _ready, "/metrics": _metrics}
