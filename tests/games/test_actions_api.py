"""Refereed actions: applied by the engine, logged in the same transaction, refusals change nothing."""

from __future__ import annotations

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from games.engine import Game, parse_action
from games.models import GameAction, GameSession, Result
from games.sessions import live
from tests.games.play_helpers import expected_state, vector_log, winning_log

pytestmark = pytest.mark.django_db


def start(api: APIClient, code: str) -> str:
    return api.post("/api/sessions", {"code": code}, format="json").json()["id"]


def act(api: APIClient, session_id: str, token: object):  # type: ignore[no-untyped-def]
    return api.post(f"/api/sessions/{session_id}/actions", {"action": token}, format="json")


def test_a_legal_action_is_applied_and_logged(player_api: APIClient) -> None:
    sid = start(player_api, "SD1-S4-AAAAAAA")
    game = Game.from_code("SD1-S4-AAAAAAA")
    token = str(game.legal_actions()[0])
    response = act(player_api, sid, token.lower())
    assert response.status_code == 200
    game.apply(token)
    assert response.json()["view"] == game.view()
    assert response.json()["actions"] == 1
    assert list(GameAction.objects.values_list("seq", "token")) == [(1, token)]


@pytest.mark.parametrize(
    "token, words",
    [
        ("9:1>1", "no column 9"),
        ("1:01>2", "leading zeros"),
        ("2:5>3", "face-up"),
        ("FH>3", "no foundations"),
        ("hello", "not an action"),
        ("x" * 40, "not an action"),
    ],
)
def test_a_refused_action_names_its_position_and_rule_and_changes_nothing(
    player_api: APIClient, token: str, words: str
) -> None:
    sid = start(player_api, "SD1-S4-AAAAAAA")
    assert act(player_api, sid, "1:1>2").status_code == 200
    before = player_api.get(f"/api/sessions/{sid}").json()
    response = act(player_api, sid, token)
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["index"] == before["actions"] + 1
    assert error["token"] == token  # as it was given, however long
    assert words.lower() in error["message"].lower()
    after = player_api.get(f"/api/sessions/{sid}").json()
    assert {k: v for k, v in after.items() if k != "elapsed_ms"} == {
        k: v for k, v in before.items() if k != "elapsed_ms"
    }
    assert GameAction.objects.count() == before["actions"]


@pytest.mark.parametrize("blanks", [" " * 40, "\t\r\n " * 20])
def test_the_blanks_around_a_token_are_ignored_however_many(player_api: APIClient, blanks: str) -> None:
    sid = start(player_api, "SD1-S4-AAAAAAA")
    response = act(player_api, sid, f"{blanks}1:1>2{blanks}")
    assert response.status_code == 200, response.json()
    assert list(GameAction.objects.values_list("seq", "token")) == [(1, "1:1>2")]


@pytest.mark.parametrize("body", [{"action": 3}, {"action": None}, {"action": ["D"]}, {}, {"token": "D"}])
def test_missing_or_mistyped_action_is_400(player_api: APIClient, body: dict) -> None:
    sid = start(player_api, "SP1-S1C-AAAAAAA")
    response = player_api.post(f"/api/sessions/{sid}/actions", body, format="json")
    assert response.status_code == 400
    assert GameAction.objects.count() == 0


def test_not_json_and_huge_bodies(player_api: APIClient) -> None:
    sid = start(player_api, "SP1-S1C-AAAAAAA")
    assert player_api.post(f"/api/sessions/{sid}/actions", "{", content_type="application/json").status_code == 400
    huge = '{"action": "' + "D" * 400_000 + '"}'
    response = player_api.post(f"/api/sessions/{sid}/actions", huge, content_type="application/json")
    assert response.status_code == 413
    assert GameAction.objects.count() == 0


