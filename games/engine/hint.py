"""A hint: a next action chosen from what the player sees, never from a hidden card (docs/rules.md, "Hints").

`choose` reads the player's view (face-down cards and the stock as counts) and the legal actions,
whose legality depends on face-up cards only; it is never given a hidden card, so a hint tells
nothing a player could not work out at the table. (The solver is not asked: it plays with every
card known, and its choice would tell of the cards it saw.)

The first of these kinds that some legal action is, in this order:

1. `home`: a card goes to its foundation (Russian Solitaire).
2. `turns_card`: a move that lifts every face-up card off a face-down one, which turns it; one
   that lands on the next higher card of its suit first, then one onto a card rather than into
   an empty column, then the column with the fewest face-down cards.
3. `builds_suit`: a move onto the next higher card of its suit, from anywhere but such a card.
4. `empties_column`: with the stock empty, a move of a whole column (no face-down card) onto a card.
5. `deal`: a row from the stock.
6. `fills_for_deal`: the stock has rows but a column is empty, which forbids a deal: a move into
   it that leaves its own column with cards and takes no card off the next higher card of its suit.

Ties go to the first in the legal list. Each kind takes the game strictly forward in one measure,
ranked as follows, and none sets back a measure ranked above the one it improves: rows dealt;
sequences removed or cards home; face-down cards (fewer); cards on the next higher card of their
suit; empty columns (more of them once the stock is empty, fewer while a row waits). So hints
followed one after another never come back to a position: they end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, cast

from .actions import Action, DealRow, Move, ToFoundation
from .cards import CARD_OF_NAME, RANK_OF, SUIT_OF

Reason = Literal["home", "turns_card", "builds_suit", "empties_column", "deal", "fills_for_deal"]
REASONS: Final[tuple[Reason, ...]] = ("home", "turns_card", "builds_suit", "empties_column", "deal", "fills_for_deal")


@dataclass(frozen=True, slots=True)
class Hint:
    action: Action
    reason: Reason


def _fits(card: int, onto: int) -> bool:
    """Whether `card` sits on the next higher card of its own suit."""
    return SUIT_OF[card] == SUIT_OF[onto] and RANK_OF[onto] == RANK_OF[card] + 1


def choose(view: Mapping[str, object], legal: Sequence[Action]) -> Hint | None:
    """The hint for a position as its player sees it (`Game.view()`), or None when no action is
    one of the kinds above (the player is on their own: an undo, or a move of their choice)."""
    columns = cast("list[dict[str, Any]]", view["columns"])
    down: list[int] = [column["down"] for column in columns]
    up: list[list[int]] = [[CARD_OF_NAME[name] for name in column["up"]] for column in columns]
    stock = view["stock"]
    assert isinstance(stock, int)
    deal_legal = any(type(action) is DealRow for action in legal)
    turns: list[tuple[tuple[bool, bool, int, int], Move]] = []
    found: dict[Reason, Action] = {}
    for index, action in enumerate(legal):
        if type(action) is ToFoundation:
            found.setdefault("home", action)
            continue
        if type(action) is not Move:
            continue
        source, target = up[action.source - 1], up[action.target - 1]
        bottom = source[-action.count]
        whole = action.count == len(source)
        under = None if whole else source[-action.count - 1]
        top = target[-1] if target else None
        builds = top is not None and _fits(bottom, top)
        breaks = under is not None and _fits(bottom, under)
        if whole and down[action.source - 1]:
            turns.append(((not builds, top is None, down[action.source - 1], index), action))
        elif builds and not breaks:
            found.setdefault("builds_suit", action)
        elif whole and top is not None and not stock:
            found.setdefault("empties_column", action)
        elif top is None and not whole and stock and not deal_legal and not breaks:
            found.setdefault("fills_for_deal", action)
    if turns:
        found["turns_card"] = min(turns, key=lambda pair: pair[0])[1]
    if deal_legal:
        found["deal"] = next(action for action in legal if type(action) is DealRow)
    for reason in REASONS:
        if reason in found:
            return Hint(found[reason], reason)
    return None
