"""Build a game from a state document (docs/state.md): hand-made positions for tests and analysis."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import CARD_OF_NAME, SUITS
from .codes import GameCode
from .errors import EngineError

if TYPE_CHECKING:
    from .game import Game


def game_from_state(document: dict[str, object]) -> Game:
    """The game in the position ``document`` describes; its undo history is empty.

    ``code`` and ``columns`` are required; ``stock``, ``removed``, ``foundations``,
    ``score`` and ``moves`` default to empty and to the start's counters.
    The cards are not checked against the deal, so partial positions are fine.
    """
    from .game import _class_for

    code = GameCode.parse(document.get("code"))
    game = _class_for(code)()
    width = game_class_width(code)
    columns_doc = document.get("columns")
    if not isinstance(columns_doc, list) or len(columns_doc) != width:
        raise EngineError("state_columns", {"game": code.game_name, "columns": width})
    columns: list[list[int]] = []
    down: list[int] = []
    for column in columns_doc:
        if not isinstance(column, dict):
            raise EngineError("state_column")
        hidden = _cards(column.get("down", []))
        shown = _cards(column.get("up", []))
        if hidden and not shown:
            raise EngineError("state_top_card")
        columns.append(hidden + shown)
        down.append(len(hidden))
    stock = _cards(document.get("stock", []))
    removed_doc = document.get("removed", [])
    if not isinstance(removed_doc, list) or any(s not in SUITS for s in removed_doc):
        raise EngineError("state_removed")
    removed = [SUITS.index(s) for s in removed_doc]
    piles: list[list[int]] = [[], [], [], []]
    foundations = document.get("foundations")
    if isinstance(foundations, dict):
        for suit, pile in foundations.items():
            if suit not in SUITS:
                raise EngineError("state_foundation", {"letter": str(suit)})
            piles[SUITS.index(suit)] = _cards(pile)
    score = document.get("score")
    moves = document.get("moves", 0)
    if (score is not None and type(score) is not int) or type(moves) is not int:
        raise EngineError("state_counters")
    game._setup(code, columns, down, stock, removed, piles, score, moves)
    return game


def game_class_width(code: GameCode) -> int:
    from .layout import LAYOUTS

    return LAYOUTS[code.game].columns


def _cards(names: object) -> list[int]:
    if not isinstance(names, list):
        raise EngineError("state_cards")
    cards = []
    for name in names:
        card = CARD_OF_NAME.get(name) if isinstance(name, str) else None
        if card is None:
            raise EngineError("state_card", {"name": repr(name)})
        cards.append(card)
    return cards
