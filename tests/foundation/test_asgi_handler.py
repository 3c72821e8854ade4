"""The HTTP side of the ASGI application (web/http.py): Django's middleware and views in one
trip to the request's thread, with Django's answers: documents, error shapes, headers, CSRF,
the body limit, session and token players, streamed static files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import HttpCommunicator
from django.conf import settings
from django.test import Client
from rest_framework.authtoken.models import Token

from config.asgi import application
from games.models import Player
from tests.conftest import make_player
from web import http

pytestmark = pytest.mark.django_db(transaction=True)

BOARD = "code:SP1-S4C-AAAAAAD"


async def request(
    method: str, path: str, *, body: bytes = b"", headers: dict[str, str] | None = None, app: Any = application
) -> Any:
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
    headers = {name.decode().lower(): value.decode() for name, value in start.get("headers", [])}
    return {"status": start["status"], "headers": headers, "body": content}


@database_sync_to_async
def _token_for(player: Player) -> str:
    return str(Token.objects.get_or_create(user=player)[0].key)


@database_sync_to_async
def _browser(player: Player) -> tuple[str, str]:
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    assert client.get("/").status_code == 200
    return client.cookies[settings.SESSION_COOKIE_NAME].value, client.cookies["csrftoken"].value


async def test_a_leaderboard_read_as_a_token_player() -> None:
    player = await database_sync_to_async(make_player)()
    token = await _token_for(player)
    response = await request("GET", f"/api/leaderboards/{BOARD}", headers={"Authorization": f"Token {token}"})
    assert response["status"] == 200
    assert response["body"] == b'{"board":"code:SP1-S4C-AAAAAAD","entries":[],"next_cursor":null,"total":0,"me":null}'
    headers = response["headers"]
    assert headers["content-type"] == "application/json"
    assert headers["x-content-type-options"] == "nosniff" and headers["x-frame-options"] == "DENY"
    assert headers["content-language"] == "en"
    bad = await request("GET", f"/api/leaderboards/{BOARD}", headers={"Authorization": "Token " + "0" * 40})
    assert bad["status"] == 401 and b'"error"' in bad["body"]


async def test_the_api_error_shape_and_the_body_limit() -> None:
    missing = await request("GET", "/api/no-such-thing")
    assert missing["status"] == 404 and missing["body"].startswith(b'{"error":')
    too_big = settings.MAX_BODY_BYTES + 1
    big = await request(
        "POST",
        "/api/submissions",
        body=b" " * too_big,
        headers={"Content-Type": "application/json", "Content-Length": str(too_big)},
    )
    assert big["status"] == 413 and big["body"].startswith(b'{"error":')


async def test_a_session_player_needs_the_csrf_token_to_post_and_is_seen_on_reads() -> None:
    player = await database_sync_to_async(make_player)()
    session, csrf = await _browser(player)
    cookie = f"{settings.SESSION_COOKIE_NAME}={session}; csrftoken={csrf}"
    me = await request("GET", "/api/auth/me", headers={"Cookie": cookie})
    assert me["status"] == 200 and b'"username":"alice"' in me["body"]
    refused = await request("POST", "/api/auth/logout", headers={"Cookie": cookie, "Content-Type": "application/json"})
    assert refused["status"] == 403 and b"CSRF" in refused["body"]
    logged_out = await request(
        "POST",
        "/api/auth/logout",
        headers={"Cookie": cookie, "X-CSRFToken": csrf, "Origin": "http://testserver"},
    )
    assert logged_out["status"] == 200


@pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous iterators")  # Django's, as before
async def test_a_static_file_is_streamed_and_the_request_thread_is_kept() -> None:
    path = Path(settings.BASE_DIR) / "frontend/static/frontend/css/base.css"
    response = await request("GET", "/static/frontend/css/base.css")
    assert response["status"] == 200 and response["body"] == path.read_bytes()
    assert http._idle  # its thread went back to the list
    kept = http._idle[-1]
    again = await request("GET", "/static/frontend/css/base.css")
    assert again["status"] == 200 and http._idle[-1] is kept  # and served the next request
