"""API tokens are for scripts: the browser's page never gets one; they expire; a player lists and
revokes them."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config.asgi import application
from games.services import start_session
from tests.conftest import make_player
from tests.security.snapshot import snapshot

PASSWORD = "a long passphrase 7"


def browser() -> tuple[Client, str]:
    page = Client(enforce_csrf_checks=True)
    assert page.get("/").status_code == 200  # the first visit: a guest and a CSRF cookie
    return page, page.cookies["csrftoken"].value


def script_log_in(name: str = "sam") -> str:
    answer = APIClient().post("/api/auth/login", {"username": name, "password": PASSWORD}, format="json")
    assert answer.status_code == 200, answer.content
    return str(answer.json()["token"])


def with_token(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/auth/signup", "/api/auth/login"])
def test_the_browsers_page_gets_no_token(path: str) -> None:
    if path.endswith("login"):
        make_player("sam", PASSWORD)
    page, csrf = browser()
    answer = page.post(
        path, {"username": "sam", "password": PASSWORD}, content_type="application/json", HTTP_X_CSRFTOKEN=csrf
    )
    assert answer.status_code in (200, 201), answer.content
    assert answer.json() == {"username": "sam"}
    assert not Token.objects.exists()
    assert page.get("/api/auth/me").json()["username"] == "sam"  # its session is the player's


@pytest.mark.django_db
def test_a_script_still_gets_a_working_token_with_its_expiry_listed() -> None:
    make_player("sam", PASSWORD)
    key = script_log_in()
    assert with_token(key).get("/api/auth/me").json()["username"] == "sam"
    listed = with_token(key).get("/api/auth/tokens").json()["tokens"]
    assert len(listed) == 1 and set(listed[0]) == {"id", "created", "expires"}
    assert key not in str(listed)
    created, expires = (dt.datetime.fromisoformat(listed[0][k].replace("Z", "+00:00")) for k in ("created", "expires"))
    assert (expires - created).total_seconds() == 30 * 24 * 3600


@pytest.mark.django_db
def test_an_expired_token_is_refused_and_log_in_gives_a_new_one(settings: Any) -> None:
    make_player("sam", PASSWORD)
    key = script_log_in()
    assert with_token(key).get("/api/auth/me").status_code == 200  # now in the token cache, too
    Token.objects.filter(key=key).update(created=timezone.now() - dt.timedelta(seconds=settings.TOKEN_SECONDS + 1))
    settings.TOKEN_SECONDS = 0  # the cached copy's creation time is past its expiry as well
    before = snapshot()
    refused = with_token(key).post("/api/sessions", {"variant": "SP1-S1C"}, format="json")
    assert refused.status_code == 401
    assert refused.json()["error"]["message"] == "That token has expired: log in again for a new one."
    assert snapshot() == before
    settings.TOKEN_SECONDS = 3600
    fresh = script_log_in()
    assert fresh != key
    assert with_token(fresh).get("/api/auth/me").status_code == 200


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("socket_cleanup")
async def test_an_expired_token_opens_no_socket(settings: Any) -> None:
    def prepare() -> tuple[str, str]:
        player = make_player("sam", PASSWORD)
        session, _ = start_session(player=player, code="SD1-S4-AAAAAAA")
        token = Token.objects.create(user=player)
        Token.objects.filter(pk=token.pk).update(created=timezone.now() - dt.timedelta(days=31))
        return str(session.id), token.key

    session_id, key = await database_sync_to_async(prepare)()
    socket = WebsocketCommunicator(
        application,
        f"/ws/play/{session_id}/",
        headers=[
            (b"origin", b"http://127.0.0.1"),
            (b"host", b"127.0.0.1"),
            (b"authorization", f"Token {key}".encode()),
        ],
    )
    assert (await socket.connect(timeout=5))[0]
    refused = await socket.receive_json_from(timeout=5)
    assert refused["type"] == "error" and refused["status"] == 401
    assert (await socket.receive_output(timeout=5))["type"] == "websocket.close"


@pytest.mark.django_db
def test_a_player_revokes_a_token_by_its_id() -> None:
    make_player("sam", PASSWORD)
    key = script_log_in()
    page = Client()
    signed_in = page.post("/api/auth/login", {"username": "sam", "password": PASSWORD}, content_type="application/json")
    assert signed_in.status_code == 200
    listed = page.get("/api/auth/tokens").json()["tokens"]
    assert len(listed) == 1
    before = snapshot()
    missing = page.delete("/api/auth/tokens/0000000000000000")
    assert missing.status_code == 404
    assert missing.json() == {"error": {"message": "You have no such token.", "index": None, "token": None}}
    assert snapshot() == before
    assert page.delete(f"/api/auth/tokens/{listed[0]['id']}").status_code == 200
    assert with_token(key).get("/api/auth/me").status_code == 401
    assert page.get("/api/auth/tokens").json() == {"tokens": []}


@pytest.mark.django_db
def test_another_players_token_cannot_be_revoked() -> None:
    make_player("sam", PASSWORD)
    make_player("eve", PASSWORD)
    sams = script_log_in("sam")
    sams_id = with_token(sams).get("/api/auth/tokens").json()["tokens"][0]["id"]
    before = snapshot()
    eves = script_log_in("eve")
    assert with_token(eves).delete(f"/api/auth/tokens/{sams_id}").status_code == 404
    after = snapshot()
    assert [row for row in after["authtoken.Token"] if row["key"] != eves] == before["authtoken.Token"]


@pytest.mark.django_db
def test_the_browsers_log_out_leaves_the_scripts_token_alone() -> None:
    make_player("sam", PASSWORD)
    key = script_log_in()
    page, csrf = browser()
    signed_in = page.post(
        "/api/auth/login",
        {"username": "sam", "password": PASSWORD},
        content_type="application/json",
        HTTP_X_CSRFTOKEN=csrf,
    )
    assert signed_in.status_code == 200
    out = page.post(
        "/api/auth/logout", content_type="application/json", HTTP_X_CSRFTOKEN=page.cookies["csrftoken"].value
    )
    assert out.status_code == 200
    assert page.get("/api/auth/me").status_code == 401  # the session has ended ...
    assert with_token(key).get("/api/auth/me").status_code == 200  # ... the script's token has not
