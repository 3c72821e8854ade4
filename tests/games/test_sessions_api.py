"""Starting and reading refereed sessions over HTTP."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.engine import Game
from games.models import GameSession, Player
from tests.conftest import make_player

pytestmark = pytest.mark.django_db


def test_start_on_a_code_answers_the_players_view(player_api: APIClient) -> None:
    response = player_api.post("/api/sessions", {"code": " sp1-s4c-aaaaaaa "}, format="json")
    assert response.status_code == 201
    doc = response.json()
    assert doc["code"] == "SP1-S4C-AAAAAAA"
    assert doc["ranked"] is True and doc["board"] == "code:SP1-S4C-AAAAAAA"
    assert doc["finished"] is False and doc["result"] is None
    game = Game.from_code("SP1-S4C-AAAAAAA")
    assert doc["view"] == game.view()
    assert doc["legal"] == [str(action) for action in game.legal_actions()]
    assert [c["up"][-1] for c in doc["view"]["columns"]] == "2D 6S 9H JC JD KD 6H KS 4S QD".split()
    for group, token in doc["best"].items():
        assert token in doc["legal"] and token.startswith(group + ">")


def test_start_on_a_variant_deals_a_fresh_code(player_api: APIClient) -> None:
    first = player_api.post("/api/sessions", {"variant": "rU1-r"}, format="json").json()
    second = player_api.post("/api/sessions", {"variant": "RU1-R"}, format="json").json()
    assert first["code"].startswith("RU1-R-") and second["code"].startswith("RU1-R-")
    assert first["code"] != second["code"]
    assert first["view"]["foundations"] == {"S": [], "H": [], "D": [], "C": []}


@pytest.mark.parametrize(
    "body, status, words",
    [
        ({"code": "SP1-S1R-AAAAAAA"}, 422, "one suit"),
        ({"code": "XX1-S1C-AAAAAAA"}, 422, ""),
        ({"variant": "SP1-S3C"}, 422, ""),
        ({"code": "SP1-S4C-AAAAAAA", "variant": "SP1-S4C"}, 400, "exactly one"),
        ({}, 400, "exactly one"),
        ({"code": 17}, 400, "string"),
        ({"daily": ["SP1-S4C"]}, 400, "string"),
    ],
)
def test_bad_starts_are_refused_and_make_nothing(player_api: APIClient, body: dict, status: int, words: str) -> None:
    response = player_api.post("/api/sessions", body, format="json")
    assert response.status_code == status
    error = response.json()["error"]
    assert words.lower() in error["message"].lower()
    assert not GameSession.objects.exists()


def test_an_invalid_code_is_refused_at_index_zero(player_api: APIClient) -> None:
    error = player_api.post("/api/sessions", {"code": "SP1-S4C-AAAA"}, format="json").json()["error"]
    assert error["index"] == 0 and error["token"] is None


def test_playing_needs_a_player_or_the_pages_csrf_token() -> None:
    """Without a player, only a browser holding the page's CSRF token becomes a guest by playing."""
    response = APIClient(enforce_csrf_checks=True).post("/api/sessions", {"code": "SP1-S4C-AAAAAAA"}, format="json")
    assert response.status_code == 403 and "CSRF" in response.json()["error"]["message"]
    assert not GameSession.objects.exists() and not Player.objects.exists()


def test_another_players_session_is_answered_like_a_missing_one(player_api: APIClient) -> None:
    session_id = player_api.post("/api/sessions", {"code": "SD1-S1-AAAAAAA"}, format="json").json()["id"]
    intruder = APIClient()
    intruder.force_authenticate(make_player("mallory"))
    for call in (
        lambda: intruder.get(f"/api/sessions/{session_id}"),
        lambda: intruder.post(f"/api/sessions/{session_id}/actions", {"action": "D"}, format="json"),
        lambda: intruder.post(f"/api/sessions/{session_id}/finish"),
    ):
        response = call()
        assert response.status_code == 404
        assert response.json()["error"]["message"] == "No such game session."
    missing = intruder.get("/api/sessions/00000000-0000-0000-0000-000000000000")
    assert missing.json() == response.json()
    assert intruder.get("/api/sessions/not-a-uuid").status_code == 404
    session = GameSession.objects.get()
    assert session.action_count == 0 and session.finished_at is None


def test_guests_play_unranked(api: APIClient) -> None:
    from games.players.guests import create_guest

    api.force_authenticate(create_guest())
    doc = api.post("/api/sessions", {"code": "SD1-S2-AAAAAAA"}, format="json").json()
    assert doc["ranked"] is False and doc["board"] is None


def test_session_document_lists_only_the_players_own_sessions(player: Player, player_api: APIClient) -> None:
    doc = player_api.post("/api/sessions", {"code": "SD1-S4-AAAAAAA"}, format="json").json()
    again = player_api.get(f"/api/sessions/{doc['id']}").json()
    assert again["view"] == doc["view"] and again["legal"] == doc["legal"]
    assert again["elapsed_ms"] >= 0


def test_a_secret_session_names_neither_its_code_nor_its_code_board(player: Player) -> None:
    from django.utils import timezone

    from games import services
    from games.selectors import session_document
    from games.sessions import live
    from leaderboard.models import BoardEntry
    from leaderboard.services import rank_result

    session, _ = services.start_session(player=player, variant="SD1-S2", code_secret=True)
    session, game = services.finish_session(player=player, session_id=session.pk)
    doc = session_document(session, live.game_for(session), now=timezone.now())
    assert doc["code"] is None and doc["board"] is None
    assert doc["result"]["code"] is None and doc["result"]["board"] is None and doc["result"]["rank"] is None
    assert session.stored_code.code not in str(doc)
    assert not BoardEntry.objects.exists()  # a secret race's results rank when it ends
    session.code_secret = False  # the race ended: games.rooms.rooms ranks its results
    rank_result(result=session.result)  # type: ignore[attr-defined]
    revealed = session_document(session, game, now=timezone.now())
    assert revealed["board"] == f"code:{session.stored_code.code}" and revealed["result"]["rank"] == 1
