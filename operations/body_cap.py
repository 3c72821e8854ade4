"""Daphne's HTTP request with the body cap: a body over MAX_BODY_BYTES is refused as it arrives.

Twisted reads a request's whole body before daphne hands any of it to the application, and a
chunked body has no Content-Length for the middleware to judge it by: a 1 GB chunked POST was
read to its end and daphne's memory grew by as much. Here the bytes are counted as Twisted
receives them; at the cap the worker answers 413 in the API's error shape, in the client's
language, and hangs up, and nothing of the request reaches the application. A Content-Length
over the cap is answered as soon as the headers are in.

`python -m operations.server` (so `make run`, the cluster and the image) serves with this
request class (operations.upgrade).
"""

from __future__ import annotations

import orjson
from daphne.http_protocol import WebRequest
from django.conf import settings
from django.utils import translation

from web.errors import error_body
from web.language import language_of
from web.middleware import too_large_message


class CappedRequest(WebRequest):
    received = 0
    refused = False

    def gotLength(self, length: int | None) -> None:  # noqa: N802 - Twisted's name
        super().gotLength(length)
        if length is not None and length > settings.MAX_BODY_BYTES:
            self._refuse()

    def handleContentChunk(self, data: bytes) -> None:  # noqa: N802 - Twisted's name
        if self.refused:
            return  # the connection is closing: drop what is still in flight
        self.received += len(data)
        if self.received > settings.MAX_BODY_BYTES:
            self._refuse()
            return
        super().handleContentChunk(data)

    def requestReceived(self, command: bytes, path: bytes, version: bytes) -> None:  # noqa: N802
        if not self.refused:  # a refused request was answered already: the application never sees it
            super().requestReceived(command, path, version)

    def _refuse(self) -> None:
        self.refused = True
        self.content.close()
        headers = [(name.lower(), value) for name, values in self.requestHeaders.getAllRawHeaders() for value in values]
        with translation.override(language_of({"headers": headers})):
            body = orjson.dumps(error_body(too_large_message()))
        head = (
            b"HTTP/1.1 413 Payload Too Large\r\n"
            b"Content-Type: application/json\r\n"
            b"Content-Length: %d\r\n"
            b"Connection: close\r\n\r\n" % len(body)
        )
        transport = self.channel.transport
        transport.write(head + body)
        transport.loseConnection()
