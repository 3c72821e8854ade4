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
"""

from __future__ import annotations

from typing import Any

from daphne.http_protocol import HTTPFactory as DaphneHTTPFactory
from twisted.internet.error import ConnectionDone
from twisted.python.failure import Failure

from operations.body_cap import CappedRequest
from web import adapters


class Request(CappedRequest):
    def process(self) -> Any:
        processing = super().process()
        if self.transport is None and self.channel is not None:  # daphne took the transport: a WebSocket now
            adapters.release_upgraded_channel(self.channel)
            gone = Failure(ConnectionDone("the connection is a WebSocket now"))  # type: ignore[no-untyped-call]
            self.connectionLost(gone)
        return processing


class HTTPFactory(DaphneHTTPFactory):
    def buildProtocol(self, addr: Any) -> Any:  # noqa: N802 - Twisted's name
        protocol = super().buildProtocol(addr)
        protocol.requestFactory = Request
        return protocol
