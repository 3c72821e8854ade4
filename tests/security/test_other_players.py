"""Another player's game: acting on it, finishing it or reading it is answered exactly like a missing
game (404), over HTTP and the socket, and changes nothing; racers in one room included."""

from __future__ import annotations

import uuid

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config.asgi import application
from games.models import Player, RoomMember
from games.rooms import rooms
from tests.conftest import make_player
from tests.security.snapshot import snapshot

CODE = "SD1-S2-AAAAAAA"


def as_player(player: Player) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=player)[0].key}")
    return client


def racing_sessions() -> tuple[Player, Player, str]:
    """Alice and Mallory in one started race: each has a session on the same deal."""
    alice, mallory = make_player("alice"), make_player("mallory")
    room = rooms.create_room(host=alice, code=CODE)
    rooms.join_room(room_id=room.pk, player=mallory)
    rooms.start_room(room_id=room.pk, player=alice)
    session = RoomMember.objects.get(room=room, player=alice).session
    assert session is not None
    return alice, mallory, str(session.pk)


@pytest.mark.django_db
def test_a_racer_cannot_touch_another_racers_game() -> None:
    alice, mallory, session_id = racing_sessions()
    intruder = as_player(mallory)
    missing = str(uuid.uuid4())
    before = snapshot()
    for method, suffix, body in [
        ("get", "", None),
        ("post", "/actions", {"action": "D"}),
        ("post", "/actions", {"action": "U"}),
        ("post", "/finish", None),
    ]:
        call = getattr(intruder, method)
        theirs = call(f"/api/sessions/{session_id}{suffix}", body, format="json")
        nowhere = call(f"/api/sessions/{missing}{suffix}", body, format="json")
        assert theirs.status_code == nowhere.status_code == 404
        assert (
            theirs.json()
            == nowhere.json()
            == {"error": {"message": "No such game session.", "index": None, "token": None}}
        )
    assert snapshot() == before
    assert as_player(alice).get(f"/api/sessions/{session_id}").status_code == 200


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("socket_cleanup")
async def test_the_socket_of_another_players_game_says_only_not_found() -> None:
    _alice, mallory, session_id = await database_sync_to_async(racing_sessions)()
    token = await database_sync_to_async(lambda: Token.objects.create(user=mallory).key)()
    answers = []
    for target in (session_id, str(uuid.uuid4())):
        socket = WebsocketCommunicator(
            application,
            f"/ws/play/{target}/",
            headers=[
                (b"origin", b"http://127.0.0.1"),
                (b"host", b"127.0.0.1"),
                (b"authorization", f"Token {token}".encode()),
            ],
        )
        assert (await socket.connect(timeout=5))[0]
        answers.append(await socket.receive_json_from(timeout=5))
        assert (await socket.receive_output(timeout=5)) == {"type": "websocket.close", "code": 4404}
    assert answers[0] == answers[1] and answers[0]["status"] == 404
