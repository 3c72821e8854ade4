"""Every WebSocket path checks the Origin against the allowed hosts: a page on another site cannot
open a socket with the player's cookies."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("socket_cleanup")]
PATHS = [
    "/ws/play/00000000-0000-0000-0000-000000000000/",
    "/ws/leaderboards/code:SP1-S1C-AAAAAAA/",
    "/ws/rooms/00000000-0000-0000-0000-000000000000/",
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize(
    "origin",
    [b"http://evil.example", b"http://127.0.0.1.evil.example", b"null", b"file://", None],
)
async def test_a_foreign_or_missing_origin_is_refused(path: str, origin: bytes | None) -> None:
    headers = [] if origin is None else [(b"origin", origin)]
    socket = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await socket.connect(timeout=5)
    assert not connected


@pytest.mark.parametrize("path", PATHS)
async def test_the_sites_own_origin_is_let_in(path: str) -> None:
    socket = WebsocketCommunicator(application, path, headers=[(b"origin", b"http://localhost:8000")])
    connected, _ = await socket.connect(timeout=5)
    assert connected
    await socket.receive_output(timeout=5)
    await socket.disconnect()
