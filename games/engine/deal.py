"""The deal procedure, version 1 (docs/codes.md): unshuffled deck, random numbers, Fisher-Yates."""

from __future__ import annotations

from dataclasses import dataclass

from .codes import GameCode
from .layout import LAYOUTS
from .rng import sha256_stream, splitmix64

SUIT_SETS: dict[int, tuple[int, ...]] = {1: (0,), 2: (0, 1), 4: (0, 1, 2, 3)}


@dataclass(frozen=True)
class InitialDeal:
    """Columns bottom to top with their face-down counts, and the stock, next card first."""

    columns: tuple[tuple[int, ...], ...]
    face_down: tuple[int, ...]
    stock: tuple[int, ...]


def unshuffled_deck(cards: int, suits: int) -> list[int]:
    """Runs of A..K; run k has suit ``suits[k mod len(suits)]``."""
    suit_set = SUIT_SETS[suits]
    return [suit_set[(i // 13) % len(suit_set)] * 13 + i % 13 for i in range(cards)]


def shuffle(deck: list[int], number: int, *, long: bool = False) -> None:
    """Fisher-Yates from the top, in place, with the random numbers of deal ``number``: SplitMix64,
    or the SHA-256 stream of a long code."""
    rng = sha256_stream(number) if long else splitmix64(number)
    for i in range(len(deck) - 1, 0, -1):
        j = next(rng) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]


def deal(code: GameCode) -> InitialDeal:
    """The initial position of ``code``."""
    layout = LAYOUTS[code.game]
    deck = unshuffled_deck(layout.cards, code.suits)
    shuffle(deck, code.number, long=code.long)
    columns = []
    at = 0
    for size in layout.column_sizes:
        columns.append(tuple(deck[at : at + size]))
        at += size
    return InitialDeal(tuple(columns), layout.face_down, tuple(deck[at:]))
