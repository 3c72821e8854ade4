"""Cards as small ints: ``suit * 13 + rank``, rank 0 (ace) to 12 (king), suits S, H, D, C."""

from __future__ import annotations

from typing import Final

RANKS: Final = "A23456789TJQK"
SUITS: Final = "SHDC"
SUIT_SYMBOLS: Final = "♠♥♦♣"
RANK_WORDS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
KING: Final = 12

# Per-card lookup tables, indexed by the card's int.
RANK_OF: Final[tuple[int, ...]] = tuple(c % 13 for c in range(52))
SUIT_OF: Final[tuple[int, ...]] = tuple(c // 13 for c in range(52))
NAME_OF: Final[tuple[str, ...]] = tuple(RANKS[c % 13] + SUITS[c // 13] for c in range(52))
CARD_OF_NAME: Final[dict[str, int]] = {name: c for c, name in enumerate(NAME_OF)}

# The 13 cards K, Q, ..., A of each suit, from the bottom of a column to its top.
SEQUENCE_OF_SUIT: Final[tuple[list[int], ...]] = tuple([s * 13 + r for r in range(12, -1, -1)] for s in range(4))


def card(rank: int, suit: int) -> int:
    """The card of a rank (0 = ace) and a suit index (0 = S)."""
    return suit * 13 + rank


def card_name(c: int) -> str:
    """The notation of a card (docs/rules.md, Cards): ``TS``, ``AH``."""
    return NAME_OF[c]


def display(c: int) -> str:
    """How a player reads a card: ``7♥``, ``10♠``."""
    return RANK_WORDS[c % 13] + SUIT_SYMBOLS[c // 13]


def rank_word(rank: int) -> str:
    """A rank for a sentence: ``an ace``, ``a king``, ``an 8``, ``a 7``."""
    words = ("an ace", "a 2", "a 3", "a 4", "a 5", "a 6", "a 7", "an 8", "a 9", "a 10", "a jack", "a queen", "a king")
    return words[rank]
