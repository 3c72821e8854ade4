"""Spider and Spiderette as the search sees them: immutable tuples, shared between positions.

A position is ``(columns, stock position, sequences removed)``; a column is a
tuple of card ints from the bottom up, a face-down card written as
``card + DOWN``. A move makes two new column tuples and shares the rest, so a
position costs little memory and is its own key. Completed sequences are
removed and the card beneath flipped as the engine does.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from typing import Final

DOWN: Final = 64
Column = tuple[int, ...]
Columns = tuple[Column, ...]
State = tuple[Columns, int, int]

# Rank and suit of every encoded card; a face-down card has rank -9 (it fits nothing).
_RANK: Final[tuple[int, ...]] = tuple(c % 13 if c < 52 else -9 for c in range(DOWN * 2))
_SUIT: Final[tuple[int, ...]] = tuple(c // 13 if c < 52 else -9 for c in range(DOWN * 2))
# The card one rank lower of the same suit (-1 below an ace or for a face-down card).
_LOWER_SAME: Final[tuple[int, ...]] = tuple(c - 1 if c < 52 and c % 13 else -1 for c in range(DOWN * 2))
_SEQUENCE: Final[tuple[Column, ...]] = tuple(tuple(s * 13 + r for r in range(12, -1, -1)) for s in range(4))

# The cost of a position (lower is nearer a win), column by column.
HIDDEN: Final = 10  # each face-down card
HIDDEN_COLUMN: Final = 4  # a column that still hides cards
SUIT_LINK: Final = 0  # a card on the next higher card of its suit
RANK_LINK: Final = 2  # a card on the next higher card of another suit
BREAK: Final = 5  # a card on anything else
EMPTY: Final = -12  # an empty column
REMOVED: Final = -150  # a removed sequence
STOCK: Final = -4  # each card in the stock: a deal costs ten times that, so it waits for the moves
_MEMO_LIMIT: Final = 400_000


def _complete(col: Column) -> bool:
    top = col[-1]
    return _RANK[top] == 0 and len(col) >= 13 and col[-13:] == _SEQUENCE[_SUIT[top]]


def _run_length(col: Column) -> int:
    """How many cards on top of ``col`` form a run of one suit."""
    run = 1
    size = len(col)
    while run < size and _LOWER_SAME[col[size - run - 1]] == col[size - run]:
        run += 1
    return run


def _flip(col: Column) -> Column:
    if col and col[-1] >= DOWN:
        return col[:-1] + (col[-1] - DOWN,)
    return col


class SpiderModel:
    """The Spider family: ``classic`` moves only one-suit runs; ``goal`` sequences win. ``focused``
    and ``steady`` leave out moves as docs/solver.md says (never in the search behind "unwinnable")."""

    def __init__(
        self,
        columns: Columns,
        stock: Column,
        removed: int,
        goal: int,
        classic: bool,
        focused: bool = False,
        steady: bool = False,
    ) -> None:
        self._start: State = (columns, 0, removed)
        self._focused = focused
        self._steady = focused and steady
        self._stock = stock
        self._goal = goal
        self._classic = classic
        self._memo: dict[Column, int] = {}

    def start(self) -> State:
        return self._start

    def key(self, state: State) -> Hashable:
        # With the stock gone no deal tells the columns apart: their order does not matter.
        if state[1] >= len(self._stock):
            return (tuple(sorted(state[0])), state[2])
        return state

    def won(self, state: State) -> bool:
        return state[2] >= self._goal

    def cost(self, state: State) -> int:
        return sum(self._column_cost(c) for c in state[0]) + REMOVED * state[2] + STOCK * (len(self._stock) - state[1])

    def _column_cost(self, col: Column) -> int:
        memo = self._memo
        cost = memo.get(col)
        if cost is not None:
            return cost
        if not col:
            cost = EMPTY
        else:
            cost = 0
            below = -1
            for c in col:
                if c >= DOWN:
                    cost += HIDDEN
                    continue
                if below < 0:
                    if cost:
                        cost += HIDDEN_COLUMN
                elif c == _LOWER_SAME[below]:
                    cost += SUIT_LINK
                elif _RANK[c] + 1 == _RANK[below]:
                    cost += RANK_LINK
                else:
                    cost += BREAK
                below = c
        if len(memo) >= _MEMO_LIMIT:
            memo.clear()
        memo[col] = cost
        return cost

    def token(self, move: int) -> str:
        if move < 0:
            return "D"
        s, rest = divmod(move, 1 << 16)
        n, t = divmod(rest, 1 << 8)
        return f"{s + 1}:{n}>{t + 1}"

    def children(self, state: State, cost: int) -> Iterator[tuple[int, State, int]]:
        """Each move as ``source << 16 | count << 8 | target`` (0-based columns), or -1 for a deal."""
        cols, pos, removed = state
        width = len(cols)
        stock_gone = pos >= len(self._stock)
        classic = self._classic
        focused = self._focused
        steady = self._steady
        column_cost = self._column_cost
        first_empty = -1
        # The columns by the rank of their top card, and by the card itself.
        by_rank: list[list[int]] = [[] for _ in range(14)]
        by_card: dict[int, list[int]] = {}
        for t in range(width):
            target = cols[t]
            if target:
                top = target[-1]
                by_rank[_RANK[top]].append(t)
                by_card.setdefault(top, []).append(t)
            elif first_empty < 0:
                first_empty = t
        for s in range(width):
            col = cols[s]
            size = len(col)
            if not size:
                continue
            # The longest group on top that moves together, and the run of one suit on top.
            movable = 1
            while movable < size:
                lower = col[size - movable - 1]
                upper = col[size - movable]
                if lower >= DOWN:
                    break
                if classic:
                    if upper != _LOWER_SAME[lower]:
                        break
                elif _RANK[upper] + 1 != _RANK[lower]:
                    break
                movable += 1
            run = movable if classic else _run_length(col)
            source_cost = column_cost(col)
            for n in range(1, movable + 1):
                start = size - n
                bottom = col[start]
                natural = n < size and _LOWER_SAME[col[start - 1]] == bottom
                if focused and natural:
                    # Focused: a group on the next higher card of its suit stays there, unless it is
                    # all of one suit and joins a longer run of its suit elsewhere.
                    if n > run:
                        continue
                    targets = [t for t in by_card.get(bottom + 1, ()) if _run_length(cols[t]) + n > run]
                elif focused and n < movable:
                    # Relaxed, focused: a group on the next higher card of another suit moves from
                    # within a longer group only onto the next higher card of its own suit, or
                    # onto an empty column.
                    targets = list(by_card.get(bottom + 1, ()))
                    if first_empty >= 0:
                        targets.append(first_empty)
                else:
                    targets = [t for t in by_rank[_RANK[bottom] + 1] if t != s]
                    if steady and n < size and _RANK[col[start - 1]] == _RANK[bottom] + 1:
                        # Steady: a group on the next higher card of another suit moves only onto
                        # the next higher card of its own suit (or an empty column), never sideways.
                        targets = [t for t in targets if cols[t][-1] == bottom + 1]
                    if first_empty >= 0:
                        if not stock_gone and not focused:
                            targets += [t for t in range(first_empty, width) if not cols[t]]
                        elif n < size:
                            # Focused, an empty column takes only a whole movable group that uncovers
                            # something. Without a stock the columns are interchangeable: one empty
                            # column is as good as another, and a whole column onto one changes nothing.
                            targets.append(first_empty)
                if not targets:
                    continue
                group = col[start:]
                rest = _flip(col[:start])
                rest_cost = column_cost(rest) - source_cost
                for t in targets:
                    target = cols[t]
                    joined = target + group
                    gained = 0
                    if _complete(joined):
                        joined = _flip(joined[:-13])
                        gained = 1
                    new = list(cols)
                    new[s] = rest
                    new[t] = joined
                    child_cost = cost + rest_cost - column_cost(target) + column_cost(joined) + REMOVED * gained
                    yield (s << 16) | (n << 8) | t, (tuple(new), pos, removed + gained), child_cost
        if not stock_gone and first_empty < 0:
            stock = self._stock
            k = min(width, len(stock) - pos)
            new = list(cols)
            gained = 0
            delta = 0
            for i in range(k):
                joined = new[i] + (stock[pos + i],)
                if _complete(joined):
                    joined = _flip(joined[:-13])
                    gained += 1
                delta += column_cost(joined) - column_cost(new[i])
                new[i] = joined
            yield -1, (tuple(new), pos + k, removed + gained), cost + delta + REMOVED * gained - STOCK * k
