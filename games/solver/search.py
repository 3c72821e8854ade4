"""Best-first search over a game model, with a table of every position reached.

The frontier is a heap ordered by the model's cost (lower is closer to a win),
ties broken by the newest child first, so equal positions are searched depth
first. Every position is entered in ``seen`` once, under its canonical key,
with the key it came from and the token that led there: the winning line is
read back from it. Nothing is ever dropped, so an empty frontier means every
position reachable under the model's moves has been expanded: the position is
lost (as far as the model's prunings are safe, docs/solver.md).
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from typing import Protocol, TypeVar

from .solution import UNKNOWN, UNWINNABLE, WON, Status

S = TypeVar("S")
# How many expansions between two looks at the clock.
_CLOCK_EVERY = 128


class Model(Protocol[S]):
    """A game as the search sees it: immutable positions, their moves and costs."""

    def start(self) -> S: ...

    def key(self, state: S) -> Hashable:
        """The same for positions that play the same (column order may be forgotten where it does not matter)."""
        ...

    def cost(self, state: S) -> int: ...

    def won(self, state: S) -> bool: ...

    def children(self, state: S, cost: int) -> Iterator[tuple[int, S, int]]:
        """Each (move, next position, its cost) from ``state``, whose cost is ``cost``."""
        ...

    def token(self, move: int) -> str:
        """The engine's token of a move ``children`` gave."""
        ...


@dataclass(frozen=True)
class Outcome:
    status: Status
    tokens: tuple[str, ...]
    nodes: int


def best_first(
    model: Model[S], deadline: float, depth_weight: int = 0, node_limit: int | None = None, deal_depth: int = 0
) -> Outcome:
    """Search from ``model.start()`` until a win, an empty frontier, ``node_limit`` expansions or
    ``deadline`` (``time.monotonic``). ``depth_weight`` takes that much off a position's priority for
    each move that led to it (a deal, move -1, counts ``deal_depth``): the higher, the deeper it dives."""
    start = model.start()
    root = model.key(start)
    if model.won(start):
        return Outcome(WON, (), 0)
    seen: dict[Hashable, tuple[Hashable, int] | None] = {root: None}
    order = 0
    start_cost = model.cost(start)
    frontier: list[tuple[int, int, int, int, S]] = [(start_cost, 0, 0, start_cost, start)]
    nodes = 0
    limit = -1 if node_limit is None else node_limit
    pop = heapq.heappop
    push = heapq.heappush
    key = model.key
    won = model.won
    clock = time.monotonic
    while frontier:
        if nodes % _CLOCK_EVERY == 0 and clock() >= deadline or nodes == limit:
            return Outcome(UNKNOWN, (), nodes)
        _, _, depth, cost, state = pop(frontier)
        nodes += 1
        here = key(state)
        for move, child, child_cost in model.children(state, cost):
            there = key(child)
            if there in seen:
                continue
            seen[there] = (here, move)
            if won(child):
                return Outcome(WON, tuple(model.token(m) for m in _line(seen, there)), nodes)
            order -= 1
            deeper = depth + (1 if move >= 0 else deal_depth)
            push(frontier, (child_cost - depth_weight * deeper, order, deeper, child_cost, child))
    return Outcome(UNWINNABLE, (), nodes)


def _line(seen: dict[Hashable, tuple[Hashable, int] | None], end: Hashable) -> list[int]:
    tokens: list[int] = []
    link = seen[end]
    while link is not None:
        parent, token = link
        tokens.append(token)
        link = seen[parent]
    return tokens[::-1]
