"""A WebSocket on a real worker (operations.server) keeps nothing of the HTTP request it was upgraded
from (operations.upgrade), nor of its handshake or a copy of the protocol's options once open, and
its scope's headers share what every handshake repeats (operations.websocket); and it works as it
did: the options hold, daphne logs its path when it closes, and a client that stops reading is seen
behind (web.sockets.frames) while what it sends is still heard, and caught up once it reads again."""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import time

import pytest

from operations.websocket import HANDSHAKE, STAND_INS, WebSocketProtocol
from tests.operations.conftest import TIMEOUT, Probe


class Client:
    """A WebSocket client on a bare socket: it reads only when told to."""

    def __init__(
        self, port: int, path: str = "/probe/", receive_buffer: int | None = None, extensions: str = ""
    ) -> None:
        self.raw = socket.socket()
        if receive_buffer is not None:
            self.raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.raw.settimeout(TIMEOUT)
        self.raw.connect(("127.0.0.1", port))
        self.key = key = base64.b64encode(os.urandom(16)).decode()
        offer = f"Sec-WebSocket-Extensions: {extensions}\r\n" if extensions else ""
        self.raw.sendall(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:{port}\r\n"
            f"{offer}\r\n".encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.raw.recv(1)
        assert b" 101 " in head.split(b"\r\n", 1)[0], head
        self.head = head.decode("latin-1").lower()

    def send(self, text: str) -> None:
        """A masked text frame, as a client sends it (RFC 6455 section 5.2)."""
        self.send_frame(text.encode())

    def send_frame(self, data: bytes, opcode: int = 0x1, fin: bool = True) -> None:
        """One masked frame: a text message's first (opcode 1), or one that continues it (opcode 0)."""
        mask, size, first = os.urandom(4), len(data), (0x80 if fin else 0) | opcode
        if size < 126:
            header = struct.pack("!BB", first, 0x80 | size)
        elif size < 1 << 16:
            header = struct.pack("!BBH", first, 0x80 | 126, size)
        else:
            header = struct.pack("!BBQ", first, 0x80 | 127, size)
        key = (mask * (size // 4 + 1))[:size]
        masked = (int.from_bytes(data, "big") ^ int.from_bytes(key, "big")).to_bytes(size, "big")
        self.raw.sendall(header + mask + masked)

    def _exactly(self, size: int) -> bytes:
        data = b""
        while len(data) < size:
            chunk = self.raw.recv(size - len(data))
            if not chunk:
                raise EOFError("the server closed the socket")
            data += chunk
        return data

    def frame(self) -> tuple[int, bytes]:
        """The next frame's opcode and payload."""
        head = self._exactly(2)
        size = head[1] & 0x7F
        if size == 126:
            (size,) = struct.unpack("!H", self._exactly(2))
        elif size == 127:
            (size,) = struct.unpack("!Q", self._exactly(8))
        return head[0] & 0x0F, self._exactly(size)

    def receive(self) -> str:
        opcode, payload = self.frame()
        assert opcode == 0x1, (opcode, payload)
        return payload.decode()

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


def test_an_open_socket_keeps_no_handshake_no_copies_of_the_options_and_logs_its_path(probe: Probe) -> None:
    client = Client(probe.port, path="/probe/path/")
    try:
        client.send("facts")
        facts = json.loads(client.receive())
    finally:
        client.close()
    kept = set(facts["attributes"])
    assert kept & set(WebSocketProtocol.CONFIG_ATTRS) == set()  # read from the protocol's class
    assert kept & set(HANDSHAKE) == set()
    assert kept & set(STAND_INS) == set()  # the counters and Deferreds nothing reads: shared stand-ins
    assert {"wasClean", "localCloseCode", "autoPingTimeoutCall"} & kept == set()  # as they started: the class's
    assert len(kept) < 40  # 65 before (bench/README.md, memory per play socket)
    assert facts["between_messages"] == {"utf8validator": "NoneType", "current_frame_masker": "NoneType"}
    assert facts["asgi"] == ["mappingproxy", {"version": "3.0"}]  # one for the process, read-only
    assert facts["send_queue"] == "SendQueue"
    assert facts["request_path"] == "/probe/path/"
    assert facts["headers"] == [  # as sent, with the names and pairs every handshake repeats held once
        ["host", f"127.0.0.1:{probe.port}"],
        ["upgrade", "websocket"],
        ["connection", "Upgrade"],
        ["sec-websocket-key", client.key],
        ["sec-websocket-version", "13"],
        ["origin", f"http://127.0.0.1:{probe.port}"],
    ]
    assert facts["headers_shared"]
    deadline = time.monotonic() + TIMEOUT
    while "WSDISCONNECT /probe/path/" not in probe.access_log.read_text():  # daphne's onClose, to its end
        assert time.monotonic() < deadline, probe.access_log.read_text()
        time.sleep(0.05)


def test_the_protocol_options_hold_a_frame_over_daphne_s_cap_drops_the_connection(probe: Probe) -> None:
    cap = 1024 * 1024  # daphne's maxFramePayloadSize, which the socket reads from its class
    client = Client(probe.port)
    try:
        client.send("x" * cap)
        assert len(client.receive()) == cap
        # autobahn fails it by dropping it (failByDrop) as soon as it reads the frame's length, so the
        # client may see the drop while it is still sending the payload, or when it reads next.
        with pytest.raises((EOFError, ConnectionResetError, BrokenPipeError)):
            client.send("x" * (cap + 1))
            client.frame()
    finally:
        client.close()


def test_a_client_offering_compression_as_browsers_do_is_answered_without_it(probe: Probe) -> None:
    """daphne accepts no extension: the option that decides it is a function, read unbound."""
    client = Client(probe.port, extensions="permessage-deflate; client_max_window_bits")
    try:
        assert "sec-websocket-extensions" not in client.head
        client.send("plain")
        assert client.receive() == "plain"
    finally:
        client.close()


def test_a_text_message_split_inside_a_character_is_whole_though_another_socket_s_message_came_between(
    probe: Probe,
) -> None:
    """Each socket is lent a UTF-8 validator for the length of one text message (operations.websocket):
    a character cut in two by the frames of one socket's message is still read as one, whatever other
    sockets' messages were validated in between."""
    split, other = Client(probe.port), Client(probe.port)
    try:
        text = "café · ♠ ♥"
        data = text.encode()
        cut = data.index("é".encode()) + 1  # inside the two bytes of é
        split.send_frame(data[:cut], opcode=0x1, fin=False)
        probe.state()  # a round trip to the same worker, whose reactor has read the frame sent before
        other.send("between")
        assert other.receive() == "between"
        split.send_frame(data[cut:], opcode=0x0, fin=True)
        assert split.receive() == text
        split.send("again")
        assert split.receive() == "again"
    finally:
        split.close()
        other.close()


def test_a_text_message_that_is_not_utf8_fails_its_socket_and_only_its_own(probe: Probe) -> None:
    bad, good = Client(probe.port), Client(probe.port)
    try:
        bad.send_frame(b"caf\xc3", opcode=0x1, fin=False)  # a character begun
        good.send("fine")
        assert good.receive() == "fine"
        bad.send_frame(b"(", opcode=0x0, fin=True)  # and not finished: 0xC3 0x28 is no character
        with pytest.raises((EOFError, ConnectionResetError)):
            opcode, payload = bad.frame()
            assert opcode == 0x8 and struct.unpack("!H", payload[:2]) == (1007,)  # or a close: invalid payload
            bad.frame()
        good.send("still fine")
        assert good.receive() == "still fine"
    finally:
        bad.close()
        good.close()
