"""The WebSocket middleware stack, run to fill the scope in and then left, before the socket is served.

Each of Channels' middlewares (and ours, after its fashion) copies the scope and awaits the inner
application: an open socket kept every copy, and every middleware's suspended coroutine, for as long
as it was open (bench/README.md, memory). Here the stack's innermost application only notes the
scope and send it was given; the socket's own application then runs from this frame, holding that
one scope. The middlewares it runs do their work before they call inward (the origin check, the
cookies, the session, the user, the token) and nothing after: a middleware that needed to act once
the socket closed could not be put in this stack. Channels' session middleware also wraps the send,
to save the session with an HTTP answer: a socket's sends pass its wrapper unchanged, so the socket
is given the send beneath it, and the wrapper and its copy of the scope are not kept either.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from web import adapters
from web.sockets.routes import Routes

Call = tuple[dict[str, Any], Any, Any]
_noted: ContextVar[list[Call]] = ContextVar("socket_call")


class _Note:
    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        _noted.get().append((scope, receive, adapters.under_session(send)))


class Resolved:
    """`wrap(application)` is the middleware stack; `inner` serves the socket with what it resolved:
    an application, or `Routes` (web/sockets/routes.py), whose consumer is then awaited from this
    frame. A socket the stack refused (it answered the handshake itself) never reaches `inner`."""

    def __init__(self, wrap: Callable[[Any], Any], inner: Any) -> None:
        self.stack = wrap(_Note())
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        noted: list[Call] = []
        token = _noted.set(noted)
        try:
            await self.stack(scope, receive, send)
        finally:
            _noted.reset(token)
        if noted:
            scope, receive, send = noted[0]
            del noted  # the socket is served from this frame: keep the call, not its list as well
            inner = self.inner
            application = inner.resolve(scope) if isinstance(inner, Routes) else inner
            await application(scope, receive, send)
