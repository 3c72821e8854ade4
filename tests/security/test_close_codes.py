"""A socket closed for its frames (too large, too many) is closed with the service's own code, on a
real worker: daphne refuses 1008 and 1009 from an application, so such a close raised inside it,
logged a traceback, and the client saw 1011."""

from __future__ import annotations

import asyncio
import json

import pytest
import websockets

from tests.security.conftest import Worker
from web.sockets import close_codes

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]  # a real worker, on the test database
BOARD = "/ws/leaderboards/code:SP1-S1C-AAAAAAA/"


async def closed_with(worker: Worker, frames: list[str]) -> int:
    async with websockets.connect(f"ws://127.0.0.1:{worker.port}{BOARD}", origin=worker.origin) as socket:
        assert json.loads(await asyncio.wait_for(socket.recv(), 10))["type"] == "snapshot"
        try:
            for frame in frames:
                await socket.send(frame)
            while True:
                await asyncio.wait_for(socket.recv(), 10)
        except websockets.ConnectionClosed as closed:
            assert closed.rcvd is not None
            return closed.rcvd.code
    raise AssertionError("the socket was not closed")


async def test_a_frame_over_the_cap_closes_with_4413(worker: Worker) -> None:
    assert await closed_with(worker, ["x" * (64 * 1024 + 1)]) == close_codes.CLOSE_TOO_LARGE == 4413
    assert "Traceback" not in worker.log_text()


async def test_a_flood_closes_with_4429(worker: Worker) -> None:
    assert await closed_with(worker, ['{"type": "ping"}'] * 40) == close_codes.CLOSE_TOO_MANY == 4429
    assert "Traceback" not in worker.log_text()


def test_every_code_is_one_daphne_lets_an_application_send_and_the_browser_reads() -> None:
    codes = {name: value for name, value in vars(close_codes).items() if name.startswith("CLOSE_")}
    assert codes == {
        "CLOSE_RESTARTING": 4012,
        "CLOSE_BAD_INPUT": 4400,
        "CLOSE_SIGNED_OUT": 4401,
        "CLOSE_NOT_FOUND": 4404,
        "CLOSE_TOO_LARGE": 4413,
        "CLOSE_TOO_MANY": 4429,
    }
    assert all(3000 <= code <= 4999 for code in codes.values())
    assert all(code in close_codes.FINAL for name, code in codes.items() if name != "CLOSE_RESTARTING")
