"""Long codes (twenty deal letters) through the service: free play, submissions and rooms take them,
a secret race gets one, and a code of any other length is a 422 that says what is wrong."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.engine import Game, GameCode, replay
from games.models import GameSession, Player, Result, Room, StoredCode
from tests.conftest import make_player
from tests.leaderboard.factories import legal_walk

pytestmark = pytest.mark.django_db

VECTORS = Path(__file__).resolve().parent.parent / "engine" / "vectors" / "deals.json"
LONG = "SP1-S2R-QWERTYUIOPASDFGHJKLZ"


def _as(player: Player) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=player)[0].key}")
    return client


def _vector(code: str) -> dict:
    return next(deal for deal in json.loads(VECTORS.read_text())["deals"] if deal["code"] == code)


def test_free_play_on_a_long_code_deals_the_vector(player_api: APIClient) -> None:
    response = player_api.post("/api/sessions", {"code": f"  {LONG.lower()} "}, format="json")
    assert response.status_code == 201
    doc = response.json()
    assert doc["code"] == LONG and doc["board"] == f"code:{LONG}"
    expected = _vector(LONG)
    assert [column["up"] for column in doc["view"]["columns"]] == [column["up"] for column in expected["columns"]]
    assert [len(column["down"]) for column in expected["columns"]] == [c["down"] for c in doc["view"]["columns"]]
    assert doc["view"]["stock"] == len(expected["stock"])


def test_a_long_code_and_the_short_code_of_the_same_number_are_different_deals(player_api: APIClient) -> None:
    short = player_api.post("/api/sessions", {"code": "SD1-S4-AAAAAAB"}, format="json").json()
    long = player_api.post("/api/sessions", {"code": "SD1-S4-AAAAAAAAAAAAAAAAAAAB"}, format="json").json()
    assert short["view"]["columns"] != long["view"]["columns"]
    assert set(StoredCode.objects.values_list("code", flat=True)) == {"SD1-S4-AAAAAAB", "SD1-S4-AAAAAAAAAAAAAAAAAAAB"}


def test_a_submission_on_a_long_code_is_verified_by_replay(player_api: APIClient) -> None:
    code = "SD1-S1-ABCDEFGHIJKLMNOPQRST"
    moves = legal_walk(code, 15)
    response = player_api.post("/api/submissions", {"code": code, "moves": moves}, format="json")
    assert response.status_code == 201
    result = response.json()["result"]
    game = replay(code, moves).game
    assert game is not None
    assert (result["code"], result["board"], result["score"], result["moves"]) == (
        code,
        f"code:{code}",
        game.score,
        game.moves,
    )
    assert Result.objects.get().log == " ".join(moves)


def test_a_hidden_race_is_dealt_a_long_code_and_a_chosen_long_code_is_shown() -> None:
    host = make_player("host")
    hidden = _as(host).post("/api/rooms", {"variant": "SP1-S4C"}, format="json")
    assert hidden.status_code == 201 and hidden.json()["code"] is None
    code = GameCode.parse(Room.objects.get(pk=hidden.json()["id"]).code)
    assert code.long and code.variant == "SP1-S4C" and len(code.letters) == 20
    # Two hidden rooms never share a deal (a 20-letter draw from the OS's random source).
    other = _as(host).post("/api/rooms", {"variant": "SP1-S4C"}, format="json").json()
    assert Room.objects.get(pk=other["id"]).code != str(code)
    chosen = _as(host).post("/api/rooms", {"code": LONG.lower()}, format="json").json()
    assert chosen["code"] == LONG
    started = _as(host).post(f"/api/rooms/{chosen['id']}/start").json()
    session = GameSession.objects.get(pk=started["you"]["session"])
    assert (
        session.stored_code.code == LONG
        and Game.from_code(LONG).view() == _as(host).get(f"/api/sessions/{session.pk}").json()["view"]
    )


BAD_CODES = [
    ("SP1-S4C-" + "A" * 19, "7 or 20 letters", "has 19"),
    ("SP1-S4C-" + "A" * 21, "7 or 20 letters", "has 21"),
    ("SP1-S4C-AAAAAA", "7 or 20 letters", "has 6"),
    ("SP1-S4C-" + "A" * 19 + "4", "letters A-Z", "4"),
    ("SP1-S4C-" + "A" * 19 + "Ä", "only the letters", "Ä"),
    ("SP1-S1R-" + "A" * 20, "one suit", "SP1-S1C"),
    ("SP1-S4C-" + "A" * 200, "208 characters", "at most 28"),
    (" " * 10 + "X" * 5000, "5000 characters", "at most 28"),
]


@pytest.mark.parametrize(("code", "says", "also"), BAD_CODES)
def test_a_bad_code_is_a_422_that_names_what_is_wrong_everywhere(code: str, says: str, also: str) -> None:
    client = _as(make_player("picky"))
    answers = {
        "session": client.post("/api/sessions", {"code": code}, format="json"),
        "submission": client.post("/api/submissions", {"code": code, "moves": ["D"]}, format="json"),
        "room": client.post("/api/rooms", {"code": code}, format="json"),
    }
    for where, response in answers.items():
        assert response.status_code == 422, (where, response.status_code, response.content[:200])
        error = response.json()["error"]
        assert says.lower() in error["message"].lower() and also in error["message"], (where, error)
        assert error["token"] is None and len(error["message"]) < 300
    assert not (GameSession.objects.exists() or Result.objects.exists() or Room.objects.exists())
    assert not StoredCode.objects.exists()
