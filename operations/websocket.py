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
- autobahn also gives each socket what nothing here reads: traffic counters, two Deferreds for
  whoever waits on the socket's opening or closing (nobody here does), the details of its transport
  (read by its handshake's log line) and the bookkeeping of event listeners (it has none). Each is
  a shared stand-in on the class instead, and the socket's own is dropped.
- A socket's UTF-8 validator and frame unmasker live from the start of a message or frame to its
  end, not as long as the socket: the validators are lent from a small pool of idle ones.
- Once open, the socket's state that still holds its value from the start (timers not set, close
  codes not known, flags not raised) is read from the class, and the socket's own dictionary is
  made anew without it, a third of its size. A value set later goes in the socket's own as before.

`python -m operations.server` serves with this factory (bench/README.md, memory per play socket).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from autobahn.websocket.protocol import TrafficStats
from autobahn.websocket.utf8validator import Utf8Validator
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
    "_transport_details",  # autobahn's, read by its handshake's log line and as the socket opens
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


class Unwatched:
    """Stands in for a Deferred that autobahn resolves (txaio.resolve: its callback) and nobody waits on."""

    __slots__ = ()

    def callback(self, result: object) -> None:
        pass


# autobahn's traffic counts, which nobody here reads: every socket adds to this one (at the speed
# of a socket's own), which a socket no longer carries.
SHARED_COUNTS = TrafficStats()  # type: ignore[no-untyped-call]
UNWATCHED = Unwatched()

# Validators not lent to a socket's text message now; more than this many idle ones are let go.
IDLE_VALIDATORS_KEPT = 64
_idle_validators: list[Any] = []

# Per-socket state as autobahn and daphne leave it on an open socket that nothing has happened to
# yet: the socket reads these from its class until one is set (tests/operations/test_server.py pins
# that autobahn starts them so).
AT_REST: dict[str, object] = {
    "_perMessageCompress": None,
    "trackedTimings": None,
    "triggered": False,
    "wasMaxFramePayloadSizeExceeded": False,
    "wasMaxMessagePayloadSizeExceeded": False,
    "closedByMe": False,
    "failedByMe": False,
    "droppedByMe": False,
    "wasClean": False,
    "wasNotCleanReason": None,
    "wasServerConnectionDropTimeout": False,
    "wasOpenHandshakeTimeout": False,
    "wasCloseHandshakeTimeout": False,
    "wasServingFlashSocketPolicyFile": False,
    "localCloseCode": None,
    "localCloseReason": None,
    "remoteCloseCode": None,
    "remoteCloseReason": None,
    "openHandshakeTimeoutCall": None,
    "closeHandshakeTimeoutCall": None,
    "autoPingTimeoutCall": None,
    "autoPingPending": None,
    "autoPingPendingCall": None,
    "autoPingPendingSent": None,
    "protocol_to_accept": None,
    "websocket_protocol_in_use": None,
    "current_frame": None,
    "current_frame_masker": None,
    "message_data": None,
    "frame_data": None,
    "utf8validator": None,
}
# What autobahn gives each socket and nothing here reads, and what stands in for it on the class.
STAND_INS: dict[str, object] = {
    "trafficStats": SHARED_COUNTS,
    "is_open": UNWATCHED,
    "is_closed": UNWATCHED,
    "_results": None,
    "_valid_events": None,
}


class WebSocketProtocol(DaphneWebSocketProtocol):
    request: Any  # autobahn's ConnectionRequest (daphne's onConnect), then an OpenedRequest
    utf8validator: Any  # autobahn's Utf8Validator while a text message is being read, else None

    def connectionMade(self) -> None:  # noqa: N802 - Twisted's name
        super().connectionMade()
        self.send_queue = SendQueue()
        for name in STAND_INS:  # made by autobahn's __init__ and _connectionMade, just before
            self.__dict__.pop(name, None)
        self.utf8validator = None  # lent for each text message (onFrameBegin)

    def onFrameBegin(self) -> None:  # noqa: N802 - autobahn's name
        frame = self.current_frame
        if not self.inside_message and frame.opcode == self.MESSAGE_TYPE_TEXT and self.utf8validateIncoming:
            # autobahn resets it at once: a message's validation starts afresh on whichever it is lent
            self.utf8validator = _idle_validators.pop() if _idle_validators else Utf8Validator()  # type: ignore[no-untyped-call]
        super().onFrameBegin()

    def onFrameEnd(self) -> bool | None:  # noqa: N802 - autobahn's name
        ended: bool | None = super().onFrameEnd()
        if not self.inside_message:
            validator = self.utf8validator
            if validator is not None:
                if len(_idle_validators) < IDLE_VALIDATORS_KEPT:
                    _idle_validators.append(validator)
                self.utf8validator = None
        if self.current_frame is None:  # ended as autobahn ends a frame; otherwise the socket is failing
            self.current_frame_masker = None
        return ended

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
        self._rest()

    def _rest(self) -> None:
        """Let the class hold what is as it started, and make the socket's dictionary anew at the size
        of what is left (a dictionary does not shrink as its keys go). Twisted's transport gets the
        same: when connections arrive together, each one's dictionary is made at the size of every
        name its class's instances have been given (832 bytes for its 17)."""
        own = self.__dict__
        for name, value in AT_REST.items():
            if own.get(name, value) is not value:
                continue
            own.pop(name, None)
        self.__dict__ = dict(own)
        transport = self.transport
        if transport is not None and hasattr(transport, "__dict__"):
            transport.__dict__ = dict(transport.__dict__)


for _name, _value in {**AT_REST, **STAND_INS, "_transport_details": None}.items():
    setattr(WebSocketProtocol, _name, _value)


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
