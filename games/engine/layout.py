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

    @property
    def deals(self) -> int:
        """Deals the full stock holds: one card per column each, the last one short if need be."""
        return -(-self.stock // self.columns)

    @property
    def goal(self) -> str:
        """What a win counts, named as results name it: ``sequences`` removed or ``cards_home``."""
        return "sequences" if self.sequences else "cards_home"

    @property
    def goal_total(self) -> int:
        """How many of ``goal`` win: every sequence, or every card on the foundations."""
        return self.sequences or self.cards


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
