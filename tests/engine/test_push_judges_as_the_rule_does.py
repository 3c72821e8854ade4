"""`push` judges a move inline (the replay's fast path) and `refusal_error` by the rule's own text:
for every move, legal or not, the two must agree, and a refused push must leave the game as it was."""

from __future__ import annotations

import random

import pytest

from games.engine import ALL_VARIANTS, UNDO_LIMIT, Game, IllegalAction, Move
from tests.engine.engine_helpers import position

RUN_OF_21 = "KH QS JH TS 9H 8S 7H 6S 5H 4S 3H 2S AH KS QH JS TH 9S 8H 7S 6H"


def _agree_on_every_move(game: Game) -> tuple[int, int]:
    """Every move from and to each column (and one past each end), of every count from none to
    one more than the tallest column, pushed on a copy of `game` and asked of the rule; (played,
    refused)."""
    width = len(game._cols)
    tallest = max(len(column) for column in game._cols)
    played = refused = 0
    for s in range(width + 2):
        for t in range(width + 2):
            for n in range(tallest + 2):
                move = Move(s, n, t)
                expected = game.refusal_error(move)
                trial = game.copy()
                before = trial.state()
                try:
                    trial.push(move)
                except IllegalAction as error:
                    assert expected is not None, f"{move} was refused ({error.rule}) though the rule allows it"
                    assert (error.rule, error.params) == (expected.rule, expected.params)
                    assert trial.state() == before
                    refused += 1
                else:
                    assert expected is None, f"{move} was played though the rule refuses it ({expected.rule})"
                    assert trial.moves == game.moves + 1
                    assert len(trial._history) == min(len(game._history) + 1, UNDO_LIMIT)
                    played += 1
    return played, refused


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_in_random_play_push_plays_exactly_what_the_rule_allows(variant: str) -> None:
    rng = random.Random(variant)
    game = Game.from_code(f"{variant}-ABCDEFG")
    played = refused = 0
    for _ in range(20):
        more_played, more_refused = _agree_on_every_move(game)
        played, refused = played + more_played, refused + more_refused
        legal = game.legal_actions()
        if not legal:
            break
        game.push(rng.choice(legal))
    assert played and refused


@pytest.mark.parametrize(
    ("code", "columns"),
    [
        # Russian Solitaire: a group of 20 moves and one of 21 does not, onto a card or a gap.
        ("RU1-C-AAAAAAA", ["5D | " + RUN_OF_21, "7D", "", "7H"]),
        ("RU1-R-AAAAAAA", ["5D | " + RUN_OF_21, "7D", "", "7S"]),
        # Spider: runs in one suit and in mixed suits, onto a card, a gap, an ace; a face-down edge.
        ("SP1-S4C-AAAAAAA", ["3C 4D | 9S 8S 7S", "TS", "", "AH", "9H 8D 7C", "TD | 6S"]),
        ("SP1-S4R-AAAAAAA", ["3C 4D | 9S 8S 7S", "TS", "", "AH", "9H 8D 7C", "TD | 6S"]),
        ("SD1-S4-AAAAAAA", ["KS QH JS TH", "KH", "", "2D | AD"]),
    ],
)
def test_at_the_edges_of_the_rules_push_plays_exactly_what_the_rule_allows(code: str, columns: list[str]) -> None:
    played, refused = _agree_on_every_move(position(code, columns))
    assert played and refused
