"""Game codes and variants (docs/codes.md): parse, validate and format them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .actions import BLANKS
from .errors import InvalidCode

DEAL_LETTERS: Final = 7
DEAL_NUMBERS: Final = 26**DEAL_LETTERS
# A long code's deal part: too many deals to search for one from the cards it shows (docs/codes.md).
LONG_DEAL_LETTERS: Final = 20
LONG_DEAL_NUMBERS: Final = 26**LONG_DEAL_LETTERS
VERSION: Final = "1"

GAME_NAMES: Final[dict[str, str]] = {
    "SP": "Spider",
    "SD": "Spiderette",
    "RU": "Russian Solitaire",
}

ALL_VARIANTS: Final[tuple[str, ...]] = (
    "SP1-S1C",
    "SP1-S2C",
    "SP1-S2R",
    "SP1-S4C",
    "SP1-S4R",
    "SD1-S1",
    "SD1-S2",
    "SD1-S4",
    "RU1-C",
    "RU1-R",
)
DAILY_VARIANTS: Final[tuple[str, ...]] = (
    "SP1-S1C",
    "SP1-S2C",
    "SP1-S4C",
    "SD1-S1",
    "SD1-S2",
    "SD1-S4",
    "RU1-C",
)


@dataclass(frozen=True)
class GameCode:
    """One deal of one variant: ``SP1-S4C-AAAAAAD``, or with a long (twenty-letter) deal part."""

    game: str  # "SP" | "SD" | "RU"
    suits: int  # 1, 2 or 4 (Russian: 4)
    rule: str  # "C" | "R" (Spiderette: "C")
    number: int  # 0 <= number < 26**7, or 26**20 for a long code
    long: bool = False  # twenty letters, dealt from the SHA-256 stream instead of SplitMix64

    def __post_init__(self) -> None:
        variant = _format_variant(self.game, self.suits, self.rule)
        if variant not in ALL_VARIANTS:
            raise InvalidCode("variant_unknown", {"variant": variant})
        _check_number(self.number, long=self.long)

    @classmethod
    def parse(cls, text: object) -> GameCode:
        """The code in ``text`` (any letter case, surrounding spaces); InvalidCode if it is not one."""
        clean = _clean(text, "code")
        parts = clean.split("-")
        if len(parts) != 3:
            raise InvalidCode("code_parts", {"text": clean, "parts": len(parts)})
        game, suits, rule = _parse_variant_parts(parts[0], parts[1])
        letters = parts[2]
        return cls(game, suits, rule, _parse_number(letters), len(letters) == LONG_DEAL_LETTERS)

    @classmethod
    def from_variant(cls, variant: object, number: int, *, long: bool = False) -> GameCode:
        """The deal ``number`` of ``variant`` (``SP1-S4C``), a long code if ``long``; InvalidCode if
        either is wrong."""
        canonical = parse_variant(variant)
        game, suits, rule = _VARIANT_PARTS[canonical]
        _check_number(number, long=long)
        return cls(game, suits, rule, number, long)

    @property
    def variant(self) -> str:
        """The code without its deal letters: ``SP1-S4C``, ``SD1-S2``, ``RU1-C``."""
        return _format_variant(self.game, self.suits, self.rule)

    @property
    def game_name(self) -> str:
        """``Spider``, ``Spiderette`` or ``Russian Solitaire``."""
        return GAME_NAMES[self.game]

    @property
    def letters(self) -> str:
        """The deal number as seven letters (``AAAAAAD`` for 3), or twenty for a long code."""
        return number_to_letters(self.number, LONG_DEAL_LETTERS if self.long else DEAL_LETTERS)

    def __str__(self) -> str:
        # Written once per code (frozen: it cannot change): every session document shows it. Kept
        # by hand, as cached_property would, without the lock Python 3.11's takes on first use.
        text: str | None = self.__dict__.get("_text")
        if text is None:
            text = self.__dict__["_text"] = f"{self.variant}-{self.letters}"
        return text


def parse_variant(text: object) -> str:
    """The canonical variant in ``text`` (``sp1-s4c`` -> ``SP1-S4C``); InvalidCode if none."""
    clean = _clean(text, "variant")
    parts = clean.split("-")
    if len(parts) != 2:
        raise InvalidCode("variant_parts", {"text": clean, "parts": len(parts)})
    return _format_variant(*_parse_variant_parts(parts[0], parts[1]))


def number_to_letters(number: int, width: int = DEAL_LETTERS) -> str:
    """Base 26 with ``A`` = 0, ``width`` letters, most significant first."""
    letters = []
    for _ in range(width):
        number, digit = divmod(number, 26)
        letters.append(chr(65 + digit))
    return "".join(reversed(letters))


def _format_variant(game: str, suits: int, rule: str) -> str:
    if game == "SP":
        return f"SP{VERSION}-S{suits}{rule}"
    if game == "SD":
        return f"SD{VERSION}-S{suits}"
    return f"{game}{VERSION}-{rule}"


def _clean(text: object, what: str) -> str:
    """``what`` is ``code`` or ``variant``: the rule ids say which was refused."""
    if not isinstance(text, str):
        raise InvalidCode(f"{what}_not_text", {"type": type(text).__name__})
    clean = text.strip(BLANKS)
    if not clean:
        raise InvalidCode(f"{what}_empty")
    if not clean.isascii():
        raise InvalidCode(f"{what}_not_ascii", {"text": clean})
    return clean.upper()


def _parse_variant_parts(head: str, body: str) -> tuple[str, int, str]:
    game, version = head[:2], head[2:]
    if game not in GAME_NAMES:
        raise InvalidCode("code_unknown_game", {"head": head})
    if version != VERSION:
        raise InvalidCode("code_unknown_version", {"version": version, "head": head, "prefix": game})
    name = GAME_NAMES[game]
    if game == "RU":
        if body not in ("C", "R"):
            raise InvalidCode("code_russian_rule", {"body": body})
        return game, 4, body
    if not body.startswith("S") or len(body) < 2 or body[1] not in "0123456789":
        raise InvalidCode("code_suits_shape", {"game": name, "body": body})
    suits_text = body[1]
    if suits_text not in "124":
        raise InvalidCode("code_suits_count", {"game": name, "number": suits_text})
    suits = int(suits_text)
    rule = body[2:]
    if game == "SD":
        if rule:
            raise InvalidCode("code_spiderette_rule", {"suits": suits, "written": body})
        return game, suits, "C"
    if rule not in ("C", "R"):
        if not rule:
            raise InvalidCode("code_spider_rule_missing", {"suits": suits})
        raise InvalidCode("code_spider_rule", {"letter": rule})
    if suits == 1 and rule == "R":
        raise InvalidCode("code_one_suit_relaxed")
    return game, suits, rule


def _check_number(number: object, *, long: bool) -> None:
    numbers = LONG_DEAL_NUMBERS if long else DEAL_NUMBERS
    if type(number) is not int or not 0 <= number < numbers:
        raise InvalidCode("code_deal_number", {"highest": numbers - 1})


def _parse_number(letters: str) -> int:
    if len(letters) not in (DEAL_LETTERS, LONG_DEAL_LETTERS):
        raise InvalidCode(
            "code_letters_count",
            {"short": DEAL_LETTERS, "long": LONG_DEAL_LETTERS, "letters": letters, "given": len(letters)},
        )
    number = 0
    for ch in letters:
        if not "A" <= ch <= "Z":
            raise InvalidCode("code_letters", {"letters": letters, "char": ch})
        number = number * 26 + ord(ch) - 65
    return number


_VARIANT_PARTS: Final[dict[str, tuple[str, int, str]]] = {}
for _v in ALL_VARIANTS:
    _h, _b = _v.split("-")
    _VARIANT_PARTS[_v] = _parse_variant_parts(_h, _b)
