"""What a solve returns: the verdict, the verified winning line and what it cost."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

Status = Literal["won", "unwinnable", "unknown"]
WON: Final = "won"
UNWINNABLE: Final = "unwinnable"
UNKNOWN: Final = "unknown"


@dataclass(frozen=True)
class Solution:
    """``actions`` is the winning line as move tokens (empty unless won), replayed by the engine
    before it is returned; ``par`` is the engine's move count after it (None unless won)."""

    status: Status
    actions: tuple[str, ...]
    par: int | None
    seconds: float
    nodes: int


class SolverBug(RuntimeError):
    """The search found a line that the engine does not accept as a win: never trusted, never returned."""
