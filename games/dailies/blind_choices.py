"""Blind choices (docs/dailies.md, "Fair play"): where a player chose which face-down card to turn,
how often the card turned opened the next one, against the luck of a player who cannot see it.

A *blind choice* is a move that turns a face-down card while a move could have turned one in
another column instead: what is face up cannot tell those hidden cards apart. A turned card is
*lucky* when it lets another card be turned, or a column emptied, at once: it can go onto another
column's top card (or home), off the card beneath it, or the whole face-up part of another column
can go onto it. Seen from the view, each hidden card is any of the cards not seen yet, each as
likely (a deal is a shuffle), so a player who sees only the view, however they choose, turns such
a draw: the chance of luck at each blind choice is the share of the unseen cards that would be
lucky there, worked out from the view alone. Who knows the hidden cards can pick the lucky column;
`Turns.odds` is the chance that a player who cannot see them is as lucky or luckier, whatever their
skill. Pure Python on the engine: no Django.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.engine import Game, Move, parse_action
from games.engine.cards import CARD_OF_NAME, RANK_OF, RANKS, SUIT_OF, SUITS


@dataclass(frozen=True)
class Turns:
    """The blind choices of a game: how many were lucky, and each one's chance of luck."""

    lucky: int = 0
    chances: tuple[float, ...] = ()

    def add(self, *, fits: bool, chance: float) -> Turns:
        return Turns(self.lucky + fits, (*self.chances, chance))

    @property
    def count(self) -> int:
        return len(self.chances)

    @property
    def expected(self) -> float:
        """How many are lucky for a player who cannot see the cards, on average."""
        return sum(self.chances)

    def odds(self) -> float:
        """The chance that a player who cannot see the cards is this lucky or luckier: at least
        `lucky` of these choices lucky, each with its own chance."""
        exactly = [1.0]  # exactly[k]: the chance of k lucky turns among those counted so far
        for p in self.chances:
            exactly = [
                (exactly[k] * (1 - p) if k < len(exactly) else 0.0) + (exactly[k - 1] * p if k else 0.0)
                for k in range(len(exactly) + 1)
            ]
        return min(1.0, sum(exactly[self.lucky :]))

    def document(self) -> dict[str, Any]:
        return {
            "count": self.count,
            "lucky": self.lucky,
            "expected": round(self.expected, 2),
            "odds": float(f"{self.odds():.3g}"),
        }


class _Fits:
    """What "fits" means in one variant, on card ints (games.engine.cards)."""

    def __init__(self, game: Game) -> None:
        self.russian = game.has_foundations
        self.same_suit = game.code.rule == "C"

    def onto(self, card: int, top: int) -> bool:
        """Whether `card` (with whatever lies on it) may lie on `top`."""
        if RANK_OF[top] != RANK_OF[card] + 1:
            return False
        return not (self.russian and self.same_suit) or SUIT_OF[top] == SUIT_OF[card]

    def lifts_whole(self, up: list[int]) -> bool:
        """Whether a column's face-up cards can all be lifted together: always in Russian Solitaire;
        in the Spider family when they are one run (of one suit under the Classic rule)."""
        return self.russian or all(
            RANK_OF[upper] == RANK_OF[lower] + 1 and not (self.same_suit and SUIT_OF[upper] != SUIT_OF[lower])
            for upper, lower in zip(up, up[1:], strict=False)
        )

    def opens(self, card: int, column: int, ups: list[list[int]], homes: list[int] | None) -> bool:
        """Whether `card`, just turned alone at the top of `column`, lets another card be turned or
        a column be emptied at once: it can go onto another column's top card (or home), off what
        lies beneath it, or the whole face-up part of another column can go onto it."""
        if homes is not None and homes[SUIT_OF[card]] == RANK_OF[card]:
            return True
        for j, up in enumerate(ups):
            if j == column or not up:
                continue
            if self.onto(card, up[-1]):
                return True
            if self.lifts_whole(up) and self.onto(up[0], card):
                return True  # turning a card beneath it, or emptying its column
        return False


def _cards(names: Sequence[str]) -> list[int]:
    return [CARD_OF_NAME[name] for name in names]


def read(code: str, tokens: Sequence[str]) -> Turns:
    """Replay `tokens` (a verified log) from the deal of `code` and read its blind choices."""
    game = Game.from_code(code)
    fits = _Fits(game)
    start: dict[str, Any] = game.state()
    deck = Counter(_cards(start["stock"]))
    for column in start["columns"]:
        deck.update(_cards(column["down"]) + _cards(column["up"]))
    turns = Turns()
    for token in tokens:
        action = parse_action(token)
        if type(action) is not Move:
            game.push(action)
            continue
        columns: list[dict[str, Any]] = game.view()["columns"]  # type: ignore[assignment]
        if not any(column["down"] for column in columns):
            break  # every card is face up, and none is ever turned down again
        if not _turns(action, columns):
            game.push(action)
            continue
        blind = any(
            type(other) is Move and other.source != action.source and _turns(other, columns)
            for other in game.legal_actions()
        )
        game.push(action)
        if blind:
            fitted, chance = _luck(game, action.source - 1, deck, fits)
            turns = turns.add(fits=fitted, chance=chance)
    return turns


def _turns(move: Move, columns: list[dict[str, Any]]) -> bool:
    """Whether `move` lifts every face-up card off face-down ones, turning the top one."""
    column = columns[move.source - 1]
    return bool(column["down"]) and move.count == len(column["up"])


def _luck(game: Game, source: int, deck: Counter[int], fits: _Fits) -> tuple[bool, float]:
    """Whether the card just turned at the top of `source` opens another at once, and the share of
    the cards unseen before the turn that would have."""
    view: dict[str, Any] = game.view()
    ups = [_cards(column["up"]) for column in view["columns"]]
    turned = ups[source][-1]
    ups[source] = []  # as before the turn: its card unseen
    seen = Counter(card for up in ups for card in up)
    for suit in view["removed"]:
        seen.update(CARD_OF_NAME[rank + suit] for rank in RANKS)
    homes = None
    if view["foundations"] is not None:
        piles = [_cards(view["foundations"][suit]) for suit in SUITS]
        homes = [len(pile) for pile in piles]
        seen.update(card for pile in piles for card in pile)
    unseen = deck - seen
    total = sum(unseen.values())
    opening = sum(n for card, n in unseen.items() if fits.opens(card, source, ups, homes))
    return fits.opens(turned, source, ups, homes), opening / total if total else 0.0
