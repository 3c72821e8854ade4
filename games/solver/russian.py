"""Russian Solitaire as the search sees it: immutable tuples, shared between positions.

A position is ``(columns, foundations)``: columns as in the Spider model (a
face-down card written as ``card + DOWN``), foundations as the number of cards
home per suit S, H, D, C. There is no stock, so the order of the columns never
matters: the key sorts them.

Two prunings, both proven safe in docs/solver.md:
- in Classic any card, in Relaxed an ace, that may go home goes home at once,
  as the only move from that position;
- in Classic, nothing is taken back from a foundation.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from typing import Final

from .spider import DOWN, Column, Columns

State = tuple[Columns, tuple[int, ...]]

MAX_GROUP: Final = 20
ALL_CARDS: Final = 52
_SUITS: Final = "SHDC"
_RANK: Final[tuple[int, ...]] = tuple(c % 13 if c < 52 else -9 for c in range(DOWN * 2))
_SUIT: Final[tuple[int, ...]] = tuple(c // 13 if c < 52 else -9 for c in range(DOWN * 2))
# The card one rank higher of the same suit, -1 above a king.
_HIGHER_SAME: Final[tuple[int, ...]] = tuple(c + 1 if c < 52 and c % 13 != 12 else -1 for c in range(DOWN * 2))
KING: Final = 12
_TABLEAU, _HOME, _BACK = 0, 1, 2

HOME: Final = -12  # each card home
HIDDEN: Final = 9  # each face-down card
HIDDEN_COLUMN: Final = 3  # a column that still hides cards
LINK: Final = 0  # a card on the card it fits on
BREAK: Final = 3  # a card on anything else
_MEMO_LIMIT: Final = 400_000


def _flip(col: Column) -> Column:
    if col and col[-1] >= DOWN:
        return col[:-1] + (col[-1] - DOWN,)
    return col


class RussianModel:
    """Russian Solitaire, Classic (``classic``: same suit) or Relaxed (any suit)."""

    def __init__(self, columns: Columns, foundations: tuple[int, ...], classic: bool) -> None:
        self._start: State = (columns, foundations)
        self._classic = classic
        self._memo: dict[Column, int] = {}

    def start(self) -> State:
        return self._start

    def key(self, state: State) -> Hashable:
        return (tuple(sorted(state[0])), state[1])

    def won(self, state: State) -> bool:
        return sum(state[1]) >= ALL_CARDS

    def cost(self, state: State) -> int:
        return sum(self._column_cost(c) for c in state[0]) + HOME * sum(state[1])

    def _fits(self, card: int, top: int) -> bool:
        if self._classic:
            return top == _HIGHER_SAME[card]
        return _RANK[top] == _RANK[card] + 1

    def _column_cost(self, col: Column) -> int:
        memo = self._memo
        cost = memo.get(col)
        if cost is not None:
            return cost
        cost = 0
        below = -1
        for c in col:
            if c >= DOWN:
                cost += HIDDEN
                continue
            if below < 0:
                if cost:
                    cost += HIDDEN_COLUMN
                elif _RANK[c] != KING:
                    cost += BREAK
            elif self._fits(c, below):
                cost += LINK
            else:
                cost += BREAK
            below = c
        if len(memo) >= _MEMO_LIMIT:
            memo.clear()
        memo[col] = cost
        return cost

    def _safe_home(self, card: int) -> bool:
        """Whether ``card``, which may go home, goes home at once as the only move (docs/solver.md):
        in Classic every card (nothing but the card below it in its suit, which is home, fits on it,
        and nothing is taken back); in Relaxed an ace (nothing fits on it)."""
        return self._classic or _RANK[card] == 0

    def token(self, move: int) -> str:
        kind, rest = divmod(move, 1 << 24)
        a, rest = divmod(rest, 1 << 16)
        n, t = divmod(rest, 1 << 8)
        if kind == _TABLEAU:
            return f"{a + 1}:{n}>{t + 1}"
        if kind == _HOME:
            return f"{a + 1}>F"
        return f"F{_SUITS[a]}>{t + 1}"

    def children(self, state: State, cost: int) -> Iterator[tuple[int, State, int]]:
        """Each move as ``kind << 24 | source << 16 | count << 8 | target`` (0-based columns;
        the suit's index is the source of a take-back)."""
        cols, found = state
        width = len(cols)
        column_cost = self._column_cost
        # Home moves first; a safe one is the only move.
        homes: list[tuple[int, State, int]] = []
        for s in range(width):
            col = cols[s]
            if not col:
                continue
            card = col[-1]
            suit = _SUIT[card]
            if found[suit] != _RANK[card]:
                continue
            left = _flip(col[:-1])
            new = list(cols)
            new[s] = left
            piles = list(found)
            piles[suit] += 1
            child = (tuple(new), tuple(piles))
            entry = ((_HOME << 24) | (s << 16), child, cost - column_cost(col) + column_cost(left) + HOME)
            if self._safe_home(card):
                yield entry
                return
            homes.append(entry)
        yield from homes
        fits = self._fits
        empty = [t for t in range(width) if not cols[t]]
        for s in range(width):
            col = cols[s]
            size = len(col)
            if not size:
                continue
            source_cost = column_cost(col)
            for start in range(size - 1, max(size - MAX_GROUP, 0) - 1, -1):
                card = col[start]
                if card >= DOWN:
                    break
                group = col[start:]
                rest: Column | None = None
                rest_cost = 0
                if _RANK[card] == KING:
                    # A king group alone in its column only changes places onto an empty one.
                    targets = empty[:1] if start else []
                else:
                    targets = [t for t in range(width) if t != s and cols[t] and fits(card, cols[t][-1])]
                for t in targets:
                    if rest is None:
                        rest = _flip(col[:start])
                        rest_cost = column_cost(rest)
                    target = cols[t]
                    joined = target + group
                    new = list(cols)
                    new[s] = rest
                    new[t] = joined
                    child_cost = cost - source_cost - column_cost(target) + rest_cost + column_cost(joined)
                    yield (s << 16) | ((size - start) << 8) | t, (tuple(new), found), child_cost
        if self._classic:
            return
        # Relaxed: the top card of a foundation back onto a column.
        for suit in range(4):
            if not found[suit]:
                continue
            card = suit * 13 + found[suit] - 1
            if _RANK[card] == KING:
                targets = empty[:1]
            else:
                targets = [t for t in range(width) if cols[t] and fits(card, cols[t][-1])]
            for t in targets:
                target = cols[t]
                joined = target + (card,)
                new = list(cols)
                new[t] = joined
                piles = list(found)
                piles[suit] -= 1
                child_cost = cost - column_cost(target) + column_cost(joined) - HOME
                yield (_BACK << 24) | (suit << 16) | t, (tuple(new), tuple(piles)), child_cost
