"""The browser's session is protected by CSRF: every POST without the page's token is refused (403,
in the error shape) and changes nothing; with it, the call goes through. Scripts with a token need none."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Player
from tests.security.snapshot import snapshot
from tests.security.test_limits import POSTS, filled

pytestmark = pytest.mark.django_db


def browser(player: Player) -> tuple[Client, str]:
    """A signed-in browser that has loaded a page, so it holds the CSRF cookie."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    assert client.get("/").status_code == 200
    return client, client.cookies["csrftoken"].value


@pytest.mark.parametrize("path", POSTS)
def test_a_browser_post_without_the_csrf_token_is_refused_and_changes_nothing(path: str, player: Player) -> None:
    client, token = browser(player)
    url = filled(path, player)
    body = {"code": "SP1-S1C-AAAAAAA", "moves": [], "action": "D", "username": "newname", "password": "x y z 1 2 3"}
    before = snapshot()
    refused = client.post(url, body, content_type="application/json")
    assert refused.status_code == 403
    assert "CSRF" in refused.json()["error"]["message"]
    forged = client.post(url, body, content_type="application/json", HTTP_X_CSRFTOKEN="x" * 64)
    assert forged.status_code == 403
    assert snapshot() == before
    allowed = client.post(url, body, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert allowed.status_code != 403 or "CSRF" not in allowed.json()["error"]["message"]


@pytest.mark.parametrize("page", ["/", "/account/signup/", "/account/signin/", "/rooms/"])
def test_every_form_page_hands_out_the_csrf_cookie(page: str) -> None:
    client = Client(enforce_csrf_checks=True)
    assert client.get(page).status_code == 200
    assert client.cookies["csrftoken"].value
    assert client.cookies["csrftoken"]["samesite"] == "Lax"


def test_the_session_cookie_is_not_readable_by_scripts() -> None:
    client = Client(enforce_csrf_checks=True)
    assert client.get("/").status_code == 200
    token = client.cookies["csrftoken"].value
    first_game = client.post(
        "/api/sessions", {"variant": "SP1-S1C"}, content_type="application/json", HTTP_X_CSRFTOKEN=token
    )
    assert first_game.status_code == 201  # the browser's guest is made now, with its session
    assert client.cookies["sessionid"]["httponly"] is True
