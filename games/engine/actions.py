"""Actions: small frozen values that round-trip to the tokens of SPEC section 4."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Final, TypeAlias

from .errors import MalformedAction

FOUNDATION_SUITS: Final = "SHDC"
MAX_NUMBER_DIGITS: Final = 9
_WHITESPACE: Final = " \t\r\n"
_SHAPES: Final = "A:N>B, D, U, A>F or Fs>B (for example 3:4>7)"

_MOVE_RE: Final = re.compile(r"([0-9]+):([0-9]+)>([0-9]+)")
_HOME_RE: Final = re.compile(r"([0-9]+)>F")
_BACK_RE: Final = re.compile(r"F([A-Z])>([0-9]+)")


@dataclass(frozen=True, slots=True)
class Move:
    """``A:N>B``: the top ``count`` cards of column ``source`` onto column ``target`` (1-based)."""

    source: int
    count: int
    target: int

    def __str__(self) -> str:
        return f"{self.source}:{self.count}>{self.target}"


@dataclass(frozen=True, slots=True)
class Deal:
    """``D``: deal from the stock (Spider, Spiderette)."""

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


Action: TypeAlias = Move | Deal | Undo | ToFoundation | FromFoundation

DEAL: Final = Deal()
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


def _parse(token: object) -> Action:
    if not isinstance(token, str):
        raise MalformedAction(
            f"An action is written as text, like 3:4>7; got {token_text(token)} ({type(token).__name__})"
        )
    text = token.strip(_WHITESPACE)
    if not text:
        raise MalformedAction(f"The action is empty: write {_SHAPES}")
    if not text.isascii():
        odd = next(ch for ch in text if not ch.isascii())
        raise MalformedAction(
            f"{text!r} is not an action: only ASCII digits and the letters of {_SHAPES} may be used, not {odd!r}"
        )
    if any(ch in _WHITESPACE or not ch.isprintable() for ch in text):
        raise MalformedAction(f"{text!r} is not an action: an action has no spaces or other blank characters inside")
    upper = text.upper()
    if upper == "D":
        return DEAL
    if upper == "U":
        return UNDO
    match = _MOVE_RE.fullmatch(upper)
    if match:
        source, count, target = (_number(g, text) for g in match.groups())
        if source == target:
            raise MalformedAction(
                f"{text!r} is not an action: a move goes from one column to another, "
                f"not from column {source} onto itself"
            )
        return Move(source, count, target)
    match = _HOME_RE.fullmatch(upper)
    if match:
        return ToFoundation(_number(match.group(1), text))
    match = _BACK_RE.fullmatch(upper)
    if match:
        suit = match.group(1)
        if suit not in FOUNDATION_SUITS:
            raise MalformedAction(f"{text!r} is not an action: there is no foundation {suit!r}, only S, H, D and C")
        return FromFoundation(suit, _number(match.group(2), text))
    raise MalformedAction(f"{text!r} is not an action: write {_SHAPES}")


def _number(digits: str, text: str) -> int:
    if digits == "0":
        raise MalformedAction(f"{text!r} is not an action: columns and counts start at 1, not 0")
    if digits[0] == "0":
        raise MalformedAction(f"{text!r} is not an action: numbers have no leading zeros ({digits!r})")
    if len(digits) > MAX_NUMBER_DIGITS:
        raise MalformedAction(f"{text!r} is not an action: the number {digits} is far too large")
    return int(digits)
