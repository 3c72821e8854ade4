"""HTTP requests sent through the ASGI application as the server serves them (config.asgi), and the
players that send them: by token, or as a browser with a session and its CSRF token."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.testing import HttpCommunicator
from django.conf import settings
from django.test import Client
from rest_framework.authtoken.models import Token

from config.asgi import application
from games.models import Player


async def request(
    method: str, path: str, *, body: bytes = b"", headers: dict[str, str] | None = None, app: Any = application
) -> dict[str, Any]:
    """The answer: {"status", "headers" (names in lower case), "body"}."""
    sent = {"Host": "testserver", **(headers or {})}
    pairs = [(name.lower().encode(), value.encode()) for name, value in sent.items()]
    communicator = HttpCommunicator(app, method, path, body=body, headers=pairs)
    try:
        await communicator.send_input({"type": "http.request", "body": body})
        start = await communicator.receive_output(timeout=10)
        assert start["type"] == "http.response.start"
        content, more = b"", True
        while more:  # a streamed body may end with a message without "body" (ASGI allows it)
            chunk = await communicator.receive_output(timeout=10)
            assert chunk["type"] == "http.response.body"
            content, more = content + chunk.get("body", b""), chunk.get("more_body", False)
    finally:
        await communicator.wait(timeout=10)
    answered = {name.decode().lower(): value.decode() for name, value in start.get("headers", [])}
    return {"status": start["status"], "headers": answered, "body": content}


@database_sync_to_async
def token_for(player: Player) -> str:
    return str(Token.objects.get_or_create(user=player)[0].key)


@database_sync_to_async
def browser(player: Player) -> tuple[str, str]:
    """A signed-in browser's session cookie and CSRF token, as the site's first page gives them."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    assert client.get("/").status_code == 200
    return client.cookies[settings.SESSION_COOKIE_NAME].value, client.cookies["csrftoken"].value
