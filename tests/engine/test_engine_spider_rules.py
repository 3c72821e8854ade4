"""Spider and Spiderette rules (docs/rules.md, Spider and Spiderette) on hand-made positions."""

from __future__ import annotations

import pytest

from games.engine import DealRow, FromFoundation, IllegalAction, Move, ToFoundation, Undo
from tests.engine.engine_helpers import position, ups

KING_TO_TWO = "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"
KING_TO_TWO_H = KING_TO_TWO.replace("S", "H")


def refused(game: object, token: str, words: str) -> None:
    before = game.state()  # type: ignore[attr-defined]
    with pytest.raises(IllegalAction) as info:
        game.apply(token)  # type: ignore[attr-defined]
    assert words in info.value.message, info.value.message
    assert game.state() == before  # type: ignore[attr-defined]


def test_single_card_onto_one_higher_whatever_the_suit() -> None:
    game = position("SP1-S4C-AAAAAAA", ["9H", "TS", "TD", "8C"])
    assert game.targets(1, 1) == [2, 3] + list(range(5, 11))
    game.apply("1:1>2")
    assert ups(game)[1] == ["TS", "9H"]
    refused(game, "4:1>3", "doesn't fit on the 10♦")


def test_classic_group_must_be_one_suit() -> None:
    game = position("SP1-S4C-AAAAAAA", ["9S 8H", "TS"])
    refused(game, "1:2>2", "In Classic Spider a group must be one suit")
    relaxed = position("SP1-S4R-AAAAAAA", ["9S 8H", "TS"])
    relaxed.apply("1:2>2")
    assert ups(relaxed)[1] == ["TS", "9S", "8H"]
    spiderette = position("SD1-S4-AAAAAAA", ["9S 8H", "TS"])
    refused(spiderette, "1:2>2", "In Spiderette a group must be one suit")


def test_group_must_run_down_one_rank_at_a_time_under_both_rules() -> None:
    for code in ("SP1-S4C-AAAAAAA", "SP1-S4R-AAAAAAA"):
        game = position(code, ["9S 7S", "TS"])
        refused(game, "1:2>2", "in sequence")
        game = position(code, ["9S TS", "JS"])
        refused(game, "1:2>2", "in sequence")


def test_long_group_no_limit_and_any_group_to_an_empty_column() -> None:
    game = position("SP1-S1C-AAAAAAA", [KING_TO_TWO, "3S", "", "5S"])
    game.apply("1:12>3")  # the whole run, K onto an empty column
    assert ups(game)[2] == KING_TO_TWO.split()
    game.apply("4:1>1")  # any card to an empty column, not only a king
    assert ups(game)[0] == ["5S"]


def test_nothing_goes_onto_an_ace() -> None:
    game = position("SP1-S2C-AAAAAAA", ["AS", "2H", "KH"])
    refused(game, "3:1>1", "nothing goes onto an ace")
    refused(game, "2:1>1", "nothing goes onto an ace")


def test_counts_columns_and_empty_sources() -> None:
    game = position("SP1-S1C-AAAAAAA", ["4S 3S | 9S", "", "TS"])
    refused(game, "1:2>3", "Column 1 has only 1 face-up card")
    refused(game, "2:1>3", "Column 2 is empty")
    refused(game, "11:1>3", "There is no column 11")
    refused(game, "1:1>12", "There is no column 12")
    sd = position("SD1-S1-AAAAAAA", ["9S"])
    refused(sd, "1:1>8", "There is no column 8")


def test_uncovered_card_flips_at_once() -> None:
    game = position("SP1-S2C-AAAAAAA", ["4H 7S | 9S", "TS"])
    game.apply("1:1>2")
    col = game.state()["columns"][0]  # type: ignore[index]
    assert col == {"down": ["4H"], "up": ["7S"]}
    assert game.view()["columns"][0] == {"down": 1, "up": ["7S"]}  # type: ignore[index]


def test_completed_sequence_removed_after_move_and_card_beneath_flips() -> None:
    game = position("SP1-S2C-AAAAAAA", [f"5H | {KING_TO_TWO}", "AS", "3D"], stock="")
    game.apply("2:1>1")
    state = game.state()
    assert state["columns"][0] == {"down": [], "up": ["5H"]}  # type: ignore[index]
    assert state["removed"] == ["S"]
    assert state["score"] == 500 - 1 + 100
    assert state["moves"] == 1
    assert game.sequences == 1


