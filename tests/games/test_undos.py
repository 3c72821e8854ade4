"""Undos are counted from the log: on the session as it is played, on its verified result, on a
submission's result, in a race room's table, and for games stored before the count existed."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.apps import apps
from django.test import override_settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import GameSession, Player, Result
from games.sessions import live
from leaderboard.models import BoardEntry
from tests.conftest import make_player
from tests.games.play_helpers import winning_log
from tests.historical import before_the_move

pytestmark = pytest.mark.django_db

CODE = "SD1-S4-AAAAAAA"


def _as(player: Player) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=player)[0].key}")
    return client


def _legal_log() -> list[str]:
    """Deal, take it back, deal again, move, take that back: two undos among five actions."""
    from games.engine import Game, Move

    game = Game.from_code(CODE)
    game.apply("D")
    move = next(a for a in game.legal_actions() if isinstance(a, Move))
    return ["D", "U", "D", str(move), "u"]  # any letter case: a token is counted as the engine reads it


@override_settings(RATE_ACTIONS=1000)
def test_a_sessions_undos_are_counted_as_it_is_played_and_on_its_result() -> None:
    client = _as(make_player("looker"))
    session_id = client.post("/api/sessions", {"code": CODE}, format="json").json()["id"]
    seen = []
    for token in _legal_log():
        answer = client.post(f"/api/sessions/{session_id}/actions", {"action": token}, format="json")
        seen.append(answer.json()["undos"])
    assert seen == [0, 1, 1, 1, 2]
    live.clear()  # another process: the count is stored, not only remembered
    assert client.get(f"/api/sessions/{session_id}").json()["undos"] == 2
    finished = client.post(f"/api/sessions/{session_id}/finish").json()
    assert finished["result"]["undos"] == 2 and finished["result"]["actions"] == 5
    assert Result.objects.get().undos == 2 and BoardEntry.objects.get().undos == 2


def test_a_submissions_undos_are_the_u_tokens_of_its_log() -> None:
    client = _as(make_player("batch"))
    code = "RU1-R-JYTCUUV"
    moves = winning_log(code)
    response = client.post("/api/submissions", {"code": code, "moves": moves}, format="json")
    assert response.status_code == 201
    assert response.json()["result"]["undos"] == moves.count("U") == 1
    clean_code = "RU1-C-MFXTMVO"
    clean = client.post("/api/submissions", {"code": clean_code, "moves": winning_log(clean_code)}, format="json")
    assert clean.json()["result"]["undos"] == 0


@override_settings(RATE_ACTIONS=1000)
def test_a_race_table_shows_each_players_undos(django_capture_on_commit_callbacks: Any) -> None:
    host = make_player("host")
    client = _as(host)
    room = client.post("/api/rooms", {"code": CODE}, format="json").json()
    client.post(f"/api/rooms/{room['id']}/start")
    session_id = client.get(f"/api/rooms/{room['id']}").json()["you"]["session"]
    for token in _legal_log()[:2]:
        client.post(f"/api/sessions/{session_id}/actions", {"action": token}, format="json")
    assert client.get(f"/api/rooms/{room['id']}").json()["players"][0]["undos"] == 1
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/api/sessions/{session_id}/finish")
    final = client.get(f"/api/rooms/{room['id']}").json()
    assert final["state"] == "finished" and final["players"][0]["undos"] == 1


def test_games_stored_before_the_count_get_it_from_their_logs() -> None:
    player = make_player("veteran")
    client = _as(player)
    session_id = client.post("/api/sessions", {"code": CODE}, format="json").json()["id"]
    for token in _legal_log():
        client.post(f"/api/sessions/{session_id}/actions", {"action": token}, format="json")
    client.post(f"/api/sessions/{session_id}/finish")
    GameSession.objects.update(undos=0)
    Result.objects.update(undos=0)
    BoardEntry.objects.update(undos=0)
    importlib.import_module("games.migrations.0005_session_undos").count_undos(apps, None)
    importlib.import_module("leaderboard.migrations.0006_result_undos").count_undos(before_the_move(), None)
    assert GameSession.objects.get().undos == 2
    assert Result.objects.get().undos == 2 and BoardEntry.objects.get().undos == 2
