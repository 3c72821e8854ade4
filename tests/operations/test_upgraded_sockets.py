"""A WebSocket on a real worker (operations.server) keeps nothing of the HTTP request it was upgraded
from (operations.upgrade), and its flow is what it was: a client that stops reading is seen behind
(web.sockets.frames) while what it sends is still heard, and caught up once it reads again."""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.loopback import free_port, service_env

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 10.0


@dataclass
class Probe:
    port: int
    log: Path

    def state(self) -> dict[str, Any]:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/state", timeout=TIMEOUT) as answer:
            return dict(json.loads(answer.read()))

    def until(self, holds: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        deadline = time.monotonic() + TIMEOUT
        while not holds(state := self.state()):
            assert time.monotonic() < deadline, state
            time.sleep(0.05)
        return state


@pytest.fixture(scope="module")
def probe() -> Iterator[Probe]:
    """A worker serving tests/operations/socket_probe.py (no database, no Redis)."""
    port = free_port()
    log = Path(tempfile.mkdtemp(prefix="probe-worker-")) / "worker.log"
    env = service_env(database_url="", redis_url="")
    with log.open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "operations.server", "-b", "127.0.0.1", "-p", str(port)]
            + ["tests.operations.socket_probe:application"],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    probe = Probe(port, log)
    deadline = time.monotonic() + 60
    while True:
        try:
            probe.state()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError(f"the worker did not start: {log.read_text()[-2000:]}") from None
            time.sleep(0.2)
    try:
        yield probe
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()


class Client:
    """A WebSocket client on a bare socket: it reads only when told to."""

    def __init__(self, port: int, path: str = "/probe/", receive_buffer: int | None = None) -> None:
        self.raw = socket.socket()
        if receive_buffer is not None:
            self.raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.raw.settimeout(TIMEOUT)
        self.raw.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.raw.sendall(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:{port}\r\n\r\n".encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.raw.recv(1)
        assert b" 101 " in head.split(b"\r\n", 1)[0], head

    def send(self, text: str) -> None:
        """A masked text frame, as a client sends it (RFC 6455 section 5.2)."""
        data, mask = text.encode(), os.urandom(4)
        size = len(data)
        header = struct.pack("!BB", 0x81, 0x80 | size) if size < 126 else struct.pack("!BBH", 0x81, 0xFE, size)
        self.raw.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _exactly(self, size: int) -> bytes:
        data = b""
        while len(data) < size:
            chunk = self.raw.recv(size - len(data))
            assert chunk, "the server closed the socket"
            data += chunk
        return data

    def receive(self) -> str:
        head = self._exactly(2)
        size = head[1] & 0x7F
        if size == 126:
            (size,) = struct.unpack("!H", self._exactly(2))
        elif size == 127:
            (size,) = struct.unpack("!Q", self._exactly(8))
        return self._exactly(size).decode()

    def close(self) -> None:
        self.raw.close()


def test_an_upgraded_connection_keeps_nothing_of_its_http_request(probe: Probe) -> None:
    client = Client(probe.port)
    try:
        client.send("hello")
        assert client.receive() == "hello"
        deadline = time.monotonic() + TIMEOUT
        while True:  # daphne lists the upgraded request as its own for up to a second more
            client.send("facts")
            facts = json.loads(client.receive())
            if not facts["http_objects"] or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert facts["producer"] is None  # no HTTP channel registered with the socket's transport
        assert facts["http_objects"] == []  # neither the channel nor its request is alive
        client.send("still here")
        assert client.receive() == "still here"
    finally:
        client.close()


def test_a_client_that_stops_reading_is_seen_behind_still_heard_and_caught_up_once_it_reads(probe: Probe) -> None:
    client = Client(probe.port, receive_buffer=4096)
    try:
        client.send("fill")  # the worker writes until the socket is behind, and the client reads nothing
        assert probe.until(lambda state: state["behind"])["backlog"] > 64 * 1024
        client.send("heard while behind")
        probe.until(lambda state: "heard while behind" in state["heard"])
        frames = 0
        while (text := client.receive()) != "heard while behind":
            assert json.loads(text)["fill"]
            frames += 1
        assert frames > 4
        assert probe.until(lambda state: state["caught_up"])["backlog"] == 0
    finally:
        client.close()
