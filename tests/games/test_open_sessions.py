"""GET /api/sessions?open=1: my unfinished games to continue, newest first, without a secret code."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games import services
from games.models import Daily, GameSession, Player
from tests.conftest import make_player
from tests.leaderboard.factories import daily_of

pytestmark = pytest.mark.django_db


def _started(player: Player, minutes_ago: int, **choice: str) -> GameSession:
    session, _ = services.start_session(player=player, now=timezone.now() - dt.timedelta(minutes=minutes_ago), **choice)
    return session


def test_unfinished_games_newest_first_with_moves_and_no_secret_code(player: Player, player_api: APIClient) -> None:
    today = timezone.now().astimezone(dt.UTC).date()
    daily: Daily = daily_of(today, "SP1-S4C", "SP1-S4C-AAAAAAD")
    old = _started(player, 50, code="SP1-S1C-AAAAAAB")
    services.apply_action(player=player, session_id=old.pk, token="D", at=1, now=timezone.now())
    done = _started(player, 40, code="SP1-S1C-AAAAAAC")
    services.finish_session(player=player, session_id=done.pk, now=timezone.now())
    attempt = _started(player, 30, daily="SP1-S4C")
    room_game = _started(player, 20, code="SD1-S1-AAAAAAB")
    GameSession.objects.filter(pk=room_game.pk).update(in_room=True)
    newest = _started(player, 10, variant="RU1-C")
    _started(make_player("someone"), 5, code="SP1-S1C-AAAAAAE")

    response = player_api.get("/api/sessions", {"open": "1"})
    assert response.status_code == 200, response.content
    sessions = response.json()["sessions"]
    assert [s["id"] for s in sessions] == [str(newest.pk), str(attempt.pk), str(old.pk)]
    assert sessions[1] == {
        "id": str(attempt.pk),
        "variant": "SP1-S4C",
        "code": None,  # the daily's code is secret until 01:00 UTC tomorrow
        "daily": today.isoformat(),
        "ranked": True,
        "moves": 0,
        "actions": 0,
        "started_at": attempt.started_at.isoformat(),
    }
    assert daily.stored_code.code not in response.content.decode()
    assert sessions[2]["code"] == "SP1-S1C-AAAAAAB" and sessions[2]["moves"] == 1 and sessions[2]["daily"] is None


def test_at_most_five_and_no_attempt_whose_day_is_over(player: Player, player_api: APIClient) -> None:
    now = timezone.now()
    yesterday = (now - dt.timedelta(days=2)).astimezone(dt.UTC).date()
    daily_of(yesterday, "SD1-S4", "SD1-S4-AAAAAAD")
    services.start_session(player=player, daily="SD1-S4", now=now - dt.timedelta(days=2))  # closes at 01:00
    for n in range(7):
        _started(player, n, code=f"SP1-S2C-AAAAAA{'BCDEFGH'[n]}")
    sessions = player_api.get("/api/sessions", {"open": "1"}).json()["sessions"]
    assert len(sessions) == 5 and all(s["daily"] is None for s in sessions)


def test_the_list_needs_a_player_and_open_1(api: APIClient, player_api: APIClient) -> None:
    refused = api.get("/api/sessions", {"open": "1"})
    assert refused.status_code == 401 and "needs a player" in refused.json()["error"]["message"]
    wrong = player_api.get("/api/sessions")
    assert wrong.status_code == 400 and "open=1" in wrong.json()["error"]["message"]
