"""What the browser needs: drop targets, the double-click target, Russian's single tap."""

from __future__ import annotations

from games.engine import Game, Move, ToFoundation
from tests.engine.engine_helpers import position


def test_targets_are_the_legal_columns() -> None:
    game = position("SP1-S4C-AAAAAAA", ["9S 8S", "9H", "TD", "", "TS", "AS"] + ["KC"] * 4)
    assert game.targets(1, 1) == [2, 4]
    assert game.targets(1, 2) == [3, 4, 5]
    assert game.targets(1, 3) == []
    assert game.targets(4, 1) == []
    assert game.targets(11, 1) == [] and game.targets(0, 1) == [] and game.targets(1, 0) == []


def test_spider_double_click_same_suit_then_other_suit_then_empty() -> None:
    game = position("SP1-S4C-AAAAAAA", ["8S", "", "9H", "9S", "9D", "9S"] + ["KC"] * 4)
    assert game.best_target(1, 1) == 4  # same suit, leftmost of 4 and 6
    game = position("SP1-S4C-AAAAAAA", ["8S", "", "9H", "9D"] + ["KC"] * 6)
    assert game.best_target(1, 1) == 3  # another suit before an empty column
    game = position("SP1-S4C-AAAAAAA", ["8S", "KC", "", "KC", ""] + ["KC"] * 5)
    assert game.best_target(1, 1) == 3  # the leftmost empty column
    game = position("SP1-S4C-AAAAAAA", ["8S"] + ["KC"] * 9)
    assert game.best_target(1, 1) is None


def test_spiderette_double_click_same_suit_then_empty_then_other_suit() -> None:
    game = position("SD1-S4-AAAAAAA", ["8S", "9H", "", "9S", "KC", "KC", "KC"])
    assert game.best_target(1, 1) == 4
    game = position("SD1-S4-AAAAAAA", ["8S", "9H", "", "KC", "KC", "KC", "KC"])
    assert game.best_target(1, 1) == 3  # empty before another suit
    game = position("SD1-S4-AAAAAAA", ["8S", "9H", "KC", "KC", "KC", "KC", "9D"])
    assert game.best_target(1, 1) == 2


def test_russian_double_tap_longest_column_first_then_an_empty_column_for_a_king() -> None:
    game = position("RU1-R-AAAAAAA", ["7C", "8H", "2C | 8D", "3C 4C 8S", "", "KD"])
    assert game.best_target(1, 1) == 4  # 8S's column has 3 cards, the 8D's 2, the 8H's 1
    game = position("RU1-R-AAAAAAA", ["7C", "2C | 8D", "3C | 8S"])
    assert game.best_target(1, 1) == 2  # a tie goes leftmost
    game = position("RU1-C-AAAAAAA", ["QD | KS 7C", "", "AS AH AD AC QH"])
    assert game.best_target(1, 2) == 2  # the king with the card on it to the empty column
    game = position("RU1-C-AAAAAAA", ["QD | QS", "KH", "", "KS"])
    assert game.best_target(1, 1) == 4


def test_russian_single_tap_sends_the_last_card_home_if_it_fits() -> None:
    game = position("RU1-C-AAAAAAA", ["AS", "2H", "2S", ""], foundations={"H": "AH"})
    assert game.tap_action(1) == ToFoundation(1)
    assert game.tap_action(2) == ToFoundation(2)
    assert game.tap_action(3) is None
    assert game.tap_action(4) is None and game.tap_action(9) is None


def test_spider_single_click_does_nothing() -> None:
    assert Game.from_code("SP1-S1C-AAAAAAD").tap_action(1) is None


def test_a_group_that_cannot_be_picked_up_says_the_rule_whatever_the_target() -> None:
    game = position("SP1-S4C-AAAAAAA", ["9S 8H", "9H 8H 7H", "TD", "KC 3S"] + ["KC"] * 6)
    mixed = game.lift_refusal(1, 2)
    assert mixed is not None and mixed.rule == "group_one_suit"
    assert mixed.params == {"game": "Spider", "card": "8H", "below": "9S"}
    assert game.lift_refusal(2, 3) is None and game.lift_refusal(1, 1) is None
    not_a_run = game.lift_refusal(4, 2)
    assert not_a_run is not None and not_a_run.rule == "not_a_run"
    too_many = game.lift_refusal(3, 2)
    assert too_many is not None and too_many.rule == "not_enough_face_up"
    missing = game.lift_refusal(11, 1)
    assert missing is not None and missing.rule == "no_such_column"
    # The same verdict as any move of that group gets, onto a column where it would fit.
    moved = game.refusal_error(Move(1, 2, 3))
    assert moved is not None and (moved.rule, moved.params) == (mixed.rule, mixed.params)


def test_relaxed_spider_lifts_mixed_suits() -> None:
    game = position("SP1-S4R-AAAAAAA", ["9S 8H"] + ["KC"] * 9)
    assert game.lift_refusal(1, 2) is None


def test_russian_lifts_any_face_up_group_of_at_most_twenty() -> None:
    up = " ".join(f"{rank}{suit}" for suit in "SH" for rank in "A23456789TJ")  # 22 cards, no order
    game = position("RU1-C-AAAAAAA", [f"KD | {up}", "KC"])
    assert game.lift_refusal(1, 20) is None
    too_big = game.lift_refusal(1, 21)
    assert too_big is not None and too_big.rule == "group_too_big" and too_big.params["limit"] == 20
    beyond = game.lift_refusal(1, 23)
    assert beyond is not None and beyond.rule == "not_enough_face_up"


def test_how_many_cards_a_move_home_takes_comes_from_the_engine() -> None:
    assert Game.from_code("SP1-S1C-AAAAAAD").home_move_cards == 0
    assert Game.from_code("SD1-S1-AAAAAAD").home_move_cards == 0
    assert Game.from_code("RU1-C-AAAAAAD").home_move_cards == 1
