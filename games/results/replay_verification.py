"""Verification: a result is what the replay of its whole log from the deal gives.

One function serves finished sessions, batch submissions and `reverify`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.engine import Game, GameCode, ReplayError, Undo, parse_action, replay
from operations import metrics

UNDO = str(Undo())  # "U", the canonical undo token


@dataclass(frozen=True)
class Outcome:
    code: str
    tokens: tuple[str, ...]  # canonical
    score: int
    moves: int
    won: bool
    sequences: int | None  # Spider family
    cards_home: int | None  # Russian Solitaire

    @property
    def actions(self) -> int:
        return len(self.tokens)

    @property
    def undos(self) -> int:
        """The U tokens of the log: a result with none is clean (docs/ranking.md)."""
        return self.tokens.count(UNDO)

    def same_numbers(self, other: Outcome) -> bool:
        return (self.score, self.moves, self.won, self.sequences, self.cards_home) == (
            other.score,
            other.moves,
            other.won,
            other.sequences,
            other.cards_home,
        )


class Refused(Exception):
    def __init__(self, error: ReplayError) -> None:
        super().__init__(str(error))
        self.error = error


def outcome_of(game: Game, tokens: Sequence[str]) -> Outcome:
    russian = game.code.game == "RU"
    return Outcome(
        code=str(game.code),
        tokens=tuple(tokens),
        score=game.score,
        moves=game.moves,
        won=game.won,
        sequences=None if russian else game.sequences,
        cards_home=game.cards_home if russian else None,
    )


@metrics.timed(metrics.VERIFICATION_SECONDS)
def verify(code: GameCode | str, tokens: Sequence[object]) -> Outcome:
    """Replay `tokens` from `code`'s deal (a code already parsed is not parsed again); Refused
    carries the first refusal."""
    result = replay(code, tokens)
    if not result.ok or result.game is None:
        assert result.error is not None
        raise Refused(result.error)
    return outcome_of(result.game, canonical(tokens))


# Token as sent -> its canonical text: logs repeat a small vocabulary ("D", "3:1>7", ...).
_CANONICAL: dict[str, str] = {}
_CANONICAL_LIMIT = 100_000


def canonical(tokens: Sequence[object]) -> list[str]:
    """The canonical text of tokens the engine accepted (all strings, none can refuse): the log as stored."""
    known = _CANONICAL
    texts: list[str | None] = list(map(known.get, tokens))  # type: ignore[arg-type]  # accepted: all str
    if None in texts:
        for i, text in enumerate(texts):
            if text is None:
                token = tokens[i]
                texts[i] = text = str(parse_action(token))
                if type(token) is str and len(known) < _CANONICAL_LIMIT:
                    known[token] = text
    return texts  # type: ignore[return-value]  # no None is left
