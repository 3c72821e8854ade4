"""The engine's exceptions: every refusal is a ValueError with a sentence a player understands.

A refusal is a rule id of ``rules.RULES`` and its parameters; the English
``message`` is built from them only when it is read (refusals are rare, and
the enumeration of legal moves makes and drops many of them).
"""

from __future__ import annotations

from .rules import Params, english


class EngineError(ValueError):
    """Base of every refusal the engine gives.

    ``rule``: a stable id from ``rules.RULES``; ``params``: what the sentence
    names (cards as codes like ``"8H"``, columns as 1-based ints, counts);
    ``message``: the English sentence to show.
    """

    def __init__(self, rule: str, params: Params | None = None) -> None:
        super().__init__(rule, params)
        self.rule = rule
        self.params: Params = {} if params is None else params
        self._message: str | None = None

    @property
    def message(self) -> str:
        if self._message is None:
            self._message = english(self.rule, self.params)
        return self._message

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.rule!r}, {self.params!r})"


class InvalidCode(EngineError):
    """A game code or variant that is not exactly one of the shapes of docs/codes.md."""


class MalformedAction(EngineError):
    """A token that is not an action in the notation of docs/notation.md."""


class IllegalAction(EngineError):
    """A well-formed action that the rules refuse in the current position."""
