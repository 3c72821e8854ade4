"""The counts the table is drawn from come with every session document: the browser works
out no deal sizes, sequence counts or goals of its own."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.engine import Game
from games.engine.layout import LAYOUTS

pytestmark = pytest.mark.django_db


def _start(api: APIClient, code: str) -> dict:
    response = api.post("/api/sessions", {"code": code}, format="json")
    assert response.status_code == 201
    return response.json()


def _act(api: APIClient, doc: dict, action: str) -> dict:
    response = api.post(f"/api/sessions/{doc['id']}/actions", {"action": action}, format="json")
    assert response.status_code == 200, response.json()
    return response.json()


SPIDER = {"columns": 10, "deals": 5, "deals_left": 5, "sequences": 8, "foundations": 0, "home_move_cards": 0}
SPIDERETTE = {"columns": 7, "deals": 4, "deals_left": 4, "sequences": 4, "foundations": 0, "home_move_cards": 0}
RUSSIAN = {"columns": 7, "deals": 0, "deals_left": 0, "sequences": 0, "foundations": 4, "home_move_cards": 1}


@pytest.mark.parametrize(
    "code, table",
    [
        ("SP1-S4C-AAAAAAA", {**SPIDER, "goal": "sequences", "goal_total": 8}),
        ("SD1-S4-AAAAAAA", {**SPIDERETTE, "goal": "sequences", "goal_total": 4}),
        ("RU1-C-AAAAABB", {**RUSSIAN, "goal": "cards_home", "goal_total": 52}),
    ],
)
def test_each_game_names_its_table(player_api: APIClient, code: str, table: dict) -> None:
    assert _start(player_api, code)["table"] == table


@pytest.mark.parametrize("code", ["SP1-S2R-AAAAAAA", "SD1-S1-AAAAAAA", "RU1-R-AAAAAAD"])
def test_the_table_is_the_engines_numbers(player_api: APIClient, code: str) -> None:
    game = Game.from_code(code)
    layout = LAYOUTS[game.code.game]
    table = _start(player_api, code)["table"]
    assert (table["columns"], table["sequences"]) == (layout.columns, layout.sequences)
    assert (table["deals"], table["deals_left"]) == (layout.deals, game.rows_left)
    assert (table["goal"], table["goal_total"]) == (layout.goal, layout.goal_total)
    assert table["home_move_cards"] == game.home_move_cards


def test_spiderettes_short_last_deal_counts_as_a_deal(player_api: APIClient) -> None:
    doc = _start(player_api, "SD1-S4-AAAAAAA")
    seen = []
    for _ in range(4):  # 24 cards: 7, 7, 7 and then the last 3
        seen.append((doc["view"]["stock"], doc["table"]["deals_left"]))
        doc = _act(player_api, doc, "D")
    seen.append((doc["view"]["stock"], doc["table"]["deals_left"]))
    assert seen == [(24, 4), (17, 3), (10, 2), (3, 1), (0, 0)]
    assert doc["table"]["deals"] == 4  # the full stock's deals stay what they were


def test_a_spider_deal_takes_one_deal_off_and_an_undo_puts_it_back(player_api: APIClient) -> None:
    doc = _start(player_api, "SP1-S1C-AAAAAAA")
    dealt = _act(player_api, doc, "D")
    assert (dealt["view"]["stock"], dealt["table"]["deals_left"]) == (40, 4)
    undone = _act(player_api, dealt, "U")
    assert (undone["view"]["stock"], undone["table"]["deals_left"]) == (50, 5)


def test_a_russian_game_counts_cards_home_towards_all_52(player_api: APIClient) -> None:
    doc = _start(player_api, "RU1-C-AAAAAAD")  # its first column's ace may go home at once
    assert "1>F" in doc["legal"]
    home = _act(player_api, doc, "1>F")
    assert (home["table"]["goal"], home["table"]["goal_total"]) == ("cards_home", 52)
    assert sum(len(pile) for pile in home["view"]["foundations"].values()) == 1
    assert home["table"]["deals_left"] == 0 and home["view"]["stock"] == 0
