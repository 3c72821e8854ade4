"""Many board watchers in a few driver processes, each a bare WebSocket client (for bench/push.py).

A watcher here is an asyncio protocol that does the handshake, answers pings and notes when each
`change` or `snapshot` frame arrived; there is no per-frame JSON decode and no task per socket,
so one process reads thousands of sockets with little CPU. A `Crowd` is one such process, driven
by its parent through a pipe: open your share of the watchers, say how many have heard n frames,
hand over the arrival times. Times are `time.perf_counter()`, CLOCK_MONOTONIC on Linux, the same
clock in every process, so the parent compares them with when it sent each POST.
"""

from __future__ import annotations

import asyncio
import base64
import multiprocessing
import os
import struct
import time
from multiprocessing.connection import Connection
from typing import Any

HANDSHAKE = (
    "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    "Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:{port}\r\n\r\n"
)
HEARD = (b'{"type":"change"', b'{"type":"snapshot"')


class Watcher(asyncio.Protocol):
    """One socket: the first snapshot sets `ready`; each later change or snapshot is timed."""

    def __init__(self, request: bytes) -> None:
        self.request = request
        self.buffer = b""
        self.upgraded = False
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.heard: list[float] = []
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(self.request)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.ready.done():
            self.ready.set_exception(ConnectionError(f"closed before the snapshot ({exc})"))

    def data_received(self, data: bytes) -> None:
        now = time.perf_counter()
        self.buffer += data
        if not self.upgraded:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            status = self.buffer[: self.buffer.find(b"\r\n")]
            if b" 101 " not in status:
                self.ready.set_exception(ConnectionError(status.decode("latin-1")))
                return
            self.upgraded, self.buffer = True, self.buffer[end + 4 :]
        self._frames(now)

    def _frames(self, now: float) -> None:
        buffer = self.buffer
        while len(buffer) >= 2:
            opcode, size = buffer[0] & 0x0F, buffer[1] & 0x7F
            start = 2
            if size == 126:
                if len(buffer) < 4:
                    break
                (size,) = struct.unpack_from("!H", buffer, 2)
                start = 4
            elif size == 127:
                if len(buffer) < 10:
                    break
                (size,) = struct.unpack_from("!Q", buffer, 2)
                start = 10
            if len(buffer) < start + size:
                break
            payload = buffer[start : start + size]
            buffer = buffer[start + size :]
            if opcode == 0x9:  # ping: answer it, masked as a client must (a zero mask)
                assert self.transport is not None
                self.transport.write(bytes([0x8A, 0x80 | len(payload)]) + b"\0\0\0\0" + payload)
            elif opcode == 0x1 and payload.startswith(HEARD):
                if not self.ready.done():
                    if payload.startswith(HEARD[1]):
                        self.ready.set_result(None)
                else:
                    self.heard.append(now)
        self.buffer = buffer

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


async def _open(port: int, path: str, gate: asyncio.Semaphore) -> Watcher:
    key = base64.b64encode(os.urandom(16)).decode()
    request = HANDSHAKE.format(path=path, port=port, key=key).encode()
    loop = asyncio.get_running_loop()
    async with gate:
        _, watcher = await loop.create_connection(lambda: Watcher(request), "127.0.0.1", port)
        await asyncio.wait_for(watcher.ready, 60)
    return watcher


async def _serve(conn: Connection, ports: list[int], path: str, numbers: list[int]) -> None:
    from bench.stack import raise_fd_limit

    raise_fd_limit()
    loop = asyncio.get_running_loop()
    gate = asyncio.Semaphore(50)
    watchers = await asyncio.gather(*(_open(ports[n % len(ports)], path, gate) for n in numbers))
    conn.send(("open", len(watchers)))
    commands: asyncio.Queue[Any] = asyncio.Queue()
    loop.add_reader(conn.fileno(), lambda: commands.put_nowait(conn.recv()))
    while True:
        command, arg = await commands.get()
        if command == "heard":  # how many watchers have heard at least `arg` frames
            conn.send(sum(1 for w in watchers if len(w.heard) >= arg))
        elif command == "times":
            conn.send([w.heard for w in watchers])
            for watcher in watchers:
                watcher.close()
            return


def _crowd_main(conn: Connection, ports: list[int], path: str, numbers: list[int]) -> None:
    asyncio.run(_serve(conn, ports, path, numbers))


class Crowd:
    """A driver process holding watchers `numbers` (spread over `ports` by number)."""

    def __init__(self, ports: list[int], path: str, numbers: list[int]) -> None:
        self.conn, child = multiprocessing.Pipe()
        self.process = multiprocessing.get_context("fork").Process(
            target=_crowd_main, args=(child, ports, path, numbers), daemon=True
        )
        self.process.start()

    def opened(self) -> int:
        kind, count = self.conn.recv()
        assert kind == "open", kind
        return int(count)

    def heard(self, frames: int) -> int:
        self.conn.send(("heard", frames))
        return int(self.conn.recv())

    def times(self) -> list[list[float]]:
        self.conn.send(("times", None))
        times: list[list[float]] = self.conn.recv()
        self.process.join(10)
        return times
