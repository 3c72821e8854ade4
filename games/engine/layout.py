"""What differs between the games: columns, face-down counts, stock, sequences (docs/rules.md, The table)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class Layout:
    """The numbers of one game; a variant changes only these."""

    name: str
    cards: int
    column_sizes: tuple[int, ...]
    face_down: tuple[int, ...]
    sequences: int  # sequences to remove to win (Spider family); 0 for Russian

    @property
    def columns(self) -> int:
        return len(self.column_sizes)

    @property
    def stock(self) -> int:
        return self.cards - sum(self.column_sizes)


SPIDER: Final = Layout(
    name="Spider",
    cards=104,
    column_sizes=(6, 6, 6, 6, 5, 5, 5, 5, 5, 5),
    face_down=(5, 5, 5, 5, 4, 4, 4, 4, 4, 4),
    sequences=8,
)
SPIDERETTE: Final = Layout(
    name="Spiderette",
    cards=52,
    column_sizes=(1, 2, 3, 4, 5, 6, 7),
    face_down=(0, 1, 2, 3, 4, 5, 6),
    sequences=4,
)
RUSSIAN: Final = Layout(
    name="Russian Solitaire",
    cards=52,
    column_sizes=(1, 6, 7, 8, 9, 10, 11),
    face_down=(0, 1, 2, 3, 4, 5, 6),
    sequences=0,
)

LAYOUTS: Final[dict[str, Layout]] = {"SP": SPIDER, "SD": SPIDERETTE, "RU": RUSSIAN}
