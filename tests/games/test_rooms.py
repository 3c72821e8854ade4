"""Race rooms: open, join, start, play through the games services, progress pushed, the final table."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.test import override_settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config.routing import websocket_urlpatterns
from games import services as games
from games.engine import GameCode
from games.models import GameSession, Player, Room
from games.rooms import rooms
from tests.leaderboard.factories import RUSSIAN_WIN, legal_walk, named, vector_log

APP = URLRouter(websocket_urlpatterns)


def _as(player: Player) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=player)[0].key}")
    return client


async def _socket(room_id: str, player: Player | None) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(APP, f"/ws/rooms/{room_id}/")
    if player is not None:
        communicator.scope["user"] = player
    assert (await communicator.connect())[0]
    return communicator


async def _latest(socket: WebsocketCommunicator) -> dict[str, Any]:
    """The last room message waiting on the socket (every action sends one)."""
    message = await socket.receive_json_from(timeout=2)
    while not await socket.receive_nothing(0.2):
        message = await socket.receive_json_from()
    assert message["type"] == "room"
    return message


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("socket_cleanup")
@override_settings(RATE_ACTIONS=10_000)
async def test_a_race_on_a_hidden_fresh_deal_from_lobby_to_final_table() -> None:
    host, guest = (
        await database_sync_to_async(named)("hostess"),
        await database_sync_to_async(named)("~guest-racer", guest=True),
    )
    created = await database_sync_to_async(lambda: _as(host).post("/api/rooms", {"variant": "SD1-S1"}, format="json"))()
    assert created.status_code == 201
    room = created.json()
    assert (room["state"], room["code"], room["variant"], room["you"]["host"]) == ("lobby", None, "SD1-S1", True)
    joined = await database_sync_to_async(lambda: _as(guest).post(f"/api/rooms/{room['id']}/join"))()
    assert [p["player"] for p in joined.json()["players"]] == ["hostess", "Guest"]

    host_socket, guest_socket = await _socket(room["id"], host), await _socket(room["id"], guest)
    await host_socket.receive_json_from()
    await guest_socket.receive_json_from()
    await guest_socket.send_json_to({"type": "start"})  # only the host may start
    refusal = await guest_socket.receive_json_from()
    assert refusal["type"] == "error" and refusal["status"] == 403
    await host_socket.send_json_to({"type": "start"})
    started = await host_socket.receive_json_from(timeout=2)
    assert started["state"] == "racing" and started["code"] is None and started["you"]["session"]
    guest_view = await guest_socket.receive_json_from(timeout=2)
    assert guest_view["you"]["session"] not in (None, started["you"]["session"])

    code = (await database_sync_to_async(Room.objects.get)(pk=room["id"])).code
    sessions = {
        player.pk: await database_sync_to_async(GameSession.objects.select_related("stored_code").get)(player=player)
        for player in (host, guest)
    }
    assert all(s.code_secret and s.stored_code.code == code for s in sessions.values())
    assert GameCode.parse(code).long  # a secret race is dealt a long code
    tokens = await database_sync_to_async(legal_walk)(code, 12)
    assert len(tokens) >= 5  # a random deal may run out of moves sooner (the guest plays 5)

    def play(player: Player, count: int) -> None:
        for token in tokens[:count]:
            games.apply_action(player=player, session_id=sessions[player.pk].id, token=token)

    await database_sync_to_async(play)(host, len(tokens))
    progress = await _latest(guest_socket)
    mine = next(p for p in progress["players"] if p["player"] == "hostess")
    assert (mine["moves"], mine["finished"], mine["result"]) == (len(tokens), False, None)
    await _latest(host_socket)

    await database_sync_to_async(games.finish_session)(player=host, session_id=sessions[host.pk].id)
    assert (await _latest(host_socket))["state"] == "racing"  # the guest is still playing
    hidden = await database_sync_to_async(lambda: APIClient().get(f"/api/rooms/{room['id']}").json())()
    finished_host = next(p for p in hidden["players"] if p["player"] == "hostess")
    assert hidden["code"] is None and finished_host["finished"] and finished_host["result"] is not None
    refused = await database_sync_to_async(lambda: APIClient().get(f"/api/results/{finished_host['result']}/replay"))()
    assert refused.status_code == 404 and code not in refused.content.decode()

    await database_sync_to_async(play)(guest, 5)
    await database_sync_to_async(games.finish_session)(player=guest, session_id=sessions[guest.pk].id)
    final = await _latest(host_socket)
    assert (final["state"], final["code"]) == ("finished", code)
    assert [p["finished"] for p in final["players"]] == [True, True]
    assert all(p["result"] is not None for p in final["players"])
    keys = [(-p["sequences"], -p["score"], p["moves"]) for p in final["players"]]
    assert keys == sorted(keys)  # the final table is ranked like a board
    cleared = await database_sync_to_async(
        lambda: list(GameSession.objects.filter(room_member__room_id=room["id"]).values_list("code_secret", flat=True))
    )()
    assert cleared == [False, False]
    replay = await database_sync_to_async(
        lambda: APIClient().get(f"/api/results/{final['players'][0]['result']}/replay").json()
    )()
    assert replay["result"]["code"] == code
    for socket in (host_socket, guest_socket):
        await socket.disconnect()


@pytest.mark.django_db
@override_settings(RATE_ACTIONS=10_000)
def test_a_race_on_a_code_is_won_and_the_host_rules_the_room(api: APIClient) -> None:
    host, rival, late = named("host2"), named("rival"), named("late")
    room = _as(host).post("/api/rooms", {"code": RUSSIAN_WIN.lower()}, format="json").json()
    assert room["code"] == RUSSIAN_WIN  # a chosen code was never secret
    assert _as(rival).post(f"/api/rooms/{room['id']}/join").status_code == 200
    assert _as(rival).post(f"/api/rooms/{room['id']}/start").status_code == 403
    assert _as(host).post(f"/api/rooms/{room['id']}/start").json()["state"] == "racing"
    assert _as(late).post(f"/api/rooms/{room['id']}/join").status_code == 409
    assert _as(host).post(f"/api/rooms/{room['id']}/start").status_code == 409
    session = GameSession.objects.get(player=rival)
    assert not session.code_secret and session.board == f"code:{RUSSIAN_WIN}"
    for token in vector_log(RUSSIAN_WIN):  # the rival wins: the game ends by itself
        games.apply_action(player=rival, session_id=session.id, token=token)
    rooms.member_progressed(session=GameSession.objects.get(pk=session.pk))
    assert Room.objects.get(pk=room["id"]).state == "racing"  # the host has not finished
    ended = _as(host).post(f"/api/rooms/{room['id']}/end").json()
    assert ended["state"] == "finished"
    winner, stopped = ended["players"]
    assert (winner["player"], winner["won"], winner["cards_home"], winner["finished"]) == ("rival", True, 52, True)
    # The host's open game ended as it stood when the race was called: the table is final and verified.
    assert winner["result"] is not None and (stopped["player"], stopped["finished"], stopped["won"]) == (
        "host2",
        True,
        False,
    )
    assert stopped["result"] is not None and GameSession.objects.filter(finished_at=None).count() == 0


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({}, 400, "exactly one"),
        ({"variant": "SP1-S4C", "code": RUSSIAN_WIN}, 400, "exactly one"),
        ({"variant": "XX1-S4"}, 422, "Unknown game"),
        ({"code": "RU1-C-AAA"}, 422, "7 or 20 letters"),
        ({"variant": 7}, 400, "variant"),
    ],
)
def test_bad_rooms_are_refused(body: dict, status: int, words: str) -> None:
    response = _as(named("opener")).post("/api/rooms", body, format="json")
    assert response.status_code == status and words in response.json()["error"]["message"]


@pytest.mark.django_db
def test_rooms_need_a_player_and_a_real_room(api: APIClient) -> None:
    # No player and no page's CSRF token: no guest is made for it.
    assert (
        APIClient(enforce_csrf_checks=True).post("/api/rooms", {"variant": "RU1-C"}, format="json").status_code == 403
    )
    assert not Player.objects.exists()
    assert api.get("/api/rooms/not-a-room").status_code == 404
    assert api.get("/api/rooms/00000000-0000-0000-0000-000000000000").json()["error"]["message"] == "No such race room."
