"""A board's change on the real wire (daphne): every watcher gets the same frame, byte for byte,
and a watcher that never reads holds up no one."""

from __future__ import annotations

import base64
import os
import socket
import struct

import pytest

from tests.reliability.client import TIMEOUT, Api
from tests.reliability.conftest import Stack
from tests.reliability.db import legal_plan

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]  # a private PostgreSQL and Redis each

CODE = "SP1-S2C-AAAAAKQ"


def _open(port: int, path: str) -> socket.socket:
    raw = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:{port}\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += raw.recv(1)
    assert b" 101 " in head.split(b"\r\n", 1)[0], head
    return raw


def _exactly(raw: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = raw.recv(size - len(data))
        assert chunk, "the server closed the socket"
        data += chunk
    return data


def _frame(raw: socket.socket) -> bytes:
    """The next whole frame as it came over the wire, its header included."""
    head = _exactly(raw, 2)
    size = head[1] & 0x7F
    extra = b""
    if size == 126:
        extra = _exactly(raw, 2)
        (size,) = struct.unpack("!H", extra)
    elif size == 127:
        extra = _exactly(raw, 8)
        (size,) = struct.unpack("!Q", extra)
    return head + extra + _exactly(raw, size)


def test_every_watcher_gets_the_change_frame_byte_for_byte_and_a_stalled_one_holds_up_no_one(stack: Stack) -> None:
    server = stack.daphne()
    path = f"/ws/leaderboards/code:{CODE}/"
    stalled = _open(server.port, path)  # opened, never read
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    watchers = [_open(server.port, path) for _ in range(4)]
    for raw in watchers:
        assert b'"type":"snapshot"' in _frame(raw)

    player = Api(server.http)
    player.sign_up("wire")
    answer = player.post("/api/submissions", {"code": CODE, "moves": legal_plan(CODE, 2)})
    assert answer.status_code == 201, answer.text

    frames = [_frame(raw) for raw in watchers]
    assert frames[0][0] == 0x81 and b'"type":"change"' in frames[0] and b'"player":"wire"' in frames[0]
    assert all(frame == frames[0] for frame in frames)
    for raw in (stalled, *watchers):
        raw.close()
