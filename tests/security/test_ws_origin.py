"""Every WebSocket path checks the Origin: a page on another site, another port of the same host
or the other scheme cannot open a socket with the player's cookies. The Origin must be the
address the socket was opened on (scheme, host and port, the host one of ALLOWED_HOSTS) or one of
CSRF_TRUSTED_ORIGINS."""

from __future__ import annotations

from typing import Any

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("socket_cleanup")]
PATHS = [
    "/ws/play/00000000-0000-0000-0000-000000000000/",
    "/ws/leaderboards/code:SP1-S1C-AAAAAAA/",
    "/ws/rooms/00000000-0000-0000-0000-000000000000/",
]
HOST = b"localhost:8000"


async def opens(path: str, headers: list[tuple[bytes, bytes]]) -> bool:
    socket = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await socket.connect(timeout=5)
    if connected:
        await socket.receive_output(timeout=5)
        await socket.disconnect()
    return connected


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize(
    "origin",
    [
        b"http://evil.example",
        b"http://127.0.0.1.evil.example",
        b"null",
        b"file://",
        b"http://localhost:6666",  # another port of the same host: another site
        b"http://localhost",  # port 80
        b"https://localhost",  # the other scheme, port 443
        b"https://localhost:8000",  # the other scheme, same port
        b"http://localhost:8000/page",  # not an origin
        b"http://localhost:8000:1",
        None,
    ],
)
async def test_a_foreign_or_missing_origin_is_refused(path: str, origin: bytes | None) -> None:
    headers = [(b"host", HOST)] + ([] if origin is None else [(b"origin", origin)])
    assert not await opens(path, headers)


@pytest.mark.parametrize("path", PATHS)
async def test_the_sites_own_origin_is_let_in(path: str) -> None:
    assert await opens(path, [(b"host", HOST), (b"origin", b"http://localhost:8000")])
    assert await opens(path, [(b"host", b"LOCALHOST:8000"), (b"origin", b"http://localhost:8000")])


async def test_a_host_the_site_does_not_answer_to_is_no_origin_of_its_own() -> None:
    assert not await opens(PATHS[1], [(b"host", b"evil.example"), (b"origin", b"http://evil.example")])


async def test_a_trusted_origin_is_let_in_with_its_scheme_and_port(settings: Any) -> None:
    settings.CSRF_TRUSTED_ORIGINS = ["https://league.example"]
    assert await opens(PATHS[1], [(b"host", HOST), (b"origin", b"https://league.example")])
    assert await opens(PATHS[1], [(b"host", HOST), (b"origin", b"https://league.example:443")])
    assert not await opens(PATHS[1], [(b"host", HOST), (b"origin", b"http://league.example")])
    assert not await opens(PATHS[1], [(b"host", HOST), (b"origin", b"https://league.example:8443")])


async def test_behind_a_tls_proxy_the_https_origin_is_the_sites_own(settings: Any) -> None:
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    secure = [(b"host", b"localhost"), (b"x-forwarded-proto", b"https")]
    assert await opens(PATHS[1], [*secure, (b"origin", b"https://localhost")])
    assert not await opens(PATHS[1], [*secure, (b"origin", b"http://localhost")])
    assert not await opens(PATHS[1], [(b"host", b"localhost"), (b"origin", b"https://localhost")])
