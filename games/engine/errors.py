"""The engine's exceptions: every refusal is a ValueError with a sentence a player understands."""

from __future__ import annotations


class EngineError(ValueError):
    """Base of every refusal the engine gives; ``message`` is the sentence to show."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidCode(EngineError):
    """A game code or variant that is not exactly one of the shapes of SPEC section 3."""


class MalformedAction(EngineError):
    """A token that is not an action in the notation of SPEC section 4."""


class IllegalAction(EngineError):
    """A well-formed action that the rules refuse in the current position."""
