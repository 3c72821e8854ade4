"""One ranked attempt per daily, also when requests race each other over HTTP; an action or a
finish sent twice at once is applied once."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import GameAction, GameSession, Player, Result
from tests.conftest import make_player

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("prepared_dailies")]
VARIANT = "SP1-S2C"
RACERS = 6


def all_at_once(player: Player, call: Callable[[APIClient], Any]) -> list[tuple[int, dict[str, Any]]]:
    """`call` from RACERS threads released together, each with its own client and connection."""
    token = Token.objects.get_or_create(user=player)[0].key
    barrier = threading.Barrier(RACERS)
    answers: list[tuple[int, dict[str, Any]]] = []

    def run() -> None:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        try:
            barrier.wait(timeout=30)
            response = call(client)
            answers.append((response.status_code, response.json()))
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(RACERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(answers) == RACERS
    return answers


def start_daily(client: APIClient) -> Any:
    return client.post("/api/sessions", {"daily": VARIANT}, format="json")


def test_racing_starts_give_one_ranked_attempt_and_after_it_only_practice() -> None:
    player = make_player("racer")
    first = all_at_once(player, start_daily)
    assert {status for status, _ in first} <= {200, 201}
    assert len({body["id"] for _, body in first}) == 1 and all(body["ranked"] for _, body in first)
    ranked_id = first[0][1]["id"]
    client = APIClient()
    client.force_authenticate(player)
    assert client.post(f"/api/sessions/{ranked_id}/finish").status_code == 200
    again = all_at_once(player, start_daily)
    assert all(status == 201 and not body["ranked"] and body["board"] is None for status, body in again)
    assert GameSession.objects.filter(player=player, ranked=True).count() == 1
    assert Result.objects.filter(player=player).exclude(board=None).count() == 1


def test_a_finish_sent_many_times_at_once_ends_the_game_once() -> None:
    player = make_player("finisher")
    client = APIClient()
    client.force_authenticate(player)
    session_id = start_daily(client).json()["id"]
    answers = all_at_once(player, lambda c: c.post(f"/api/sessions/{session_id}/finish"))
    assert sorted(status for status, _ in answers) == [200] + [409] * (RACERS - 1)
    assert Result.objects.filter(session_id=session_id).count() == 1


def test_the_same_action_sent_many_times_at_once_is_logged_in_order_once_each(settings: Any) -> None:
    settings.RATE_ACTIONS = 1000
    player = make_player("doubler")
    client = APIClient()
    client.force_authenticate(player)
    session_id = client.post("/api/sessions", {"code": "SP1-S2C-AAAAAKQ"}, format="json").json()["id"]
    answers = all_at_once(
        player, lambda c: c.post(f"/api/sessions/{session_id}/actions", {"action": "D"}, format="json")
    )
    applied = sorted(body["actions"] for status, body in answers if status == 200)
    # Each accepted D is its own action at its own position; none was applied twice or lost.
    assert applied == list(range(1, len(applied) + 1)) and applied
    assert list(GameAction.objects.filter(session_id=session_id).order_by("seq").values_list("seq", "token")) == [
        (seq, "D") for seq in applied
    ]
    assert GameSession.objects.get(pk=session_id).action_count == len(applied)
