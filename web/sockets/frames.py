"""Frames written straight to a socket: encoded once, their wire bytes shared, each socket's backlog bounded.

A push to 5,000 watchers of a board is the same text for all of them. `Frame` holds it encoded
once (JSON, UTF-8 and the WebSocket frame header); `Outlet` writes those bytes straight to a
socket's transport when the server is daphne (web.adapters), without the ASGI send's per-socket
hops and autobahn's per-socket framing (a tenth of a play action's CPU: bench/README.md), and
says when a socket has fallen too far behind: a client that stopped reading must not grow the
process's memory nor be left silently stale (the caller sends it a fresh state once it reads
again). Elsewhere (tests, another server) the frame's text goes through the ASGI send as usual.
A frame written straight is still counted as sent by the worker's own socket wrapper
(operations.asgi.Socket.frame_sent: the answer-time metric).
"""

from __future__ import annotations

import struct
from collections.abc import Awaitable, Callable
from typing import Any

from web import adapters
from web.sockets.consumer import encode_frame

# Bytes a socket may have waiting in the server's own buffer (beyond what the kernel took) and still
# be sent pushes: Twisted's own threshold for pausing a producer. Past it the socket is behind.
BEHIND_BYTES = 64 * 1024

Send = Callable[[dict[str, Any]], Awaitable[None]]


def _wire(data: bytes) -> bytes:
    """A final, unmasked text frame (RFC 6455 section 5.2), as a server sends it."""
    size = len(data)
    if size < 126:
        header = struct.pack("!BB", 0x81, size)
    elif size < 1 << 16:
        header = struct.pack("!BBH", 0x81, 126, size)
    else:
        header = struct.pack("!BBQ", 0x81, 127, size)
    return header + data


class Frame:
    """A text frame encoded once for every socket it goes to."""

    __slots__ = ("_data", "_text", "wire")

    def __init__(self, payload: dict[str, Any]) -> None:
        self._text: str | None = encode_frame(payload)
        self._data = self._text.encode()
        self.wire = _wire(self._data)

    @classmethod
    def of_json(cls, data: bytes) -> Frame:
        """The frame of text already encoded as UTF-8 JSON (its text is decoded only if asked)."""
        frame = cls.__new__(cls)
        frame._data, frame._text, frame.wire = data, None, _wire(data)
        return frame

    @property
    def text(self) -> str:
        """The frame's text, for a send through ASGI: one string, whichever socket asks."""
        if self._text is None:
            self._text = self._data.decode()
        return self._text


class Outlet:
    """Where a socket's shared frames go: its transport if the server's protocol is reachable."""

    __slots__ = ("protocol", "send", "sent")

    def __init__(self, send: Send) -> None:
        self.send = send
        self.protocol = adapters.daphne_websocket(send)
        # What the worker's socket wrapper counts of a frame it did not see go (None: no wrapper).
        self.sent: Callable[[], None] | None = getattr(adapters.server_send_owner(send), "frame_sent", None)

    def backlog(self) -> int:
        """Bytes written to this socket that the kernel has not taken yet (0 when not known)."""
        return adapters.unsent_bytes(self.protocol) if self.protocol is not None else 0

    def behind(self) -> bool:
        return self.backlog() > BEHIND_BYTES

    def caught_up(self) -> bool:
        """A socket that was behind reads again: most of what it owed has gone."""
        return self.backlog() <= BEHIND_BYTES // 4

    async def write(self, frame: Frame) -> bool:
        """Send `frame`; False, sending nothing, if this socket is too far behind to take it."""
        if self.behind():
            return False
        await self.put(frame)
        return True

    async def put(self, frame: Frame) -> None:
        """Send `frame`, however far behind the socket is (an answer to its own client's message)."""
        if self.protocol is not None and adapters.write_frame(self.protocol, frame.wire):
            if self.sent is not None:
                self.sent()
        else:
            await self.send({"type": "websocket.send", "text": frame.text})
