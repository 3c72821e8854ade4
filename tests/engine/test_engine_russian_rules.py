"""Russian Solitaire rules (docs/rules.md, Russian Solitaire) on hand-made positions."""

from __future__ import annotations

import pytest

from games.engine import FromFoundation, Game, IllegalAction, Move, ToFoundation, Undo
from tests.engine.engine_helpers import position, ups


def refused(game: Game, token: str, words: str) -> None:
    before = game.state()
    with pytest.raises(IllegalAction) as info:
        game.apply(token)
    assert words.lower() in info.value.message.lower(), info.value.message
    assert game.state() == before


def test_yukon_group_moves_whatever_the_order() -> None:
    game = position("RU1-C-AAAAAAA", ["2D | 7H 3C 7D AS 4S TH", "8H"])
    game.apply("1:6>2")  # the 7H with everything on it, in any order
    assert ups(game)[1] == "8H 7H 3C 7D AS 4S TH".split()
    assert game.state()["columns"][0] == {"down": [], "up": ["2D"]}  # type: ignore[index]
    assert game.score == 5  # the flip


def test_classic_same_suit_only_relaxed_any_suit() -> None:
    game = position("RU1-C-AAAAAAA", ["7H", "8D", "8S", "8H"])
    refused(game, "1:1>2", "In Classic Russian Solitaire a card goes only onto the next higher card of the same suit")
    refused(game, "1:1>3", "same suit")
    assert game.targets(1, 1) == [4]
    relaxed = position("RU1-R-AAAAAAA", ["7H", "8D", "8S", "9H"])
    assert relaxed.targets(1, 1) == [2, 3]
    refused(relaxed, "1:1>4", "one rank higher")


def test_empty_column_takes_only_a_king() -> None:
    game = position("RU1-C-AAAAAAA", ["5D | QH JC", "KD 3S", "", "KS"])
    refused(game, "1:2>3", "Only a king can go to an empty column")
    refused(game, "1:1>3", "Only a king can go to an empty column")
    game.apply("2:2>3")  # a king with the cards on it
    assert ups(game)[2] == ["KD", "3S"]


def test_at_most_twenty_cards_move_at_once() -> None:
    big = "KH " + " ".join(["2C"] * 20)
    game = position("RU1-R-AAAAAAA", [big, "", "3D"])
    refused(game, "1:21>2", "At most 20 cards")  # even a king onto an empty column
    assert game.targets(1, 21) == []
    assert game.targets(1, 20) == [3]
    game.apply("1:20>3")
    assert len(ups(game)[2]) == 21


def test_counts_and_columns() -> None:
    game = position("RU1-C-AAAAAAA", ["2D 3D | 5S", "", "6S"])
    refused(game, "1:2>3", "Column 1 has only 1 face-up card")
    refused(game, "2:1>3", "Column 2 is empty")
    refused(game, "8:1>3", "There is no column 8")
    refused(game, "8>F", "There is no column 8")
    refused(game, "FS>8", "There is no column 8")
    refused(game, "D", "Russian Solitaire has no stock")


def test_foundations_from_the_ace_one_card_at_a_time() -> None:
    game = position("RU1-C-AAAAAAA", ["3H | 2S", "AS", "5D"])
    refused(game, "1>F", "needs an ace")
    refused(game, "3>F", "needs an ace")
    game.apply("2>F")
    assert game.score == 10 and game.cards_home == 1
    game.apply("1>F")  # 2S home, and the 3H flips: +10 +5
    assert game.score == 25
    assert game.state()["foundations"] == {"S": ["AS", "2S"], "H": [], "D": [], "C": []}
    assert game.moves == 2
    assert game.tap_action(1) is None  # 3H: the hearts foundation needs an ace
    refused(game, "1>F", "needs an ace")


def test_take_back_fits_by_the_tableau_rule_and_earns_again() -> None:
    game = position(
        "RU1-C-AAAAAAA",
        ["", "3S", "3D", "KS"],
        foundations={"S": "AS 2S", "H": "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"},
        score=300,
    )
    refused(game, "FS>3", "same suit")
    refused(game, "FS>1", "Only a king")
    game.apply("FS>2")
    assert ups(game)[1] == ["3S", "2S"]
    assert game.score == 300 and game.moves == 1 and game.cards_home == 14
    game.apply("2>F")
    assert game.score == 310 and game.moves == 2
    game.apply("FH>1")  # a king onto an empty column
    assert ups(game)[0] == ["KH"]
    refused(game, "FD>2", "foundation is empty")
    assert FromFoundation("H", 1) in game.legal_actions()  # the QH onto the KH
    assert FromFoundation("H", 4) not in game.legal_actions()  # not onto the KS
    assert FromFoundation("H", 5) not in game.legal_actions()  # not onto an empty column
    game.apply("FH>1")
    assert ups(game)[0] == ["KH", "QH"] and game.score == 310
    game.apply("1>F")
    assert game.score == 320  # home again: +10 again


def test_win_when_all_52_are_home_then_nothing() -> None:
    home = {s: " ".join(r + s for r in "A23456789TJQ") for s in "SHDC"}
    game = position("RU1-C-AAAAAAA", ["KS", "KH", "KD", "KC"], foundations=home, score=600)
    for token in ("1>F", "2>F", "3>F"):
        game.apply(token)
        assert not game.won
    assert game.tap_action(4) == ToFoundation(4)
    game.apply("4>F")
    assert game.won and game.cards_home == 52 and game.score == 640
    assert game.legal_actions() == [] and game.tap_action(1) is None
    refused(game, "U", "The game is won")
    refused(game, "FS>1", "The game is won")


def test_legal_moves_list_each_group_with_its_targets_in_column_order() -> None:
    game = position("RU1-C-AAAAAAA", ["KH", "", "QH", "", "KS", "JH", "QS"], foundations={"S": "AS 2S"})
    assert game.legal_actions() == [
        Move(1, 1, 2), Move(1, 1, 4),
        Move(3, 1, 1),
        Move(5, 1, 2), Move(5, 1, 4),
        Move(6, 1, 3),
        Move(7, 1, 5),
    ]  # fmt: skip


def test_legal_actions_cover_moves_home_and_take_backs() -> None:
    game = position("RU1-C-AAAAAAA", ["AS", "3H | 2S TD", "3S"], foundations={"H": "AH"})
    legal = game.legal_actions()
    assert ToFoundation(1) in legal
    assert Move(2, 2, 3) in legal  # the 2S with the TD on it, onto the 3S
    assert Move(2, 1, 3) not in legal
    assert FromFoundation("H", 1) not in legal
    assert Undo() not in legal
    assert all(game.is_legal(a) for a in legal)
