"""Replay a move log from its deal (SPEC section 4): the verification of every result."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .codes import GameCode
from .errors import InvalidCode
from .game import Game

MAX_LOG_TOKENS: Final = 10_000


@dataclass(frozen=True)
class ReplayError:
    """The first refusal: 1-based ``index`` and ``token`` as given; 0 and None before replay."""

    index: int
    token: str | None
    message: str

    def __str__(self) -> str:
        if self.index == 0 or self.token is None:
            return self.message
        text = self.message[:1].lower() + self.message[1:]
        return f"action {self.index} ({self.token}): {text}"

    def to_json(self) -> dict[str, object]:
        return {"index": self.index, "token": self.token, "message": self.message}


@dataclass
class ReplayResult:
    """``game`` is the position after the last applied action (None if the code is invalid)."""

    ok: bool
    error: ReplayError | None
    game: Game | None

    def to_json(self) -> dict[str, object]:
        return {
            "ok": self.ok,
            "error": None if self.error is None else self.error.to_json(),
            "state": None if self.game is None else self.game.state(),
        }


def replay(code: str | GameCode, tokens: Sequence[object]) -> ReplayResult:
    """Start from ``code``'s deal and apply ``tokens``; never raises for bad input."""
    try:
        game = Game.from_code(code)
    except InvalidCode as invalid:
        return ReplayResult(False, ReplayError(0, None, invalid.message), None)
    if isinstance(tokens, (str, bytes)) or not isinstance(tokens, Sequence):
        message = "The moves must be a list of tokens"
        return ReplayResult(False, ReplayError(0, None, message), game)
    if len(tokens) > MAX_LOG_TOKENS:
        message = f"A log has at most {MAX_LOG_TOKENS:,} actions; this one has {len(tokens):,}"
        return ReplayResult(False, ReplayError(0, None, message), game)
    refusal = game.run(tokens)
    if refusal is None:
        return ReplayResult(True, None, game)
    index, token, error = refusal
    return ReplayResult(False, ReplayError(index, token, error.message), game)
