"""A cheater who has a secret code (a daily stored with a short code can be found by a search over
its opening cards) learns nothing from the service with it: free play, a submission and a new room
on it are refused with one sentence, before anything is dealt, replayed or stored, until the code
is published. A secret race's code likewise until the race ends, and its results reach no board."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games import services
from games.deals.secret_codes import CANNOT_BE_PLAYED
from games.engine import Game
from games.models import Daily, GameSession, Player, Result, Room, StoredCode
from tests.conftest import make_player
from tests.leaderboard.factories import daily_of, legal_walk
from tests.security.snapshot import snapshot

pytestmark = pytest.mark.django_db

SHORT_DAILY = "SD1-S4-MIDDLEX"  # a daily stored with a short code before long codes existed


def _as(player: Player) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=player)[0].key}")
    return client


def _refused_everywhere(client: APIClient, code: str) -> list[dict[str, Any]]:
    """Try `code` every way a player can: each answer must be the same 422, and nothing is stored."""
    before = snapshot()
    illegal = ["9:9>1", "D"]  # a replay would refuse this log, naming the cards it found
    answers = [
        client.post("/api/sessions", {"code": code}, format="json"),
        client.post("/api/sessions", {"code": f" {code.lower()} "}, format="json"),
        client.post("/api/submissions", {"code": code, "moves": illegal}, format="json"),
        client.post("/api/submissions", {"code": code, "moves": legal_walk(code, 8)}, format="json"),
        client.post("/api/submissions", {"code": code, "moves": [], "key": "k1"}, format="json"),
        client.post("/api/rooms", {"code": code}, format="json"),
    ]
    assert snapshot() == before
    bodies = []
    for response in answers:
        assert response.status_code == 422
        bodies.append(response.json())
    assert all(body == {"error": {"message": CANNOT_BE_PLAYED, "index": 0, "token": None}} for body in bodies)
    return bodies


def test_an_unpublished_daily_stored_with_a_short_code_is_refused_then_playable_once_published() -> None:
    today = timezone.now().date()
    daily_of(today, "SD1-S4", SHORT_DAILY)
    cheater = _as(make_player("cheater"))
    _refused_everywhere(cheater, SHORT_DAILY)
    assert cheater.get(f"/api/leaderboards/code:{SHORT_DAILY}").json()["total"] == 0

    Daily.objects.update(date=today - dt.timedelta(days=2))  # its day is over: the code is published
    started = cheater.post("/api/sessions", {"code": SHORT_DAILY}, format="json")
    assert started.status_code == 201
    doc = started.json()
    assert doc["code"] == SHORT_DAILY and doc["board"] == f"code:{SHORT_DAILY}" and doc["daily"] is None
    moves = legal_walk(SHORT_DAILY, 4)
    submitted = cheater.post("/api/submissions", {"code": SHORT_DAILY, "moves": moves}, format="json")
    assert submitted.status_code == 201 and submitted.json()["result"]["code"] == SHORT_DAILY


def test_the_daily_stays_secret_until_one_in_the_morning_of_the_next_day() -> None:
    day = dt.date(2026, 6, 1)
    daily = daily_of(day, "SD1-S4", SHORT_DAILY)
    player = make_player("early")
    for now, secret in [
        (dt.datetime(2026, 6, 1, 0, 0, tzinfo=dt.UTC), True),
        (dt.datetime(2026, 6, 2, 0, 59, 59, tzinfo=dt.UTC), True),
        (daily.publishes_at - dt.timedelta(microseconds=1), True),
        (daily.publishes_at, False),
        (dt.datetime(2026, 6, 9, tzinfo=dt.UTC), False),
    ]:
        if secret:
            with pytest.raises(Exception, match=CANNOT_BE_PLAYED):
                services.start_session(player=player, code=SHORT_DAILY, now=now)
        else:
            session, _ = services.start_session(player=player, code=SHORT_DAILY, now=now)
            assert session.daily is None and session.board == f"code:{SHORT_DAILY}"


@pytest.mark.usefixtures("prepared_dailies")
def test_todays_long_daily_code_is_refused_like_any_secret() -> None:
    player = make_player("ranked")
    session, _ = services.start_session(player=player, daily="SP1-S4C")
    code = session.stored_code.code
    assert len(code) == 28
    bodies = _refused_everywhere(_as(make_player("cheater")), code)
    assert bodies[0]["error"]["message"] == CANNOT_BE_PLAYED


def test_a_hidden_races_code_is_refused_and_its_results_rank_only_when_the_race_is_over(
    django_capture_on_commit_callbacks: Any,
) -> None:
    host, rival = make_player("host"), make_player("rival")
    room_id = _as(host).post("/api/rooms", {"variant": "SD1-S1"}, format="json").json()["id"]
    code = Room.objects.get(pk=room_id).code
    cheater = _as(make_player("cheater"))
    lobby_bodies = _refused_everywhere(cheater, code)  # in the lobby: no StoredCode row exists, none is made
    assert not StoredCode.objects.filter(code=code).exists()

    assert _as(rival).post(f"/api/rooms/{room_id}/join").status_code == 200
    assert _as(host).post(f"/api/rooms/{room_id}/start").status_code == 200
    assert _refused_everywhere(cheater, code) == lobby_bodies  # the same answer as for the daily's
    sessions = {s.player_id: s for s in GameSession.objects.filter(room_member__room_id=room_id)}
    walk = legal_walk(code, 6)
    for token in walk:
        services.apply_action(player=host, session_id=sessions[host.pk].id, token=token)
    with django_capture_on_commit_callbacks(execute=True):
        services.finish_session(player=host, session_id=sessions[host.pk].id)
    board = f"/api/leaderboards/code:{code}"
    assert cheater.get(board).json()["total"] == 0  # the host's result waits for the race to end
    assert Result.objects.filter(session__player=host).exists()

    with django_capture_on_commit_callbacks(execute=True):
        services.finish_session(player=rival, session_id=sessions[rival.pk].id)
    assert Room.objects.get(pk=room_id).state == "finished"
    ranked = cheater.get(board).json()
    assert ranked["total"] == 2
    game = Game.from_code(code)
    for token in walk:
        game.apply(token)
    hosts = next(entry for entry in ranked["entries"] if entry["player"] == "host")
    assert (hosts["score"], hosts["moves"]) == (game.score, game.moves)
    assert cheater.post("/api/sessions", {"code": code}, format="json").status_code == 201  # no secret now


def test_a_race_ended_by_its_host_ranks_every_result_once() -> None:
    host, rival = make_player("host"), make_player("rival")
    room_id = _as(host).post("/api/rooms", {"variant": "RU1-C"}, format="json").json()["id"]
    _as(rival).post(f"/api/rooms/{room_id}/join")
    _as(host).post(f"/api/rooms/{room_id}/start")
    code = Room.objects.get(pk=room_id).code
    rival_session = GameSession.objects.get(player=rival)
    services.finish_session(player=rival, session_id=rival_session.id)
    assert _as(host).post(f"/api/rooms/{room_id}/end").json()["state"] == "finished"
    board = APIClient().get(f"/api/leaderboards/code:{code}").json()
    assert sorted(entry["player"] for entry in board["entries"]) == ["host", "rival"]
