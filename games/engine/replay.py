"""Replay a move log from its deal (docs/notation.md): the verification of every result."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from .codes import GAME_NAMES, GameCode
from .errors import EngineError, InvalidCode
from .game import Game
from .rules import Params, english

MAX_LOG_TOKENS: Final = 10_000


@dataclass(frozen=True)
class ReplayError:
    """The first refusal: 1-based ``index`` and ``token`` as given; 0 and None before replay.

    ``rule`` and ``params`` name the refusal (``rules.RULES``); they take no part in equality,
    so an error built from a message alone still compares by what it says.
    """

    index: int
    token: str | None
    message: str
    rule: str = field(default="", compare=False)
    params: Params = field(default_factory=dict, compare=False)

    @classmethod
    def of(cls, index: int, token: str | None, error: EngineError) -> ReplayError:
        return cls(index, token, error.message, error.rule, error.params)

    @classmethod
    def refusing(cls, rule: str, params: Params | None = None) -> ReplayError:
        """A refusal of the whole log, before replay (index 0, no token)."""
        params = params or {}
        return cls(0, None, english(rule, params), rule, params)

    def __str__(self) -> str:
        if self.index == 0 or self.token is None:
            return self.message
        # Mid-sentence the message's first word is lower case, unless it is a name ("Russian Solitaire ...").
        named = self.message.startswith(tuple(GAME_NAMES.values()))
        text = self.message if named else self.message[:1].lower() + self.message[1:]
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
        return ReplayResult(False, ReplayError.of(0, None, invalid), None)
    if isinstance(tokens, (str, bytes)) or not isinstance(tokens, Sequence):
        return ReplayResult(False, ReplayError.refusing("moves_not_a_list"), game)
    if len(tokens) > MAX_LOG_TOKENS:
        too_long: Params = {"limit": MAX_LOG_TOKENS, "count": len(tokens)}
        return ReplayResult(False, ReplayError.refusing("log_too_long", too_long), game)
    refusal = game.run(tokens)
    if refusal is None:
        return ReplayResult(True, None, game)
    index, token, error = refusal
    return ReplayResult(False, ReplayError.of(index, token, error), game)
