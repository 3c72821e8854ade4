"""The socket's middleware stack is run to fill the scope in, then left (web/sockets/resolved.py): the
socket is served with the session and user the stack resolved, its sends reach the client, and
neither the middlewares nor Channels' session wrapper (which acts on HTTP answers only) is kept."""

from __future__ import annotations

import gc
from typing import Any

import pytest
from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.sessions import InstanceSessionWrapper
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore

from tests.conftest import make_player
from web.sockets.resolved import Resolved

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("socket_cleanup")]


async def test_a_socket_is_served_with_what_the_stack_resolved_and_keeps_no_session_wrapper() -> None:
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    player = await database_sync_to_async(make_player)("resolved")
    session = SessionStore()
    session.update(
        {
            SESSION_KEY: str(player.pk),
            BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
            HASH_SESSION_KEY: player.get_session_auth_hash(),
        }
    )
    await database_sync_to_async(session.save)()
    seen: dict[str, Any] = {}

    async def socket(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen["user"] = await database_sync_to_async(lambda: scope["user"].pk)()
        seen["session_key"] = scope["session"].session_key
        gc.collect()
        # type(), not isinstance(): the heap holds weak proxies, and isinstance() asks a dead one's class
        seen["wrappers"] = sum(type(thing) is InstanceSessionWrapper for thing in gc.get_objects())
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": "sent beneath the wrapper"})
        await receive()

    application = Resolved(AuthMiddlewareStack, socket)
    cookie = f"sessionid={session.session_key}".encode()
    client = WebsocketCommunicator(application, "/ws/x/", headers=[(b"cookie", cookie)])
    connected, _ = await client.connect(timeout=5)
    assert connected
    assert await client.receive_from(timeout=5) == "sent beneath the wrapper"
    await client.disconnect()
    assert seen == {"user": player.pk, "session_key": session.session_key, "wrappers": 0}
