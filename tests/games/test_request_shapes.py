"""What the OpenAPI document says a request may hold, the service holds to: an unknown body field is
named and refused, a date is YYYY-MM-DD and nothing else, an empty choice is no choice. Each a 400
that changes nothing (the fuzzer, tests/fuzz, checks the document against the service as a whole)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.models import GameSession, Player

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "path, body",
    [
        ("/api/sessions", {"variant": "SP1-S4C", "dayly": "SP1-S4C"}),
        ("/api/submissions", {"code": "SP1-S4C-AAAAAAA", "moves": [], "claimed_scor": 5}),
        ("/api/rooms", {"variant": "SP1-S4C", "private": True}),
        ("/api/auth/login", {"username": "alice", "password": "correct horse 9", "remember": True}),
    ],
)
def test_an_unknown_body_field_is_named_and_refused(
    path: str, body: dict[str, object], player: Player, player_api: APIClient
) -> None:
    response = player_api.post(path, body, format="json")
    assert response.status_code == 400, response.content
    unknown = next(name for name in body if name not in ("variant", "code", "moves", "username", "password"))
    assert f"Unknown field '{unknown}'" in response.json()["error"]["message"]
    assert not GameSession.objects.exists()


@pytest.mark.parametrize("date", ["", "20261130", "2026-W48-1", "2026-11-30T00:00", "2026-02-30", "26-11-30"])
@pytest.mark.parametrize(
    "path", ["/api/daily?date=", "/api/daily/recap?variant=SP1-S4C&date=", "/api/leaderboards/archive?before="]
)
def test_a_date_is_a_day_written_yyyy_mm_dd(path: str, date: str, player_api: APIClient) -> None:
    response = player_api.get(path + date)
    assert response.status_code == 400, response.content
    assert response.json()["error"]["message"] == "The date must look like 2026-11-30."


@pytest.mark.parametrize(
    "path",
    ["/api/leaderboards/archive?variant=", "/api/leaderboards/all-time/SP1-S4C?by=", "/api/daily/recap?variant="],
)
def test_an_empty_choice_is_refused_not_taken_for_none(path: str, player_api: APIClient) -> None:
    assert player_api.get(path).status_code == 400


def test_a_group_is_column_count_and_nothing_after(player_api: APIClient) -> None:
    session = player_api.post("/api/sessions", {"code": "SP1-S4C-AAAAAAA"}, format="json").json()
    asked = player_api.get(f"/api/sessions/{session['id']}/why", {"group": "10:1"})
    assert asked.status_code == 200 and asked.json()["group"] == "10:1"
    refused = player_api.get(f"/api/sessions/{session['id']}/why", {"group": "10:1\n"})
    assert refused.status_code == 400, refused.content


def test_a_board_date_is_a_day_written_yyyy_mm_dd(api: APIClient) -> None:
    for board in ("daily:2026W481:SP1-S4C", "daily:2026-W48-1:SP1-S4C", "daily:2026-02-30:SP1-S4C"):
        response = api.get(f"/api/leaderboards/{board}")
        assert response.status_code == 400, (board, response.content)
