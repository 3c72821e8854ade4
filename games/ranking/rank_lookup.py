"""The viewer's rank on a board, for the documents the referee answers with (a finished game's
result shows the rank it holds). The leaderboard owns the ranks and fills this slot in its
AppConfig.ready; with no one to ask, a result has no rank (None)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.ranking.boards import Board

# (board, player id) -> the player's entry there ({"rank": ..., "result": <result id>, ...}) or None.
Lookup = Callable[[Board, int], dict[str, Any] | None]

_lookup: Lookup | None = None


def provide(lookup: Lookup) -> None:
    global _lookup
    _lookup = lookup


def entry_of(*, board: Board, player_id: int) -> dict[str, Any] | None:
    return _lookup(board, player_id) if _lookup is not None else None
