"""A frame encoded once is, on the wire, what a WebSocket library frames itself (RFC 6455)."""

from __future__ import annotations

import orjson
import pytest
from websockets.frames import Frame as LibraryFrame
from websockets.frames import Opcode

from web.sockets.frames import Frame


@pytest.mark.parametrize("size", [30, 125, 126, 65_535, 65_536])  # each length form and its edges
def test_the_wire_bytes_are_an_unmasked_final_text_frame(size: int) -> None:
    frame = Frame({"type": "change", "pad": "é" + "x" * (size - 28)})  # 28: the rest of the JSON
    data = frame.text.encode()
    assert len(data) == size
    assert orjson.loads(data)["type"] == "change"
    assert frame.wire == LibraryFrame(Opcode.TEXT, data).serialize(mask=False)


def test_a_frame_of_json_already_encoded_is_the_same_frame() -> None:
    payload = {"type": "delta", "base": 3, "actions": 4, "pad": "é" * 200}
    made = Frame(payload)
    given = Frame.of_json(orjson.dumps(payload))
    assert given.wire == made.wire and given.text == made.text
    assert given.text is given.text  # decoded once, then the same string for every send
