"""Scores and counters: the seeds' worked examples (847, 1183, 625) and the floors."""

from __future__ import annotations

import pytest

from games.engine import Game, replay
from tests.engine.engine_helpers import load_vectors, position

RUN = "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"


def shuttle(source: int, spare: int, count: int, times: int) -> list[str]:
    """Move a group to an empty column and back, ``times`` moves in all."""
    tokens = []
    a, b = source, spare
    for _ in range(times):
        tokens.append(f"{a}:{count}>{b}")
        a, b = b, a
    return tokens


def test_spider_win_in_117_moves_ends_at_1183() -> None:
    """Spider seed: a win in 117 moves that never reaches 0 ends at 500 - 117 + 800."""
    game = position("SP1-S1C-AAAAAAA", [RUN] * 8 + ["AS " * 8, ""])
    tokens = shuttle(1, 10, 12, 109)  # ends with the run in column 10
    tokens += ["9:1>10"] + [f"9:1>{c}" for c in range(2, 9)]
    for token in tokens:
        game.apply(token)
        assert game.score > 0
    assert len(tokens) == game.moves == 117
    assert game.won and game.sequences == 8
    assert game.score == 500 - 117 + 800 == 1183


def test_spiderette_win_in_53_moves_ends_at_847() -> None:
    """Spiderette seed: a win in 53 moves ends at 500 - 53 + 400."""
    game = position("SD1-S1-AAAAAAA", [RUN] * 4 + ["AS " * 4])
    tokens = shuttle(1, 6, 12, 49) + ["5:1>6", "5:1>2", "5:1>3", "5:1>4"]
    for token in tokens:
        game.apply(token)
    assert game.won and game.moves == 53
    assert game.score == 500 - 53 + 400 == 847


def test_real_spider_and_spiderette_wins_follow_the_formula() -> None:
    cases = {c["code"]: c for c in load_vectors("replays.json")["cases"]}
    for code, sequences in (("SP1-S1C-QTEKPFM", 8), ("SD1-S1-HJSZOZN", 4)):
        game = replay(code, cases[code]["moves"]).game
        assert game is not None and game.won
        assert game.score == 500 - game.moves + 100 * sequences


@pytest.mark.parametrize("case", load_vectors("russian_wins.json")["cases"], ids=lambda c: c["code"])
def test_russian_win_without_take_backs_ends_at_625(case: dict[str, object]) -> None:
    moves = case["moves"]
    assert isinstance(moves, list) and not any(str(t).upper().startswith("F") for t in moves)
    result = replay(str(case["code"]), moves)
    assert result.ok and result.game is not None and result.game.won
    assert result.game.score == 52 * 10 + 21 * 5 == 625
    assert result.game.moves == len(moves) and result.game.cards_home == 52


def test_russian_take_backs_earn_again() -> None:
    cases = {c["code"]: c for c in load_vectors("replays.json")["cases"]}
    tokens = cases["RU1-C-MFXTMVO"]["moves"]
    take_backs = sum(t.upper().startswith("F") for t in tokens)
    game = replay("RU1-C-MFXTMVO", tokens).game
    assert game is not None and game.won
    assert game.score == 625 + 10 * take_backs == 655


def test_spider_floor_applies_to_each_minus_one_before_the_bonus() -> None:
    game = position("SP1-S1C-AAAAAAA", [RUN, "AS", "5S", ""], score=1)
    game.apply("3:1>4")
    assert game.score == 0
    game.apply("4:1>3")
    assert game.score == 0  # never below 0
    game.apply("2:1>1")
    assert game.score == 100  # 0 - 1 floored to 0, then +100
    assert game.moves == 3
    game.apply("U")
    assert game.score == 0 and game.moves == 2


def test_spiderette_has_no_floor() -> None:
    game = position("SD1-S1-AAAAAAA", [RUN, "AS", "5S", ""], score=1)
    for token, score in (("3:1>4", 0), ("4:1>3", -1), ("3:1>4", -2), ("2:1>1", 97)):
        game.apply(token)
        assert game.score == score


def test_russian_flip_and_home_points_and_the_counter() -> None:
    game = position("RU1-C-AAAAAAA", ["4D | AS", "9C | 2S", "3S"])
    game.apply("1>F")  # +10, and the 4D flips: +5
    game.apply("2:1>3")  # the 9C flips: +5
    assert (game.score, game.moves) == (20, 2)
    assert Game.from_code("RU1-C-AAAAAAA").score == 0
