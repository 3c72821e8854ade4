"""Caps: body size (413), JSON depth (400), log length (10,000 actions, in a session and a submission).
Each refusal is a clear 4xx in the error shape and changes nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.engine import MAX_LOG_TOKENS
from games.models import GameAction, GameSession, Player
from games.rooms import rooms
from games.services import start_session
from tests.security.snapshot import snapshot

pytestmark = pytest.mark.django_db

CODE = "SP1-S1C-AAAAAAA"
# Every POST of the API; test_the_list_of_posts_is_complete keeps it in step with the schema.
POSTS = [
    "/api/auth/signup",
    "/api/auth/login",
    "/api/auth/logout",
    "/api/sessions",
    "/api/sessions/{session_id}/actions",
    "/api/sessions/{session_id}/finish",
    "/api/sessions/{session_id}/hint",
    "/api/sessions/{session_id}/play-out",
    "/api/submissions",
    "/api/rooms",
    "/api/rooms/{room_id}/join",
    "/api/rooms/{room_id}/start",
    "/api/rooms/{room_id}/end",
    "/api/rooms/{room_id}/rematch",
    "/api/match",
    "/api/challenges",
    "/api/challenges/{challenge_id}/accept",
    "/api/challenges/{challenge_id}/decline",
]


def filled(path: str, player: Player) -> str:
    session, _ = start_session(player=player, code=CODE)
    room = rooms.create_room(host=player, code=CODE)
    # No such challenge: its answers take no body, and a body over the cap is refused before the view.
    return path.format(session_id=session.id, room_id=room.pk, challenge_id="00000000-0000-0000-0000-000000000000")


def assert_error(response: Any, status: int, words: str) -> None:
    assert response.status_code == status, (response.status_code, response.content[:300])
    error = response.json()["error"]
    assert words in error["message"] and error["index"] is None and error["token"] is None


def test_the_list_of_posts_is_complete(api: APIClient) -> None:
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    assert sorted(path for path, item in schema["paths"].items() if "post" in item) == sorted(POSTS)


@pytest.mark.parametrize("path", POSTS)
def test_a_body_over_the_limit_is_413_and_changes_nothing(
    path: str, player: Player, player_api: APIClient, settings: Any
) -> None:
    settings.MAX_BODY_BYTES = 4096
    url = filled(path, player)
    body = json.dumps({"code": CODE, "moves": ["D"] * 1000, "action": "D", "username": "x", "password": "y"})
    assert len(body) > settings.MAX_BODY_BYTES
    before = snapshot()
    response = player_api.post(url, body, content_type="application/json")
    assert_error(response, 413, "too large")
    assert "4096 bytes" in response.json()["error"]["message"]
    assert snapshot() == before


@pytest.mark.parametrize("path", POSTS)
def test_json_nested_too_deeply_is_400_and_changes_nothing(path: str, player: Player, player_api: APIClient) -> None:
    url = filled(path, player)
    before = snapshot()
    response = player_api.post(url, "[" * 5000 + "]" * 5000, content_type="application/json")
    if response.status_code != 400:  # calls that take no body never parse it
        assert path.endswith(
            ("/logout", "/finish", "/hint", "/play-out", "/join", "/start", "/end", "/rematch", "/accept", "/decline")
        ), response.status_code
        return
    assert_error(response, 400, "nested too deeply")
    assert snapshot() == before


@pytest.mark.parametrize("depth", [900, 990, 5000])
def test_deep_json_inside_a_field_is_refused_not_a_crash(player_api: APIClient, depth: int) -> None:
    nested = "[" * depth + "]" * depth
    for url, body in [
        ("/api/submissions", f'{{"code": "{CODE}", "moves": ["D", {nested}], "key": "deep"}}'),
        ("/api/sessions", f'{{"code": {nested}}}'),
    ]:
        response = player_api.post(url, body, content_type="application/json")
        assert response.status_code in {400, 422}, (url, depth, response.status_code)
        assert response.json()["error"]["message"]


def _ten_thousand() -> list[str]:
    """A legal log of exactly 10,000 actions: a move and its undo, again and again."""
    return ["4:1>10", "U"] * (MAX_LOG_TOKENS // 2)


def test_a_session_stops_taking_actions_at_10000(player: Player, player_api: APIClient) -> None:
    session, _ = start_session(player=player, code=CODE)
    GameAction.objects.bulk_create(
        GameAction(session=session, seq=seq, token=token) for seq, token in enumerate(_ten_thousand(), start=1)
    )
    GameSession.objects.filter(pk=session.pk).update(action_count=MAX_LOG_TOKENS)
    before = snapshot()
    response = player_api.post(f"/api/sessions/{session.id}/actions", {"action": "D"}, format="json")
    assert response.status_code == 422
    error = response.json()["error"]
    assert "10,000 actions" in error["message"] and "Finish it" in error["message"]
    assert error["index"] == MAX_LOG_TOKENS + 1 and error["token"] == "D"
    assert snapshot() == before
    # It can still be finished: the whole stored log is verified by replay.
    finished = player_api.post(f"/api/sessions/{session.id}/finish").json()
    assert finished["result"]["actions"] == MAX_LOG_TOKENS and finished["result"]["score"] == 500


def test_a_submission_of_exactly_10000_actions_is_verified(player_api: APIClient) -> None:
    response = player_api.post("/api/submissions", {"code": CODE, "moves": _ten_thousand()}, format="json")
    assert response.status_code == 201
    assert response.json()["result"]["actions"] == MAX_LOG_TOKENS
    assert response.json()["result"]["verified_at"] <= timezone.now().isoformat()
