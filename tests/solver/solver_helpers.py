"""An exhaustive search through the engine itself, with no pruning at all: the referee of the
solver's "unwinnable" on small positions."""

from __future__ import annotations

from games.engine import Game, Undo


def engine_can_win(game: Game, limit: int = 200_000) -> bool:
    """Whether any sequence of legal actions from ``game`` wins; every position is tried."""
    seen: set[str] = set()
    stack = [game.copy()]
    while stack:
        here = stack.pop()
        if here.won:
            return True
        key = _key(here)
        if key in seen:
            continue
        seen.add(key)
        assert len(seen) <= limit, "the position is too big for the exhaustive check"
        for action in here.legal_actions():
            if isinstance(action, Undo):
                continue
            child = here.copy()
            child.push(action)
            stack.append(child)
    return False


def _key(game: Game) -> str:
    doc = game.state()
    return repr((doc["columns"], doc["stock"], doc["foundations"], len(doc["removed"])))  # type: ignore[arg-type]
