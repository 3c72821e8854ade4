"""Small hand-made positions the solver proves lost, each checked by a search with no pruning."""

from __future__ import annotations

import pytest

from games.engine import Game
from games.solver import solve, solve_game
from tests.engine.engine_helpers import position
from tests.solver.solver_helpers import engine_can_win

# Spiderette, three sequences removed: the thirteen hearts and a few spades, no stock.
SPIDERETTE_LOST = [
    ["TS 4H 8H | AS 9H", "6H | 4S TH", "KS 2H", "AH", "KH", "7S 3H | QH", "JH 7H 5H"],
    ["KH", "3H", "2H AH 4H", "7S 5H 7H", "QH | 3S", "9H 4S | AS", "JH | 6H 8H TS TH"],
]
# Too big for the engine's exhaustive check in a unit test (bench/README.md), small for the solver.
SPIDERETTE_LOST_BIGGER = [
    ["7H", "9H", "6H | QS", "5H", "JH KH | 4H", "2H 8H TH | QH TS 5S 3H 3S", "AH"],
    ["3H | JH", "7H", "4S", "5H", "TH 8H 2H 6H QS | 9H AH QH", "4H", "KH | 3S"],
]


def spiderette(columns: list[str]) -> Game:
    return position("SD1-S2-AAAAAAA", columns, removed="S H S")


def russian_hearts(*columns: str, foundations: dict[str, str] | None = None) -> Game:
    home = {s: " ".join(r + s for r in "A23456789TJQK") for s in "SDC"}
    return position("RU1-C-AAAAAAA", list(columns), foundations={**home, "H": "AH", **(foundations or {})})


@pytest.mark.parametrize("columns", SPIDERETTE_LOST, ids=["a", "b"])
def test_proves_a_spiderette_position_lost_after_searching_all_of_it(columns: list[str]) -> None:
    game = spiderette(columns)
    solution = solve_game(game, 30)
    assert solution.status == "unwinnable"
    assert solution.actions == () and solution.par is None
    assert solution.nodes > 100  # there was play: the proof is a search, not a look at the tops
    assert not engine_can_win(game)


@pytest.mark.parametrize("columns", SPIDERETTE_LOST_BIGGER, ids=["c", "d"])
def test_proves_bigger_spiderette_positions_lost(columns: list[str]) -> None:
    solution = solve_game(spiderette(columns), 30)
    assert solution.status == "unwinnable" and solution.nodes > 300


def test_russian_classic_two_hearts_above_the_three() -> None:
    # 3H cannot go home (2H is under it) nor onto 4H (4H is under both): lost however the rest goes.
    game = russian_hearts(
        "4H 2H 3H",
        "KH QH JH TH 9H 8H 7H 6H 5H",
        "KD | QC 7D",
        "2D 5C JD | TD 9D 3C",
        "8D 6C 4C | AD",
        "KC | 5D 9C 8C 2C",
        "JC TC 4D 3D | AC 7C 6D QD",
        foundations={"D": "", "C": ""},
    )
    solution = solve_game(game, 30)
    assert solution.status == "unwinnable" and solution.nodes > 20
    assert not engine_can_win(game)


def test_the_same_position_with_the_hearts_the_other_way_round_is_won() -> None:
    game = russian_hearts("2H 4H 3H", "KH QH JH TH 9H 8H 7H 6H 5H")
    solution = solve_game(game, 10)
    check = game.copy()
    assert solution.status == "won" and check.run(solution.actions) is None and check.won


def test_a_position_without_the_cards_for_a_sequence_is_lost() -> None:
    # Three sequences removed and four spades left: nothing can ever complete, however they move.
    game = position("SD1-S1-AAAAAAA", ["KS QS", "9S | TS", "8S"], removed="S S S")
    solution = solve_game(game, 30)
    assert solution.status == "unwinnable" and solution.nodes > 10
    assert not engine_can_win(game)


def test_proves_a_real_spiderette_deal_lost_and_the_engine_agrees() -> None:
    # One of bench/solver.py's deals: the focused dives exhaust their space, then the search over
    # every move does, in about 1,500 positions.
    code = "SD1-S4-TNMQICJPRECJSWMVMUHK"
    solution = solve(code, 60)
    assert solution.status == "unwinnable" and solution.actions == () and solution.par is None
    assert not engine_can_win(Game.from_code(code))
