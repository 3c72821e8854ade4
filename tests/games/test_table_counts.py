"""The counts the table is drawn from come with every session document: the browser works
out no deal sizes or sequence counts of its own."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def _start(api: APIClient, code: str) -> dict:
    response = api.post("/api/sessions", {"code": code}, format="json")
    assert response.status_code == 201
    return response.json()


@pytest.mark.parametrize(
    "code, table",
    [
        ("SP1-S4C-AAAAAAA", {"columns": 10, "deals_left": 5, "sequences": 8, "foundations": 0, "home_move_cards": 0}),
        ("SD1-S4-AAAAAAA", {"columns": 7, "deals_left": 4, "sequences": 4, "foundations": 0, "home_move_cards": 0}),
        ("RU1-C-AAAAABB", {"columns": 7, "deals_left": 0, "sequences": 0, "foundations": 4, "home_move_cards": 1}),
    ],
)
def test_each_game_names_its_table(player_api: APIClient, code: str, table: dict) -> None:
    assert _start(player_api, code)["table"] == table


def test_spiderettes_short_last_deal_counts_as_a_deal(player_api: APIClient) -> None:
    doc = _start(player_api, "SD1-S4-AAAAAAA")
    seen = []
    for _ in range(4):  # 24 cards: 7, 7, 7 and then the last 3
        seen.append((doc["view"]["stock"], doc["table"]["deals_left"]))
        response = player_api.post(f"/api/sessions/{doc['id']}/actions", {"action": "D"}, format="json")
        assert response.status_code == 200, response.json()
        doc = response.json()
    seen.append((doc["view"]["stock"], doc["table"]["deals_left"]))
    assert seen == [(24, 4), (17, 3), (10, 2), (3, 1), (0, 0)]
