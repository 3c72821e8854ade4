"""Input that PostgreSQL cannot take (a NUL in a name, a time past its calendar) is the client's
error: a 4xx in the error shape that changes nothing, never 503 "storage unavailable"."""

from __future__ import annotations

import base64

import pytest
from rest_framework.test import APIClient

from games.models import Player
from games.services import finish_session, start_session
from tests.conftest import make_player
from tests.security.snapshot import snapshot

pytestmark = pytest.mark.django_db


def cursor(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


@pytest.mark.parametrize(
    "path",
    [
        "/api/players/a%00b",
        "/api/players/alice%00",
        "/api/leaderboards/code:SP1-S1C-AAAAAAA%00",
        "/api/leaderboards/all-time/SP1%00",
        "/api/rooms/a%00b",
        "/api/results/1%00/replay",
        "/api/sessions/a%00b",
    ],
)
def test_a_nul_in_a_path_is_not_found(path: str, player: Player, player_api: APIClient) -> None:
    before = snapshot()
    response = player_api.get(path)
    assert response.status_code in (400, 404), (response.status_code, response.content[:300])
    assert set(response.json()["error"]) >= {"message", "index", "token"}
    assert snapshot() == before


def test_a_nul_in_a_player_page_address_is_not_found() -> None:
    before = snapshot()
    response = APIClient().get("/players/a%00b/")
    assert response.status_code == 404
    assert snapshot() == before


@pytest.mark.parametrize(
    "text",
    [
        "2026-01-01T00:00:00+16:00|5",  # the old form, with an offset PostgreSQL refuses
        "9" * 36,  # a digit short
        "9" * 38,  # a digit over
    ],
)
def test_a_cursor_this_server_did_not_make_is_400(text: str) -> None:
    alice = make_player("alice")
    session, _ = start_session(player=alice, code="SP1-S1C-AAAAAAA")
    finish_session(player=alice, session_id=session.id)
    before = snapshot()
    response = APIClient().get("/api/players/alice", {"cursor": cursor(text)})
    assert response.status_code == 400, response.content
    assert response.json()["error"]["message"] == "That cursor is not valid: use the next_cursor of the previous page."
    assert snapshot() == before


def test_a_cursor_written_otherwise_than_this_server_writes_it_is_400() -> None:
    """The same key with its padding, or with a last letter whose unused bits are set, decodes alike:
    only the server's own spelling is a cursor (the one the OpenAPI document's pattern allows)."""
    make_player("alice")
    made = cursor("1" * 37)
    for other in (made + "=", made[:-1] + chr(ord(made[-1]) + 1)):
        response = APIClient().get("/api/players/alice", {"cursor": other})
        assert response.status_code == 400, (other, response.content)


@pytest.mark.parametrize("key", ["0" * 37, "9" * 37])
def test_any_cursor_of_digits_is_a_place_in_the_calendar(key: str) -> None:
    """A key past the last instant (or id) Python or PostgreSQL can hold stands for the end: all of
    the player's results come before it, and none before the first day."""
    alice = make_player("alice")
    for _ in range(2):
        session, _ = start_session(player=alice, code="SP1-S1C-AAAAAAA")
        finish_session(player=alice, session_id=session.id)
    page = APIClient().get("/api/players/alice", {"cursor": cursor(key)})
    assert page.status_code == 200, page.content
    expected = [r.pk for r in alice.results.order_by("-finished_at", "-pk")] if key[0] == "9" else []
    assert [r["id"] for r in page.json()["results"]] == expected


def test_any_value_postgresql_refuses_is_400_not_503(monkeypatch: pytest.MonkeyPatch) -> None:
    """The net under the views' own checks: a data error from the database is the request's fault."""
    from django.db import DataError

    from leaderboard.api import player_pages

    def refuse(**_: object) -> None:
        raise DataError("PostgreSQL text fields cannot contain NUL (0x00) bytes")

    monkeypatch.setattr(player_pages, "player_page", refuse)
    response = APIClient().get("/api/players/alice")
    assert response.status_code == 400
    assert response.json()["error"]["message"].startswith("The request holds a value")
    assert "Retry-After" not in response
