"""One frame written to many sockets: encoded once, its wire bytes shared, each socket's backlog bounded.

A push to 5,000 watchers of a board is the same text for all of them. `Frame` holds it encoded
once (JSON, UTF-8 and the WebSocket frame header); `Outlet` writes those bytes straight to a
socket's transport when the server is daphne (web.adapters), without the ASGI send's per-socket
hops and autobahn's per-socket framing, and says when a socket has fallen too far behind: a
client that stopped reading must not grow the process's memory nor be left silently stale (the
caller sends it a fresh state once it reads again). Elsewhere (tests, another server) the
frame's text goes through the ASGI send as usual.
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

    __slots__ = ("text", "wire")

    def __init__(self, payload: dict[str, Any]) -> None:
        self.text = encode_frame(payload)
        self.wire = _wire(self.text.encode())


class Outlet:
    """Where a socket's shared frames go: its transport if the server's protocol is reachable."""

    __slots__ = ("protocol", "send")

    def __init__(self, send: Send) -> None:
        self.send = send
        self.protocol = adapters.daphne_websocket(send)

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
        if self.protocol is None or not adapters.write_frame(self.protocol, frame.wire):
            await self.send({"type": "websocket.send", "text": frame.text})
        return True