def test_a_win_ends_the_game_by_itself_with_a_verified_result(player_api: APIClient, unlimited_actions: None) -> None:
    code = "RU1-C-MFXTMVO"
    sid = start(player_api, code)
    log = winning_log(code)
    for token in log[:-1]:
        assert act(player_api, sid, token).status_code == 200, token
    final = act(player_api, sid, log[-1]).json()
    assert final["finished"] is True and final["legal"] == [] and final["view"]["won"] is True
    expected = expected_state(code)
    result = final["result"]
    assert result["score"] == expected["score"] and result["moves"] == expected["moves"]
    assert result["won"] is True and result["cards_home"] == 52 and result["actions"] == len(log)
    assert result["elapsed_ms"] is not None and result["code"] == code
    assert result["rank"] == 1 and result["personal_best"] is True  # what the win screen shows
    stored = Result.objects.get()
    assert stored.log.split() == [str(parse_action(token)) for token in log]
    late = act(player_api, sid, "U")
    assert late.status_code == 409 and "over" in late.json()["error"]["message"]
    assert player_api.post(f"/api/sessions/{sid}/finish").status_code == 409


def test_giving_up_verifies_the_game_as_it_stands(player_api: APIClient) -> None:
    sid = start(player_api, "SP1-S2C-AAAAAAA")
    assert act(player_api, sid, "D").status_code == 200
    doc = player_api.post(f"/api/sessions/{sid}/finish").json()
    assert doc["finished"] is True and doc["legal"] == []
    assert doc["result"]["score"] == 499 and doc["result"]["moves"] == 1 and doc["result"]["sequences"] == 0
    assert doc["result"]["won"] is False and doc["result"]["board"] == "code:SP1-S2C-AAAAAAA"


def test_state_is_rebuilt_from_the_stored_log_by_any_process(player_api: APIClient, unlimited_actions: None) -> None:
    sid = start(player_api, "SP1-S1C-KPAAOVE")
    for token in vector_log("SP1-S1C-KPAAOVE"):
        assert act(player_api, sid, token).status_code == 200
    live.forget(GameSession.objects.get().id)  # as if another worker served the next request
    doc = player_api.get(f"/api/sessions/{sid}").json()
    assert doc["view"]["columns"][0]["up"] == expected_state("SP1-S1C-KPAAOVE")["columns"][0]["up"]
    assert doc["view"]["score"] == expected_state("SP1-S1C-KPAAOVE")["score"]


@override_settings(RATE_ACTIONS=3)
def test_actions_are_rate_limited_per_session(player_api: APIClient) -> None:
    sid = start(player_api, "SP1-S1C-AAAAAAA")
    statuses = [act(player_api, sid, "9:1>1").status_code for _ in range(5)]
    assert statuses[:3] == [422, 422, 422] and 429 in statuses[3:]


def test_an_action_sent_again_for_its_position_is_answered_not_applied_twice(player_api: APIClient) -> None:
    sid = start(player_api, "SD1-S4-AAAAAAA")
    first = player_api.post(f"/api/sessions/{sid}/actions", {"action": "1:1>2", "at": 1}, format="json")
    assert first.status_code == 200 and first.json()["actions"] == 1
    live.forget(GameSession.objects.get().id)  # the answer was lost; the resend reaches another worker
    again = player_api.post(f"/api/sessions/{sid}/actions", {"action": "1:1>2", "at": 1}, format="json")
    assert again.status_code == 200 and again.json()["actions"] == 1
    assert again.json()["view"] == first.json()["view"]
    assert GameAction.objects.count() == 1
    other = player_api.post(f"/api/sessions/{sid}/actions", {"action": "D", "at": 1}, format="json")
    assert other.status_code == 409 and "action 1 cannot be played" in other.json()["error"]["message"]
    ahead = player_api.post(f"/api/sessions/{sid}/actions", {"action": "D", "at": 5}, format="json")
    assert ahead.status_code == 409
    assert GameAction.objects.count() == 1
    for bad in (0, -1, "2", True, 1.5):
        response = player_api.post(f"/api/sessions/{sid}/actions", {"action": "D", "at": bad}, format="json")
        assert response.status_code == 400, bad
    assert GameAction.objects.count() == 1
