"""``solve`` and ``solve_game``: build the search model of a position, search, verify the line."""

from __future__ import annotations

import time

from games.engine import Game, GameCode, replay
from games.engine.cards import CARD_OF_NAME, SUITS

from .russian import RussianModel
from .search import Outcome, best_first
from .solution import UNKNOWN, UNWINNABLE, WON, Solution, SolverBug
from .spider import DOWN, Column, Columns, SpiderModel

_GOALS = {"SP": 8, "SD": 4}
# The focused dives of the Spider family, one after another, each a fresh search:
# (depth weight, share of the budget's nominal nodes, 0 for the rest of the budget; the depth a
# deal adds; steady: no sideways moves). No one weight suits every deal: a deep dive that wins one deal at once
# wanders on another that a shallower one wins, so several short dives come first.
DIVES: tuple[tuple[int, float, int, bool], ...] = (
    (30, 0.04, 1, False),
    (10, 0.04, 1, False),
    (3, 0.08, 1, False),
    (10, 0.06, 0, False),
    (3, 0.15, 0, True),
    (3, 0.15, 0, False),
    (0, 0.0, 0, False),
)
NODES_PER_SECOND = 10_000
MAX_BUDGET = 86_400.0  # a day: beyond it the rounds' node counts stop growing


def solve(code: str | GameCode, budget_seconds: float) -> Solution:
    """Solve the deal ``code`` with full knowledge of its cards within ``budget_seconds``;
    InvalidCode (the engine's) if ``code`` is not a game code."""
    parsed = code if isinstance(code, GameCode) else GameCode.parse(code)
    began = time.monotonic()
    outcome = _search(Game.from_code(parsed), budget_seconds, began + budget_seconds)
    if outcome.status != WON:
        return _finish(outcome, None, began)
    result = replay(parsed, outcome.tokens)
    if not result.ok or result.game is None or not result.game.won:
        raise SolverBug(f"the line found for {parsed} does not win: {result.error}")
    return _finish(outcome, result.game.moves, began)


def solve_game(game: Game, budget_seconds: float) -> Solution:
    """Solve the position ``game`` is in (a hand-made one, say); the line starts from there."""
    began = time.monotonic()
    outcome = _search(game, budget_seconds, began + budget_seconds)
    if outcome.status != WON:
        return _finish(outcome, None, began)
    check = game.copy()
    refusal = check.run(outcome.tokens)
    if refusal is not None or not check.won:
        raise SolverBug(f"the line found does not win this position: {refusal}")
    return _finish(outcome, check.moves, began)


def _finish(outcome: Outcome, par: int | None, began: float) -> Solution:
    return Solution(outcome.status, outcome.tokens, par, time.monotonic() - began, outcome.nodes)


def _search(game: Game, budget: float, deadline: float) -> Outcome:
    """Spider family: dives over the focused moves only (docs/solver.md), deep first, then wider;
    if the focused space is exhausted without a win, a search over every move, so that
    "unwinnable" is only said of the whole space."""
    if game.won:
        return Outcome(WON, (), 0)
    state = game.state()
    columns: Columns = tuple(_column(c) for c in _items(state["columns"]))
    code = game.code
    if code.game == "RU":
        piles = state["foundations"]
        assert isinstance(piles, dict)
        found = tuple(len(_items(piles[s])) for s in SUITS)
        return best_first(RussianModel(columns, found, code.rule == "C"), deadline)
    stock = tuple(CARD_OF_NAME[name] for name in _names(state["stock"]))
    removed = len(_items(state["removed"]))
    goal = _GOALS[code.game]
    classic = code.rule == "C"
    nodes = 0
    # Node counts, not the clock, end the dives, so that the line found does not depend on the
    # machine's speed: only the deadline can cut a search short.
    nominal = int(max(0.0, min(budget, MAX_BUDGET)) * NODES_PER_SECOND)
    for weight, share, deal_depth, steady in DIVES:
        focused = SpiderModel(columns, stock, removed, goal, classic, focused=True, steady=steady)
        outcome = best_first(focused, deadline, weight, int(nominal * share) if share else None, deal_depth)
        nodes += outcome.nodes
        if outcome.status == WON:
            return Outcome(WON, outcome.tokens, nodes)
        if outcome.status == UNWINNABLE or time.monotonic() >= deadline:
            break
    if outcome.status != UNWINNABLE:
        return Outcome(UNKNOWN, (), nodes)
    full = best_first(SpiderModel(columns, stock, removed, goal, classic, focused=False), deadline)
    return Outcome(full.status, full.tokens, nodes + full.nodes)


def _column(doc: object) -> Column:
    assert isinstance(doc, dict)
    down = [CARD_OF_NAME[name] + DOWN for name in _names(doc["down"])]
    up = [CARD_OF_NAME[name] for name in _names(doc["up"])]
    return tuple(down + up)


def _items(value: object) -> list[object]:
    assert isinstance(value, list)
    return value


def _names(value: object) -> list[str]:
    names = _items(value)
    assert all(isinstance(name, str) for name in names)
    return [str(name) for name in names]
