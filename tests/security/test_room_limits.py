"""Race rooms under the limits (issue 40, item 6): opening rooms has its own limit, and the games
a race's start makes count against each racer's new-games limit, as games started on their own do.
The host over it cannot start; another racer over it is left out, and the race goes on without them."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import GameSession, Player, Room, RoomMember
from tests.conftest import make_player
from tests.security.snapshot import snapshot

pytestmark = pytest.mark.django_db
CODE = "SP1-S1C-AAAAAAA"


def as_player(player: Player, address: str = "127.0.0.1") -> APIClient:
    client = APIClient(REMOTE_ADDR=address)
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=player)[0].key}")
    return client


def assert_limited(response: Any, words: str) -> None:
    assert response.status_code == 429, response.content
    assert int(response["Retry-After"]) >= 1
    assert words in response.json()["error"]["message"]


def open_room(client: APIClient) -> Any:
    return client.post("/api/rooms", {"code": CODE}, format="json")


def test_opening_rooms_is_limited_by_default() -> None:
    """The probe's 80 rooms in a row, all 201: now the default limit holds them back."""
    from django.conf import settings

    host = as_player(make_player("alice"))
    answers = [open_room(host).status_code for _ in range(settings.RATE_ROOMS + 1)]
    assert answers == [201] * settings.RATE_ROOMS + [429]


def test_rooms_per_player(settings: Any) -> None:
    settings.RATE_ROOMS = 2
    alice = as_player(make_player("alice"))
    assert [open_room(alice).status_code for _ in range(2)] == [201, 201]
    before = snapshot()
    assert_limited(open_room(alice), "You have opened too many race rooms.")
    assert snapshot() == before
    assert open_room(as_player(make_player("bob"))).status_code == 201  # another player is not held back


def test_rooms_per_address(settings: Any) -> None:
    settings.RATE_ROOMS_PER_ADDRESS = 2
    assert open_room(as_player(make_player("alice"), "10.0.0.1")).status_code == 201
    assert open_room(as_player(make_player("bob"), "10.0.0.1")).status_code == 201
    carol = make_player("carol")
    assert_limited(open_room(as_player(carol, "10.0.0.1")), "Too many new race rooms from this address.")
    assert open_room(as_player(carol, "10.0.0.2")).status_code == 201


def test_a_refused_room_is_not_counted(settings: Any) -> None:
    settings.RATE_ROOMS = 1
    alice = as_player(make_player("alice"))
    assert alice.post("/api/rooms", {"variant": "no such"}, format="json").status_code in (400, 422)
    assert open_room(alice).status_code == 201


def test_a_race_start_counts_the_hosts_game_and_then_refuses_the_host(settings: Any) -> None:
    """40 rooms started made 40 games in 2 s while POST /api/sessions stopped at 30."""
    settings.RATE_SESSION_STARTS = 3
    alice = make_player("alice")
    client = as_player(alice)
    rooms = [open_room(client).json()["id"] for _ in range(4)]
    for room in rooms[:3]:
        assert client.post(f"/api/rooms/{room}/start").status_code == 200
    before = snapshot()
    refused = client.post(f"/api/rooms/{rooms[3]}/start")
    assert_limited(refused, "You have started too many games in the last minute")
    assert snapshot() == before  # the room is still waiting; no game was made
    assert Room.objects.get(pk=rooms[3]).state == Room.State.LOBBY
    assert_limited(client.post("/api/sessions", {"code": CODE}, format="json"), "Too many new games.")
    assert GameSession.objects.filter(player=alice).count() == 3


def test_games_started_alone_count_against_a_race_start(settings: Any) -> None:
    settings.RATE_SESSION_STARTS = 2
    client = as_player(make_player("alice"))
    room = open_room(client).json()["id"]
    for _ in range(2):
        assert client.post("/api/sessions", {"code": CODE}, format="json").status_code == 201
    assert_limited(client.post(f"/api/rooms/{room}/start"), "You have started too many games")


def test_a_racer_over_the_limit_is_left_out_and_the_race_goes_on(
    settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.RATE_SESSION_STARTS = 2
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")
    host = as_player(alice)
    room = open_room(host).json()["id"]
    for racer in (bob, carol):
        assert as_player(racer).post(f"/api/rooms/{room}/join").status_code == 200
    for _ in range(2):  # bob uses up his new games
        assert as_player(bob).post("/api/sessions", {"code": CODE}, format="json").status_code == 201
    started = host.post(f"/api/rooms/{room}/start")
    assert started.status_code == 200, started.content
    assert sorted(row["player"] for row in started.json()["players"]) == ["alice", "carol"]
    assert not RoomMember.objects.filter(room_id=room, player=bob).exists()
    assert GameSession.objects.filter(player=bob).count() == 2  # no third game for bob
    left_out = as_player(bob).get(f"/api/rooms/{room}").json()
    assert left_out["you"] == {"member": False, "host": False, "session": None}  # he watches
    for racer in (alice, carol):
        session = RoomMember.objects.get(room_id=room, player=racer).session_id
        with django_capture_on_commit_callbacks(execute=True):  # the finish tells the room once committed
            assert as_player(racer).post(f"/api/sessions/{session}/finish").status_code == 200
    assert Room.objects.get(pk=room).state == Room.State.FINISHED  # nobody left out holds the race open
