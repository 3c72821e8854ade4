"""Batch submissions: a whole move list verified by replay, refusals named, keys idempotent."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.test import override_settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import Result, Submission
from tests.conftest import make_player
from tests.games.play_helpers import expected_state, winning_log

pytestmark = pytest.mark.django_db


def submit(api: APIClient, body: object):  # type: ignore[no-untyped-def]
    return api.post("/api/submissions", body, format="json")


@pytest.mark.parametrize("code", ["SD1-S1-HJSZOZN", "RU1-C-MFXTMVO", "SP1-S1C-QTEKPFM", "RU1-R-JYTCUUV"])
def test_a_winning_log_is_verified_and_stored(player_api: APIClient, code: str) -> None:
    response = submit(player_api, {"code": code, "moves": winning_log(code)})
    assert response.status_code == 201
    result = response.json()["result"]
    expected = expected_state(code)
    assert (result["score"], result["moves"], result["won"]) == (expected["score"], expected["moves"], True)
    assert result["elapsed_ms"] is None and result["actions"] == len(winning_log(code))
    assert result["board"] == f"code:{code}" and result["code"] == code
    assert Result.objects.get().source == "submission"


def test_the_first_illegal_action_is_named(player_api: APIClient) -> None:
    response = submit(player_api, {"code": "SD1-S4-AAAAAAA", "moves": ["1:1>2", "2:5>3", "D"]})
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["index"] == 2 and error["token"] == "2:5>3" and "face-up" in error["message"]
    assert not Result.objects.exists()


@pytest.mark.parametrize("moves", [["D", 7], ["D", None], ["D", {"a": 1}]])
def test_garbage_tokens_are_refused_at_their_position(player_api: APIClient, moves: list) -> None:
    response = submit(player_api, {"code": "SP1-S4C-AAAAAAA", "moves": moves})
    assert response.status_code == 422 and response.json()["error"]["index"] == 2


def test_more_than_ten_thousand_tokens_are_refused_before_replay(player_api: APIClient) -> None:
    response = submit(player_api, {"code": "SP1-S4C-AAAAAAA", "moves": ["Z"] * 10_001})
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["index"] == 0 and error["token"] is None and "10,000" in error["message"]


def test_an_invalid_code_is_refused_at_index_zero(player_api: APIClient) -> None:
    error = submit(player_api, {"code": "SP1-S1R-AAAAAAA", "moves": []}).json()["error"]
    assert error["index"] == 0 and error["token"] is None and "one suit" in error["message"]


def test_a_wrong_claimed_score_names_both(player_api: APIClient) -> None:
    code = "SD1-S1-HJSZOZN"
    response = submit(player_api, {"code": code, "moves": winning_log(code), "claimed_score": 900})
    assert response.status_code == 422
    message = response.json()["error"]["message"]
    assert "900" in message and "812" in message
    assert not Result.objects.exists()
    right = submit(player_api, {"code": code, "moves": winning_log(code), "claimed_score": 812})
    assert right.status_code == 201


@pytest.mark.parametrize(
    "body",
    [
        {"code": "SP1-S4C-AAAAAAA"},
        {"moves": []},
        {"code": 5, "moves": []},
        {"code": "SP1-S4C-AAAAAAA", "moves": "D"},
        {"code": "SP1-S4C-AAAAAAA", "moves": [], "claimed_score": "500"},
        {"code": "SP1-S4C-AAAAAAA", "moves": [], "key": 3},
    ],
)
def test_missing_or_mistyped_fields_are_400(player_api: APIClient, body: dict) -> None:
    assert submit(player_api, body).status_code == 400
    assert not Result.objects.exists()


def test_the_same_key_answers_the_same_and_writes_once(player_api: APIClient) -> None:
    body = {"code": "RU1-C-MFXTMVO", "moves": winning_log("RU1-C-MFXTMVO"), "key": "run-1"}
    first = submit(player_api, body)
    second = submit(player_api, body)
    assert first.status_code == second.status_code == 201
    assert first.json() == second.json()
    assert Result.objects.count() == 1 and Submission.objects.count() == 1
    other = submit(player_api, {**body, "moves": body["moves"][:-1]})
    assert other.status_code == 409
    assert Result.objects.count() == 1


def test_a_refusal_under_a_key_is_answered_the_same_again(player_api: APIClient) -> None:
    body = {"code": "SD1-S4-AAAAAAA", "moves": ["2:5>3"], "key": "bad-1"}
    first, second = submit(player_api, body), submit(player_api, body)
    assert first.status_code == second.status_code == 422 and first.json() == second.json()


def test_keys_belong_to_their_player(player_api: APIClient) -> None:
    body = {"code": "SD1-S1-HJSZOZN", "moves": winning_log("SD1-S1-HJSZOZN"), "key": "shared"}
    assert submit(player_api, body).status_code == 201
    other = APIClient()
    other.force_authenticate(make_player("bob"))
    assert submit(other, body).status_code == 201
    assert Result.objects.count() == 2


@override_settings(RATE_SUBMISSIONS=2)
def test_submissions_are_rate_limited(player_api: APIClient) -> None:
    body = {"code": "SP1-S4C-AAAAAAA", "moves": ["D"]}
    assert [submit(player_api, body).status_code for _ in range(3)] == [201, 201, 429]


@pytest.mark.django_db(transaction=True)
def test_concurrent_twins_under_one_key_write_one_result() -> None:
    player = make_player("twin")
    token = Token.objects.create(user=player).key
    body = {"code": "RU1-C-MFXTMVO", "moves": winning_log("RU1-C-MFXTMVO"), "key": "twin-key"}
    barrier = threading.Barrier(4)
    answers: list[tuple[int, dict]] = []

    def send() -> None:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        barrier.wait()
        response = submit(client, body)
        answers.append((response.status_code, response.json()))
        connection.close()

    threads = [threading.Thread(target=send) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [status for status, _ in answers] == [201] * 4
    assert all(body == answers[0][1] for _, body in answers)
    assert Result.objects.count() == 1
