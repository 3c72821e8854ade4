"""A hint is chosen from the player's view only (games/engine/hint.py): each kind in its order, the
same hint whatever the hidden cards are, and hints followed one after another end."""

from __future__ import annotations

import random
import string

import pytest

from games.engine import ALL_VARIANTS, DealRow, Game, Move, ToFoundation
from tests.engine.engine_helpers import position

SPIDER = "SP1-S4C-AAAAAAA"
RUSSIAN = "RU1-C-AAAAAAA"


def _hint(game: Game) -> tuple[str, str] | None:
    hint = game.hint()
    return None if hint is None else (str(hint.action), hint.reason)


def test_a_move_that_turns_a_card_comes_first_and_onto_its_own_suit_first() -> None:
    # Column 1's 8S lies on a face-down card: it may go onto column 2's 9H or column 3's 9S.
    game = position(SPIDER, ["2C | 8S", "9H", "9S", "7D 6D", "5C"], stock="KC " * 10)
    assert _hint(game) == ("1:1>3", "turns_card")
    # Of two such moves, the one from the column with the fewer face-down cards.
    game = position(SPIDER, ["2C 3C | 8S", "9H", "4C | 8D", "AH"], stock="KC " * 10)
    assert _hint(game) == ("3:1>2", "turns_card")
    # Onto a card before into an empty column.
    game = position(SPIDER, ["2C | 8S", "", "9D", "AH"], stock="KC " * 10)
    assert _hint(game) == ("1:1>3", "turns_card")


def test_then_a_move_onto_the_next_higher_card_of_its_suit_that_breaks_no_run() -> None:
    # 7H may go onto 8H (column 3); 6S sits on 7S already: moving it to the other 7S builds nothing new.
    game = position(SPIDER, ["5C 7H", "7S 6S", "8H", "7S", "AD"], stock="KC " * 10)
    assert _hint(game) == ("1:1>3", "builds_suit")


def test_a_deal_before_emptying_a_column_while_the_stock_has_rows_and_emptying_once_it_is_empty() -> None:
    columns = ["7H", "8C", "AD", "AD", "AD", "AD", "AD", "AD", "AD", "AD"]
    assert _hint(position(SPIDER, columns, stock="KC " * 10)) == ("D", "deal")
    assert _hint(position(SPIDER, columns)) == ("1:1>2", "empties_column")


def test_an_empty_column_that_forbids_a_deal_is_filled_without_breaking_a_run() -> None:
    # No deal with a column empty: a card goes there, but not the 6S off its 7S.
    game = position(SPIDER, ["", "7S 6S", "9D 2H", "AD", "AD", "AD", "AD", "AD", "AD", "AD"], stock="KC " * 10)
    assert not game.is_legal(DealRow())
    assert _hint(game) == ("3:1>1", "fills_for_deal")


def test_nothing_to_suggest_is_none() -> None:
    game = position(SPIDER, ["AD", "AD", "AD", "AD", "AD", "AD", "AD", "AD", "AD", "AD"])
    assert game.legal_actions() == [] and game.hint() is None
    # A sideways move between two runs of other suits helps nothing: no hint for it.
    game = position(SPIDER, ["KS 7H", "8C", "8D", "AD", "AD", "AD", "AD", "AD", "AD", "AD"])
    assert game.legal_actions() and game.hint() is None


def test_russian_sends_a_card_home_first() -> None:
    game = position(RUSSIAN, ["3H | AS", "KD | 5C", "6C"], foundations={"H": "AH"})
    assert _hint(game) == ("1>F", "home")
    game = position(RUSSIAN, ["3H | 9S", "KD | 5C", "6C"], foundations={"H": "AH"})
    assert _hint(game) == ("2:1>3", "turns_card")


def _same_view_other_hidden_cards(game: Game, rng: random.Random) -> Game:
    """A game with the same view (face-up cards, counts) whose face-down and stock cards are shuffled."""
    state = game.state()
    columns = state["columns"]
    stock = state["stock"]
    assert isinstance(columns, list) and isinstance(stock, list)
    hidden = [card for column in columns for card in column["down"]] + list(stock)
    rng.shuffle(hidden)
    for column in columns:
        column["down"], hidden = hidden[: len(column["down"])], hidden[len(column["down"]) :]
    state["stock"] = hidden
    return Game.from_state(state)


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_the_hint_is_the_same_whatever_the_hidden_cards_are(variant: str) -> None:
    rng = random.Random(variant)
    for _ in range(8):
        game = Game.from_code(f"{variant}-" + "".join(rng.choice(string.ascii_uppercase) for _ in range(7)))
        for _ in range(rng.randrange(0, 30)):  # somewhere into the game, by legal actions
            actions = [a for a in game.legal_actions() if isinstance(a, Move | DealRow | ToFoundation)]
            if not actions or game.won:
                break
            game.push(rng.choice(actions))
        other = _same_view_other_hidden_cards(game, rng)
        assert {**other.view(), "undo_available": 0} == {**game.view(), "undo_available": 0}
        assert other.hint() == game.hint()


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_hints_followed_one_after_another_never_come_back_to_a_position_and_end(variant: str) -> None:
    rng = random.Random(variant)
    for _ in range(10):
        game = Game.from_code(f"{variant}-" + "".join(rng.choice(string.ascii_uppercase) for _ in range(7)))
        seen: set[str] = set()
        while (hint := game.hint()) is not None:
            assert game.is_legal(hint.action)
            key = repr(game.state()["columns"]) + repr(game.state()["stock"])
            assert key not in seen
            seen.add(key)
            game.push(hint.action)
            if game.won:
                break
        assert len(seen) < 1000
