"""The solver wins the deals of every winning log in the vectors, and its lines replay as wins."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import Game, replay
from games.solver import solve, solve_game
from tests.engine.engine_helpers import load_vectors, position

WINNING = [c for c in load_vectors("replays.json")["cases"] if c["expect"]["ok"] and c["expect"]["state"]["won"]]
WINNING += load_vectors("russian_wins.json")["cases"]
BUDGET = 60.0


@pytest.mark.parametrize("case", WINNING, ids=[c["code"] for c in WINNING])
def test_wins_the_deal_of_a_winning_log(case: dict[str, Any]) -> None:
    solution = solve(case["code"], BUDGET)
    assert solution.status == "won"
    result = replay(case["code"], list(solution.actions))
    assert result.ok and result.game is not None and result.game.won
    assert solution.par == result.game.moves == len(solution.actions)
    assert solution.nodes > 0 and solution.seconds >= 0


def test_the_vectors_hold_winning_logs_of_each_game() -> None:
    assert {c["code"][:2] for c in WINNING} == {"SP", "SD", "RU"}


def test_wins_a_small_hand_made_russian_position_from_where_it_stands() -> None:
    game = _russian_hearts("2H 3H", "KH QH JH TH 9H 8H 7H 6H 5H 4H", moves=7)
    solution = solve_game(game, 5)
    assert solution.status == "won"
    assert solution.actions[0] == "1:1>2"  # 3H onto 4H: the only way to reach 2H
    check = game.copy()
    assert check.run(solution.actions) is None and check.won
    assert solution.par == 7 + len(solution.actions)


def test_wins_a_small_spider_position_that_must_deal_before_it_empties_a_column() -> None:
    # Ten single spades and three in the stock: a deal is refused once a column is empty.
    columns = ["KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S"]
    game = position("SP1-S1C-AAAAAAA", columns, stock="3S 2S AS", removed="S S S S S S S")
    solution = solve_game(game, 5)
    assert solution.status == "won" and solution.actions[0] == "D"
    check = game.copy()
    assert check.run(solution.actions) is None and check.won and check.sequences == 8


def test_a_won_position_needs_no_action() -> None:
    game = Game.from_code("SD1-S1-AAAAAAA")
    won = position("SD1-S1-AAAAAAA", [], removed="S S S S")
    assert won.won and not game.won
    solution = solve_game(won, 1)
    assert solution.status == "won" and solution.actions == () and solution.par == 0


def _russian_hearts(*columns: str, moves: int = 0) -> Game:
    home = {s: " ".join(r + s for r in "A23456789TJQK") for s in "SDC"}
    return position("RU1-C-AAAAAAA", list(columns), foundations={**home, "H": "AH"}, moves=moves)
