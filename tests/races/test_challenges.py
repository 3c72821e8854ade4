"""Challenges by name: sent, pushed to the invitee's own socket, accepted, declined, expired; the refusals."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config.routing import websocket_urlpatterns
from games.models import GameSession, Player, Room
from races import challenges
from races.models import Challenge, MatchedRace
from tests.conftest import make_player
from tests.security.snapshot import snapshot

APP = URLRouter(websocket_urlpatterns)
VARIANT = "RU1-C"
CODE = "SP1-S1C-AAAAAAA"


def _as(player: Player) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=player)[0].key}")
    return client


def _send(challenger: Player, name: str, **extra: str) -> object:
    return _as(challenger).post("/api/challenges", {"name": name, "variant": VARIANT}, format="json", **extra)


@pytest.mark.django_db
def test_a_challenge_accepted_starts_a_race_of_both_on_a_hidden_fresh_deal() -> None:
    ada, bo = make_player("ada"), make_player("bo")
    sent = _send(ada, " BO ")
    assert sent.status_code == 201
    challenge = sent.json()
    assert (challenge["challenger"], challenge["invitee"], challenge["state"]) == ("ada", "bo", "pending")
    assert _as(bo).get("/api/challenges").json()["challenges"][0]["id"] == challenge["id"]
    accepted = _as(bo).post(f"/api/challenges/{challenge['id']}/accept")
    assert accepted.status_code == 200 and accepted.json()["state"] == "accepted"
    room = Room.objects.get(pk=accepted.json()["room"])
    assert room.state == Room.State.RACING and room.code_secret and room.host == ada
    assert set(room.members.values_list("player__username", flat=True)) == {"ada", "bo"}
    assert GameSession.objects.filter(room_member__room=room).count() == 2
    assert MatchedRace.objects.get(room=room).how == "challenge"
    again = _as(bo).post(f"/api/challenges/{challenge['id']}/accept")
    assert again.status_code == 409 and "answered already" in again.json()["error"]["message"]
    assert Room.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("spent", "language", "words"),
    [
        ("bo", "en", "You have started too many games in the last minute: accept the challenge once you may"),
        ("ada", "en", "Your challenger has started too many games in the last minute: accept the challenge once"),
        ("bo", "fi", "hyväksy haaste, kun saat"),
        ("ada", "hr", "Vaš izazivač ima previše novih igara"),
    ],
)
def test_an_accept_while_either_may_not_start_a_game_is_refused_in_words_and_writes_nothing(
    settings: Any, spent: str, language: str, words: str
) -> None:
    settings.RATE_SESSION_STARTS = 2
    players = {"ada": make_player("ada"), "bo": make_player("bo")}
    clients = {name: _as(player) for name, player in players.items()}
    challenge = _send(players["ada"], "bo").json()
    for _ in range(2):  # `spent` uses up their new games of the minute
        assert clients[spent].post("/api/sessions", {"code": CODE}, format="json").status_code == 201
    before = snapshot()
    refused = clients["bo"].post(f"/api/challenges/{challenge['id']}/accept", HTTP_ACCEPT_LANGUAGE=language)
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert words in refused.json()["error"]["message"]
    assert snapshot() == before  # no race of one: no room, no game, the challenge still open
    other = clients["ada" if spent == "bo" else "bo"]  # their game counted for the race is given back
    assert [other.post("/api/sessions", {"code": CODE}, format="json").status_code for _ in range(3)] == [201, 201, 429]
    settings.RATE_SESSION_STARTS = 10  # once both may start a game, the same challenge is accepted
    accepted = clients["bo"].post(f"/api/challenges/{challenge['id']}/accept")
    assert accepted.status_code == 200
    room = Room.objects.get(pk=accepted.json()["room"])
    assert set(room.members.values_list("player__username", flat=True)) == {"ada", "bo"}


@pytest.mark.django_db
def test_a_challenge_declined_makes_no_room_and_cannot_be_accepted_after() -> None:
    ada, bo = make_player("ada"), make_player("bo")
    challenge = _send(ada, "bo").json()
    declined = _as(bo).post(f"/api/challenges/{challenge['id']}/decline")
    assert declined.status_code == 200 and declined.json()["state"] == "declined"
    assert _as(bo).post(f"/api/challenges/{challenge['id']}/accept").status_code == 409
    assert not Room.objects.exists()
    assert _as(bo).get("/api/challenges").json()["challenges"] == []


@pytest.mark.django_db
def test_an_expired_challenge_is_refused_and_writes_nothing() -> None:
    ada, bo = make_player("ada"), make_player("bo")
    then = timezone.now() - dt.timedelta(seconds=challenges.CHALLENGE_SECONDS + 1)
    old = challenges.challenge(challenger=ada, name="bo", variant=VARIANT, now=then)
    refused = _as(bo).post(f"/api/challenges/{old['id']}/accept")
    assert refused.status_code == 409 and "expired" in refused.json()["error"]["message"]
    assert Challenge.objects.get().state == "pending" and not Room.objects.exists()
    assert _as(bo).get("/api/challenges").json()["challenges"] == []


@pytest.mark.django_db
def test_only_the_invitee_answers_and_strangers_see_nothing() -> None:
    ada, cy = make_player("ada"), make_player("cy")
    make_player("bo")
    challenge = _send(ada, "bo").json()
    by_challenger = _as(ada).post(f"/api/challenges/{challenge['id']}/accept")
    assert by_challenger.status_code == 403
    assert _as(cy).post(f"/api/challenges/{challenge['id']}/accept").status_code == 404
    assert _as(cy).post("/api/challenges/not-an-id/decline").status_code == 404
    assert Challenge.objects.get().state == "pending" and not Room.objects.exists()


@pytest.mark.django_db
def test_abuse_is_refused_in_words(settings: object) -> None:
    ada = make_player("ada")
    make_player("bo")
    gone = make_player("gone")
    Player.objects.filter(pk=gone.pk).update(is_active=False)
    assert _send(ada, "ada").status_code == 422
    assert _send(ada, "nobody").status_code == 404
    assert _send(ada, "gone").status_code == 404
    assert _send(ada, "~guest-x").status_code == 404
    guest = Player.objects.create(username="~guest", is_guest=True)
    assert _send(guest, "bo").status_code == 403
    assert not Challenge.objects.exists()
    settings.RATE_CHALLENGES = 2  # type: ignore[attr-defined]
    assert [_send(ada, "bo").status_code for _ in range(3)] == [201, 201, 429]
    flood = _send(ada, "bo", HTTP_ACCEPT_LANGUAGE="hr")
    assert flood.status_code == 429 and flood["Retry-After"]
    assert "izazov" in flood.json()["error"]["message"]
    assert Challenge.objects.count() == 2


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("socket_cleanup")
async def test_the_invitation_and_the_answer_reach_both_players_own_sockets() -> None:
    ada, bo = await database_sync_to_async(make_player)("ada"), await database_sync_to_async(make_player)("bo")
    sockets = []
    for player in (ada, bo):
        socket = WebsocketCommunicator(APP, "/ws/me/")
        socket.scope["user"] = player
        assert (await socket.connect())[0]
        assert await socket.receive_json_from(timeout=3) == {"type": "challenges", "challenges": []}
        sockets.append(socket)
    sent = await database_sync_to_async(lambda: _send(ada, "bo"))()
    for socket in sockets:
        told = await socket.receive_json_from(timeout=3)
        assert told["type"] == "challenge" and told["challenge"]["id"] == sent.json()["id"]
    await database_sync_to_async(lambda: _as(bo).post(f"/api/challenges/{sent.json()['id']}/accept"))()
    for socket in sockets:
        told = await socket.receive_json_from(timeout=3)
        assert told["challenge"]["state"] == "accepted" and told["challenge"]["room"]
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("socket_cleanup")
async def test_the_player_socket_refuses_who_is_not_signed_in() -> None:
    socket = WebsocketCommunicator(APP, "/ws/me/")
    assert (await socket.connect())[0]
    assert (await socket.receive_json_from(timeout=3))["status"] == 401
    assert (await socket.receive_output(timeout=3))["code"] == 4401
