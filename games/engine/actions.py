"""Actions: small frozen values that round-trip to the tokens of docs/notation.md."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Final, TypeAlias

from .errors import MalformedAction

FOUNDATION_SUITS: Final = "SHDC"
MAX_NUMBER_DIGITS: Final = 9
# The blanks a token or a code may have around it, ignored (docs/notation.md).
BLANKS: Final = " \t\r\n"

_MOVE_RE: Final = re.compile(r"([0-9]+):([0-9]+)>([0-9]+)")
_HOME_RE: Final = re.compile(r"([0-9]+)>F")
_BACK_RE: Final = re.compile(r"F([A-Z])>([0-9]+)")


@dataclass(frozen=True, slots=True)
class Move:
    """``A:N>B``: the top ``count`` cards of column ``source`` onto column ``target`` (1-based)."""

    source: int
    count: int
    target: int
    # The token, made once: a session document lists every legal move's token after each action.
    _token: str = field(init=False, repr=False, compare=False)
    # The move as its undo record holds it (move_record), made once: a replay pushes thousands.
    _record: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_token", f"{self.source}:{self.count}>{self.target}")
        object.__setattr__(self, "_record", move_record(self.source, self.count, self.target))

    def __str__(self) -> str:
        return self._token


@dataclass(frozen=True, slots=True)
class DealRow:
    """``D``: deal a row from the stock (Spider, Spiderette)."""

    def __str__(self) -> str:
        return "D"


@dataclass(frozen=True, slots=True)
class Undo:
    """``U``: take back the last action."""

    def __str__(self) -> str:
        return "U"


@dataclass(frozen=True, slots=True)
class ToFoundation:
    """``A>F``: the top card of column ``source`` onto its foundation (Russian)."""

    source: int

    def __str__(self) -> str:
        return f"{self.source}>F"


@dataclass(frozen=True, slots=True)
class FromFoundation:
    """``Fs>B``: the top card of foundation ``suit`` back onto column ``target`` (Russian)."""

    suit: str
    target: int

    def __str__(self) -> str:
        return f"F{self.suit}>{self.target}"


Action: TypeAlias = Move | DealRow | Undo | ToFoundation | FromFoundation


def move_record(source: int, count: int, target: int) -> int:
    """A move's part of its undo record (game.py): the 0-based source column from bit 2, the count
    from bit 6, the 0-based target column from bit 13. 0 for a move that no game could take."""
    if type(source) is not int or type(count) is not int or type(target) is not int:
        return 0
    if not (1 <= source <= 15 and 1 <= count <= 127 and 1 <= target <= 15):
        return 0
    return (source - 1) << 2 | count << 6 | (target - 1) << 13


def recorded_columns(record: int) -> tuple[int, int, int]:
    """The 0-based source column, the count and the 0-based target column an undo record of a move
    holds (move_record)."""
    return record >> 2 & 15, record >> 6 & 127, record >> 13 & 15


def recorded_move(record: int) -> Move:
    """The move an undo record (of a move) holds."""
    s, n, t = recorded_columns(record)
    return move_of(s + 1, n, t + 1)


# Each move made once: a frozen dataclass's __init__ was the dearest part of listing the legal
# actions after every action, and the lists repeat the same few hundred. Bounded by the layouts
# (at most 10 columns and 104 cards: some 10,000 entries).
_MOVES: dict[tuple[int, int, int], Move] = {}


def move_of(source: int, count: int, target: int) -> Move:
    """``Move(source, count, target)``, the same object each time it is asked for."""
    key = (source, count, target)
    made = _MOVES.get(key)
    if made is None:
        made = _MOVES[key] = Move(source, count, target)
    return made


DEAL_ROW: Final = DealRow()
UNDO: Final = Undo()

# Tokens seen before, as given, to their action: a log repeats few distinct tokens.
_CACHE: dict[str, Action] = {}
_CACHE_LIMIT: Final = 100_000


def parse_action(token: object) -> Action:
    """The action written as ``token``; MalformedAction naming the problem if it is not one."""
    if type(token) is str:
        cached = _CACHE.get(token)
        if cached is not None:
            return cached
    action = _parse(token)
    if len(_CACHE) < _CACHE_LIMIT and len(token) <= 24:  # type: ignore[arg-type]
        _CACHE[token] = action  # type: ignore[index]  # _parse accepted it, so it is a str
    return action


def token_text(token: object) -> str:
    """A token as a string for an error: itself if it is one, else its JSON (or repr) form."""
    if isinstance(token, str):
        return token
    try:
        return json.dumps(token, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(token)
    except RecursionError:  # nested nearly as deep as the parser allows: repr() would recurse as deep
        return f"a {type(token).__name__} nested too deeply to show"


def _parse(token: object) -> Action:
    if not isinstance(token, str):
        raise MalformedAction("malformed_not_text", {"token": token_text(token), "type": type(token).__name__})
    text = token.strip(BLANKS)
    if not text:
        raise MalformedAction("malformed_empty")
    if not text.isascii():
        odd = next(ch for ch in text if not ch.isascii())
        raise MalformedAction("malformed_not_ascii", {"text": text, "char": odd})
    if any(ch in BLANKS or not ch.isprintable() for ch in text):
        raise MalformedAction("malformed_blank_inside", {"text": text})
    upper = text.upper()
    if upper == "D":
        return DEAL_ROW
    if upper == "U":
        return UNDO
    match = _MOVE_RE.fullmatch(upper)
    if match:
        source, count, target = (_number(g, text) for g in match.groups())
        if source == target:
            raise MalformedAction("malformed_same_column", {"text": text, "column": source})
        return Move(source, count, target)
    match = _HOME_RE.fullmatch(upper)
    if match:
        return ToFoundation(_number(match.group(1), text))
    match = _BACK_RE.fullmatch(upper)
    if match:
        suit = match.group(1)
        if suit not in FOUNDATION_SUITS:
            raise MalformedAction("malformed_no_such_foundation", {"text": text, "letter": suit})
        return FromFoundation(suit, _number(match.group(2), text))
    raise MalformedAction("malformed_token", {"text": text})


def _number(digits: str, text: str) -> int:
    if digits == "0":
        raise MalformedAction("malformed_zero", {"text": text})
    if digits[0] == "0":
        raise MalformedAction("malformed_leading_zero", {"text": text, "digits": digits})
    if len(digits) > MAX_NUMBER_DIGITS:
        raise MalformedAction("malformed_number_too_large", {"text": text, "number": digits})
    return int(digits)
