"""A play socket stops playing once its player is signed out (token revoked, session ended) or
deactivated; and a deactivated player's results rank nowhere."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config.asgi import application
from games import services
from games.models import GameSession, Player, Result
from leaderboard.models import BoardEntry
from tests.conftest import make_player
from tests.security.snapshot import snapshot

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("socket_cleanup")]
ORIGIN = (b"origin", b"http://127.0.0.1")
HOST = (b"host", b"127.0.0.1")  # the origin check compares the Origin with the address the socket was opened on
CODE = "SD1-S4-AAAAAAA"
PASSWORD = "a long passphrase 7"


def prepare() -> tuple[Player, str, str]:
    player = make_player("sam", PASSWORD)
    session, _ = services.start_session(player=player, code=CODE)
    return player, str(session.id), Token.objects.create(user=player).key


async def open_socket(session_id: str, headers: list[tuple[bytes, bytes]]) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(application, f"/ws/play/{session_id}/", headers=[ORIGIN, HOST, *headers])
    assert (await socket.connect(timeout=5))[0]
    hello = await socket.receive_json_from(timeout=5)
    assert hello["type"] == "session"
    return socket


async def assert_refused_and_closed(socket: WebsocketCommunicator, message: dict[str, Any]) -> None:
    before = await database_sync_to_async(snapshot)()
    await socket.send_json_to(message)
    refused = await socket.receive_json_from(timeout=5)
    assert refused["type"] == "error" and refused["status"] == 401
    assert "signed out" in refused["error"]["message"]
    closed = await socket.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4401}
    assert await database_sync_to_async(snapshot)() == before


async def play_one(socket: WebsocketCommunicator) -> None:
    await socket.send_json_to({"type": "action", "action": "1:1>2", "at": 1})
    assert (await socket.receive_json_from(timeout=5))["actions"] == 1


@pytest.mark.parametrize("message", [{"type": "action", "action": "D"}, {"type": "finish"}, {"type": "sync"}])
async def test_a_socket_whose_token_was_revoked_at_log_out_stops(message: dict[str, Any]) -> None:
    _, session_id, token = await database_sync_to_async(prepare)()
    socket = await open_socket(session_id, [(b"authorization", f"Token {token}".encode())])
    await play_one(socket)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert (await database_sync_to_async(api.post)("/api/auth/logout")).status_code == 200
    await assert_refused_and_closed(socket, message)


async def test_a_socket_of_a_deactivated_player_stops_and_its_finish_ranks_nothing() -> None:
    player, session_id, token = await database_sync_to_async(prepare)()
    socket = await open_socket(session_id, [(b"authorization", f"Token {token}".encode())])
    await play_one(socket)

    def deactivate() -> None:  # as the admin does: a save of the player
        found = Player.objects.get(pk=player.pk)
        found.is_active = False
        found.save()

    await database_sync_to_async(deactivate)()
    await assert_refused_and_closed(socket, {"type": "finish"})
    assert not await database_sync_to_async(Result.objects.exists)()


async def test_a_browser_socket_stops_once_its_session_is_logged_out() -> None:
    def browser_session() -> tuple[Client, str, str]:
        make_player("sam", PASSWORD)
        browser = Client()
        answer = browser.post(
            "/api/auth/login", {"username": "sam", "password": PASSWORD}, content_type="application/json"
        )
        assert answer.status_code == 200
        player = Player.objects.get(username="sam")
        session, _ = services.start_session(player=player, code=CODE)
        return browser, str(session.id), browser.cookies["sessionid"].value

    browser, session_id, cookie = await database_sync_to_async(browser_session)()
    socket = await open_socket(session_id, [(b"cookie", f"sessionid={cookie}".encode())])
    await play_one(socket)
    csrf = browser.cookies["csrftoken"].value if "csrftoken" in browser.cookies else ""
    logout = await database_sync_to_async(browser.post)("/api/auth/logout", HTTP_X_CSRFTOKEN=csrf)
    assert logout.status_code == 200
    await assert_refused_and_closed(socket, {"type": "action", "action": "D"})


async def test_a_socket_still_signed_in_plays_on() -> None:
    _, session_id, token = await database_sync_to_async(prepare)()
    socket = await open_socket(session_id, [(b"authorization", f"Token {token}".encode())])
    await play_one(socket)
    await socket.send_json_to({"type": "finish"})
    assert (await socket.receive_json_from(timeout=5))["finished"] is True
    await socket.disconnect()


def test_a_result_of_a_player_deactivated_meanwhile_ranks_nowhere() -> None:
    player = make_player("sam", PASSWORD)
    session, _ = services.start_session(player=player, code=CODE)
    services.apply_action(player=player, session_id=str(session.id), token="1:1>2", at=None, now=timezone.now())
    Player.objects.filter(pk=player.pk).update(is_active=False)  # the player in hand does not know
    services.finish_session(player=player, session_id=str(session.id), now=timezone.now())
    assert GameSession.objects.get(pk=session.id).finished_at is not None
    assert Result.objects.filter(player=player).exists()  # stored, verified ...
    assert not BoardEntry.objects.exists()  # ... and ranked nowhere
