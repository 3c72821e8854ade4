"""Leaderboard writes, called by the games app.

The games app calls these at fixed points of its flow; the ranking itself
lives here (issue 5 fills them in).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.models import GameSession
    from leaderboard.models import Result


def record_result(*, result: Result) -> None:
    """Inside the transaction that stored a verified result: rank it on its board."""


def session_progressed(*, session: GameSession) -> None:
    """After the transaction of an action or a finish has committed: tell its watchers."""
