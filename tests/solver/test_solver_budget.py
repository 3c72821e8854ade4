"""The budget and determinism: certification must be reproducible."""

from __future__ import annotations

import pytest

from games.engine import GameCode, InvalidCode
from games.solver import Solution, solve


def test_gives_up_as_unknown_at_a_tiny_budget() -> None:
    solution = solve("SP1-S4C-AAAAAAA", 0.0)
    assert solution == Solution("unknown", (), None, solution.seconds, solution.nodes)
    assert solution.seconds < 1


def test_gives_up_within_about_its_budget_on_a_hard_deal() -> None:
    solution = solve("SP1-S4C-AAAAAAA", 0.5)
    assert solution.status in ("unknown", "won")
    assert solution.seconds < 3


def test_the_same_deal_gives_the_same_line() -> None:
    first = solve("SD1-S2-AAAAAAB", 60)
    second = solve(GameCode.parse("sd1-s2-aaaaaab"), 60)
    assert first.status == second.status == "won"
    assert (first.actions, first.par, first.nodes) == (second.actions, second.par, second.nodes)


def test_long_codes_are_solved_too() -> None:
    solution = solve("RU1-R-AAAAAAAAAAAAAAAAAAAB", 30)
    assert solution.status == "won" and solution.par == len(solution.actions)


def test_an_endless_budget_is_taken_as_a_long_one() -> None:
    assert solve("SD1-S1-HJSZOZN", float("inf")).status == "won"


def test_a_text_that_is_not_a_code_is_refused_as_the_engine_refuses_it() -> None:
    with pytest.raises(InvalidCode) as refused:
        solve("SP1-S1R-AAAAAAA", 1)
    assert refused.value.rule == "code_one_suit_relaxed"
