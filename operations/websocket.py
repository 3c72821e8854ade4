"""The worker's WebSocket protocol: daphne's, holding for each open socket only what it uses.

- autobahn copies each of its factory's protocol options onto every protocol it builds, unless the
  protocol already has the attribute (WebSocketProtocol._connectionMade, "so we are not affected by
  changes on those"). This factory builds its protocols from a class that carries the options as
  they are when set: each socket reads them from its class, and a change of options reaches only
  the sockets built after it, as with the copies.
- The headers daphne puts in the scope, which the scope keeps as long as the socket is open, hold
  the names and pairs every handshake repeats once for the process (operations.shared_headers).
- Once a socket is open, autobahn keeps what it parsed of the handshake (the request's text, its
  headers, the answer it sent) and daphne the scope's headers, autobahn's request and the deferred
  that made the application: nothing reads them again but daphne's log lines, which read the
  request's path.
- autobahn gives each socket a deque for the writes it is asked to chop or to make in step with the
  reactor, which no one here asks for: a list serves it as well, in a fraction of the memory.

`python -m operations.server` serves with this factory (bench/README.md, memory per play socket).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from daphne.ws_protocol import WebSocketFactory as DaphneWebSocketFactory
from daphne.ws_protocol import WebSocketProtocol as DaphneWebSocketProtocol

from operations import shared_headers

# What autobahn and daphne keep of the handshake and nothing reads once the socket is open.
HANDSHAKE = (
    "http_request_data",
    "http_status_line",
    "http_headers",
    "http_request_uri",
    "http_request_host",
    "http_request_path",
    "http_request_params",
    "http_response_data",
    "websocket_origin",
    "websocket_protocols",
    "websocket_extensions",
    "_wskey",
    "clean_headers",
    "application_deferred",
)


@dataclass(frozen=True, slots=True)
class OpenedRequest:
    """What daphne reads of the handshake's request once the socket is open (its log lines)."""

    path: str


class SendQueue(list[tuple[bytes, bool]]):
    """autobahn's queue of chopped or synchronous writes: what it does with its deque (append, popleft,
    len), on a list (tests/operations/test_server.py pins autobahn's use)."""

    __slots__ = ()

    def popleft(self) -> tuple[bytes, bool]:
        return self.pop(0)


class WebSocketProtocol(DaphneWebSocketProtocol):
    request: Any  # autobahn's ConnectionRequest (daphne's onConnect), then an OpenedRequest

    def connectionMade(self) -> None:  # noqa: N802 - Twisted's name
        super().connectionMade()
        self.send_queue = SendQueue()

    def onConnect(self, request: Any) -> Any:  # noqa: N802 - autobahn's name
        accepting = super().onConnect(request)
        # The scope's own list, which the application has not read yet (daphne only scheduled it).
        self.clean_headers[:] = shared_headers.shared(self.clean_headers)
        return accepting

    def onOpen(self) -> None:  # noqa: N802 - autobahn's name
        super().onOpen()
        for name in HANDSHAKE:
            self.__dict__.pop(name, None)
        self.request = OpenedRequest(self.request.path)


class WebSocketFactory(DaphneWebSocketFactory):
    protocol = WebSocketProtocol

    def resetProtocolOptions(self) -> None:  # noqa: N802 - autobahn's name
        super().resetProtocolOptions()
        self._carry_options()

    def setProtocolOptions(self, **options: Any) -> None:  # noqa: N802 - autobahn's name
        super().setProtocolOptions(**options)
        self._carry_options()

    def _carry_options(self) -> None:
        """Build the next protocols from a class that has the options as they are now. Each is a
        static attribute, read as it is: a function (perMessageCompressionAccept) is not bound to
        the socket that reads it, as a copy on the instance was not."""
        options = {name: staticmethod(getattr(self, name)) for name in WebSocketProtocol.CONFIG_ATTRS}
        self.protocol = cast("type[WebSocketProtocol]", type(WebSocketProtocol.__name__, (WebSocketProtocol,), options))
