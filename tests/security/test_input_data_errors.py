"""Input that PostgreSQL cannot take (a NUL in a name, a time offset past 15:59) is the client's
error: a 4xx in the error shape that changes nothing, never 503 "storage unavailable"."""

from __future__ import annotations

import base64
import datetime as dt

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


@pytest.mark.parametrize("offset", ["+16:00", "-16:00", "+23:59", "-23:59"])
def test_a_cursor_with_an_offset_postgresql_refuses_is_400(offset: str) -> None:
    alice = make_player("alice")
    session, _ = start_session(player=alice, code="SP1-S1C-AAAAAAA")
    finish_session(player=alice, session_id=session.id)
    before = snapshot()
    response = APIClient().get("/api/players/alice", {"cursor": cursor(f"2026-01-01T00:00:00{offset}|5")})
    assert response.status_code == 400, response.content
    assert response.json()["error"]["message"] == "That cursor is not valid: use the next_cursor of the previous page."
    assert snapshot() == before


@pytest.mark.parametrize("stamp", ["0001-01-01T00:00:00+15:00", "9999-12-31T23:59:59-15:00"])
def test_a_cursor_outside_the_calendar_in_utc_is_400(stamp: str) -> None:
    make_player("alice")
    before = snapshot()
    response = APIClient().get("/api/players/alice", {"cursor": cursor(f"{stamp}|5")})
    assert response.status_code == 400, response.content
    assert response.json()["error"]["message"] == "That cursor is not valid: use the next_cursor of the previous page."
    assert snapshot() == before


def test_the_cursor_offset_names_the_same_instant() -> None:
    alice = make_player("alice")
    for _ in range(2):
        session, _ = start_session(player=alice, code="SP1-S1C-AAAAAAA")
        finish_session(player=alice, session_id=session.id)
    first = alice.results.order_by("-finished_at", "-pk").first()
    assert first is not None
    shifted = first.finished_at.astimezone(dt.timezone(dt.timedelta(hours=15, minutes=30)))
    page = APIClient().get("/api/players/alice", {"cursor": cursor(f"{shifted.isoformat()}|{first.pk}")})
    assert page.status_code == 200
    assert [r["id"] for r in page.json()["results"]] == [alice.results.order_by("-finished_at", "-pk")[1].pk]


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