def test_mixed_suit_king_to_ace_is_never_removed() -> None:
    for code in ("SP1-S2C-AAAAAAA", "SP1-S2R-AAAAAAA"):
        mixed = "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2H"
        game = position(code, [mixed, "AH"])
        game.apply("2:1>1")
        assert ups(game)[0][-1] == "AH" and len(ups(game)[0]) == 13
        assert game.state()["removed"] == []
        assert game.score == 499


def test_a_face_down_card_in_the_run_prevents_removal() -> None:
    game = position("SP1-S1C-AAAAAAA", ["KS | QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", "AS"])
    game.apply("2:1>1")
    assert game.state()["removed"] == []


def test_deal_one_card_per_column_from_column_one() -> None:
    stock = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS"
    game = position("SP1-S1C-AAAAAAA", ["KS"] * 10, stock=stock)
    game.apply("D")
    assert [u[-1] for u in ups(game)] == stock.split()[:10]
    assert game.state()["stock"] == ["JS", "QS"]
    assert game.score == 499 and game.moves == 1


def test_deal_refused_while_a_column_is_empty_or_the_stock_is_empty() -> None:
    game = position("SP1-S1C-AAAAAAA", ["KS"] * 9, stock="AS " * 10)
    refused(game, "D", "You can't deal while a column is empty")
    game = position("SP1-S1C-AAAAAAA", ["KS"] * 10, stock="")
    refused(game, "D", "The stock is empty")


def test_a_deal_can_complete_several_sequences_column_by_column() -> None:
    columns = [f"9D | {KING_TO_TWO_H}", f"{KING_TO_TWO}"] + ["KC"] * 8
    stock = "AH AS 2C 3C 4C 5C 6C 7C 8C 9C"
    game = position("SP1-S4C-AAAAAAA", columns, stock=stock, score=1)
    before = game.state()
    game.apply("D")
    state = game.state()
    assert state["removed"] == ["H", "S"]
    assert state["columns"][0] == {"down": [], "up": ["9D"]}  # type: ignore[index]
    assert state["columns"][1] == {"down": [], "up": []}  # type: ignore[index]
    assert state["score"] == 0 + 200  # the -1 floored at 0 first, then the bonuses
    assert game.moves == 1
    game.apply("U")
    assert game.state() == before


def test_spiderette_last_deal_goes_to_columns_one_to_three() -> None:
    game = position("SD1-S1-AAAAAAA", ["KS"] * 7, stock="AS 2S 3S")
    game.apply("D")
    assert [u[-1] for u in ups(game)] == ["AS", "2S", "3S", "KS", "KS", "KS", "KS"]
    refused(game, "D", "The stock is empty")


def test_no_foundations_in_the_spider_family() -> None:
    game = position("SP1-S1C-AAAAAAA", ["KS"])
    refused(game, "1>F", "Spider has no foundations")
    refused(game, "FS>1", "Spider has no foundations")
    sd = position("SD1-S1-AAAAAAA", ["KS"])
    refused(sd, "1>F", "Spiderette has no foundations")
    assert not game.is_legal(ToFoundation(1)) and not game.is_legal(FromFoundation("S", 1))


def test_win_then_nothing_is_accepted() -> None:
    game = position("SD1-S1-AAAAAAA", [KING_TO_TWO, "AS"], removed="S S S")
    game.apply("2:1>1")
    assert game.won and game.sequences == 4
    assert game.legal_actions() == []
    refused(game, "U", "The game is won")
    refused(game, "D", "The game is won")
    assert game.undo_available == 1  # the document still counts the history
    assert game.targets(1, 1) == [] and game.best_target(1, 1) is None


def test_legal_moves_list_empty_columns_in_their_place_among_the_targets() -> None:
    game = position("SD1-S2-AAAAAAA", ["9H", "", "TS", "", "TH", "KH", "KH"])
    assert game.legal_actions() == [
        Move(1, 1, 2), Move(1, 1, 3), Move(1, 1, 4), Move(1, 1, 5),
        Move(3, 1, 2), Move(3, 1, 4),
        Move(5, 1, 2), Move(5, 1, 4),
        Move(6, 1, 2), Move(6, 1, 4),
        Move(7, 1, 2), Move(7, 1, 4),
    ]  # fmt: skip


def test_legal_actions_order_and_contents() -> None:
    game = position("SP1-S2C-AAAAAAA", ["9H 8H", "TS", "9S"] + ["KH"] * 7, stock="AS " * 10)
    legal = game.legal_actions()
    assert legal == [Move(1, 1, 3), Move(1, 2, 2), Move(3, 1, 2), DealRow()]
    assert Undo() not in legal
    game.apply("1:2>2")
    assert game.legal_actions()[-1] == Undo()
    assert all(game.is_legal(a) for a in game.legal_actions())
