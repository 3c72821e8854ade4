"""The worker's HTTP requests (daphne's, with the body cap), and a connection upgraded to a
WebSocket that keeps nothing of its HTTP side.

daphne hands an upgraded connection's transport to its WebSocket protocol, but Twisted's HTTP
channel stays registered as the transport's producer, so the channel and its request (their
headers, the bytes read, the body's file) lived as long as the socket (bench/README.md, memory per
play socket). That registration does nothing for the socket: the channel is still handling its
request, and a channel handling a request pauses nothing when the transport's buffer fills. So once
daphne has handed the connection over, the channel is unregistered and the request is told its
connection is gone, as Twisted tells a request whose connection dropped: nothing holds either. A
socket's backlog is still the transport's buffer (web.sockets.frames), as before.

Two things Twisted does for every request are skipped, since nobody reads them: the parse of a form
body into `request.args` (the application reads the body itself; Twisted checked every POST's
Content-Type with the email package, and answered a malformed multipart body 400 in its own words
before the application could), and its own log line, which daphne sends nowhere unless asked for
`-v 2` (daphne writes its access log, the operations layer its JSON line).

An answer is written to the socket as soon as the application hands over its last bytes. Twisted
only buffers a write and sends it on the event loop's next turn, after everything else of this one:
the bookkeeping of a finished request (daphne's and Twisted's, the application's metrics and log
line) and whatever else was ready. Sending at once is what the loop would do on that turn (the same
doWrite), earlier.
"""

from __future__ import annotations

from typing import Any

from daphne.http_protocol import HTTPFactory as DaphneHTTPFactory
from twisted.internet.abstract import FileDescriptor
from twisted.internet.error import ConnectionDone
from twisted.python.failure import Failure

from operations.body_cap import CappedRequest
from web import adapters


class Request(CappedRequest):
    def __init__(self, channel: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(channel, *args, parsePOSTFormSubmission=False, **kwargs)

    def finish(self) -> None:
        # Finishing lets go of the channel (the attribute is deleted): its transport first.
        transport = getattr(getattr(self, "channel", None), "transport", None)
        whole = self.startedWriting and not self.chunked and not self.finished  # nothing more will be written
        if whole:
            _send_now(transport)  # before daphne's and Twisted's bookkeeping of a finished request
        super().finish()
        if not whole:
            _send_now(transport)  # the headers, or a chunked answer's last chunk, finish just wrote

    def process(self) -> Any:
        processing = super().process()
        if self.transport is None and self.channel is not None:  # daphne took the transport: a WebSocket now
            adapters.release_upgraded_channel(self.channel)
            gone = Failure(ConnectionDone("the connection is a WebSocket now"))  # type: ignore[no-untyped-call]
            self.connectionLost(gone)
        return processing


def _send_now(transport: Any) -> None:
    """Send what the connection's buffer holds, as the loop would when the socket is writable.

    Only on a connection that stays open: one that is closing (`Connection: close`) must be closed by
    the loop once written, so it is left to the loop. A send that fails leaves the loop to find the
    failure on its turn, as it would have."""
    if isinstance(transport, FileDescriptor) and transport.connected and not transport.disconnecting:
        transport.doWrite()  # type: ignore[no-untyped-call]


class HTTPFactory(DaphneHTTPFactory):
    def buildProtocol(self, addr: Any) -> Any:  # noqa: N802 - Twisted's name
        protocol = super().buildProtocol(addr)
        protocol.requestFactory = Request
        return protocol

    def log(self, request: Any) -> None:
        if self.server.verbosity > 1:  # Twisted's log goes to Python's logging only then (daphne.server)
            super().log(request)
