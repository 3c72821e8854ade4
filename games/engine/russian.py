"""The rules of Russian Solitaire (docs/rules.md): Yukon groups, same-suit building, foundations."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Final

from .actions import Action, FromFoundation, ToFoundation, move_of, recorded_columns, recorded_move
from .cards import KING, NAME_OF, RANK_OF, SUIT_OF, SUITS
from .codes import GameCode
from .errors import IllegalAction
from .game import UNDO_LIMIT, Game, Record, column_range

MAX_GROUP: Final = 20
FLIP_POINTS: Final = 5
HOME_POINTS: Final = 10
ALL_CARDS: Final = 52

# The card one rank higher of the same suit, or -1 above a king.
_HIGHER_SAME: Final[tuple[int, ...]] = tuple(c + 1 if c % 13 != KING else -1 for c in range(52))

# An undo record is one int (game.py): its kind in the two lowest bits, then its fields, lowest
# first; the score before the action takes the high bits.
#   a move:               0 | the move (actions.move_record: bits 2-16) | the source's card flipped << 17
#                         | score before << 18
#   a card home:          2 | source << 2 (4) | flipped << 6 | card << 7 (6) | score before << 13
#   a card back from home: 3 | suit << 2 (2) | target << 4 (4) | score before << 8
_MOVE: Final = 0
_HOME: Final = 2
_BACK: Final = 3
_FLIPPED: Final = 1 << 17


class RussianGame(Game):
    """Russian Solitaire, Classic (same suit) or Relaxed (any suit)."""

    __slots__ = ("_classic",)

    has_foundations: ClassVar[bool] = True
    home_move_cards: ClassVar[int] = 1

    _classic: bool

    def _configure(self, code: GameCode) -> None:
        self._classic = code.rule == "C"

    def initial_score(self) -> int:
        return 0

    def _is_won(self) -> bool:
        return self._home >= ALL_CARDS

    def tap_action(self, column: int) -> Action | None:
        """A single tap sends the column's last card home when it fits there."""
        if self._won or type(column) is not int or not 1 <= column <= len(self._cols):
            return None
        return ToFoundation(column) if self._goes_home(column - 1) else None

    # ------------------------------------------------------------------ moves

    def _fits(self, card: int, t: int) -> bool:
        """Whether ``card`` (with whatever is on it) may go onto column ``t``: the rule itself,
        without building a refusal (legal-action lists ask this of every card and column)."""
        target = self._cols[t]
        if not target:
            return RANK_OF[card] == KING
        if self._classic:
            return target[-1] == _HIGHER_SAME[card]
        return RANK_OF[target[-1]] == RANK_OF[card] + 1

    def _fit_refusal(self, card: int, t: int) -> IllegalAction | None:
        """Why ``card`` (with whatever is on it) may not go onto column ``t``."""
        if self._fits(card, t):
            return None
        target = self._cols[t]
        if not target:
            return IllegalAction("empty_column_king_only", {"card": NAME_OF[card], "column": t + 1})
        top = target[-1]
        if self._classic:
            return IllegalAction("doesnt_fit_same_suit", {"card": NAME_OF[card], "top": NAME_OF[top]})
        return IllegalAction("doesnt_fit", {"card": NAME_OF[card], "top": NAME_OF[top]})

    def _move_refusal(self, s: int, n: int, t: int) -> IllegalAction | None:
        refusal = self._group_refusal(s, n, t)
        if refusal is None:
            refusal = self._too_big(n)
        if refusal is not None:
            return refusal
        return self._fit_refusal(self._cols[s][-n], t)

    def _lift_refusal(self, s: int, n: int) -> IllegalAction | None:
        return self._face_up_refusal(s, n) or self._too_big(n)

    @staticmethod
    def _too_big(n: int) -> IllegalAction | None:
        return IllegalAction("group_too_big", {"limit": MAX_GROUP, "count": n}) if n > MAX_GROUP else None

    def _play_move(self, s: int, n: int, t: int, record: int) -> IllegalAction | None:
        # A replay plays hundreds of moves a log: a legal move is judged here, inline; anything else
        # is judged again by _move_refusal, which words why (the rule's one text, and its last word).
        cols = self._cols
        if not (0 <= s < len(cols) and 0 <= t < len(cols)):
            return self._move_refusal(s, n, t)
        col = cols[s]
        start = len(col) - n
        if n < 1 or n > MAX_GROUP or start < self._down[s] or not self._fits(col[start], t):
            refusal = self._move_refusal(s, n, t)
            if refusal is not None:
                return refusal
        cols[t] += col[start:]
        del col[start:]
        before = self._score
        flipped = 0
        d = self._down[s]
        if d and d == len(col):
            self._down[s] = d - 1
            flipped = _FLIPPED
            self._score = before + FLIP_POINTS
        self._moves += 1
        history = self._history  # self._remember, inline
        history.append(before << 18 | flipped | record)
        if len(history) > UNDO_LIMIT:
            del history[0]
        return None

    # ------------------------------------------------------------ foundations

    def _goes_home(self, s: int) -> bool:
        """Whether column ``s``'s last card may go home: ``_home_refusal`` is None, without making a
        refusal to say so (every legal-action list and every tap asks of each column)."""
        col = self._cols[s]
        return bool(col) and len(self._found[SUIT_OF[col[-1]]]) == RANK_OF[col[-1]]

    def _home_refusal(self, s: int) -> IllegalAction | None:
        if not 0 <= s < len(self._cols):
            return column_range(self, s)
        col = self._cols[s]
        if not col:
            return IllegalAction("column_empty", {"column": s + 1})
        card = col[-1]
        suit = SUIT_OF[card]
        pile = self._found[suit]
        if len(pile) != RANK_OF[card]:
            params: dict[str, str | int] = {"card": NAME_OF[card], "suit": SUITS[suit]}
            params["needs"] = NAME_OF[suit * 13 + len(pile)]
            return IllegalAction("foundation_not_ready", params)
        return None

    def _do_home(self, s: int) -> None:
        col = self._cols[s]
        card = col.pop()
        self._found[SUIT_OF[card]].append(card)
        before = self._score
        score = before + HOME_POINTS
        flipped = 0
        d = self._down[s]
        if d and d == len(col):
            self._down[s] = d - 1
            flipped = 1
            score += FLIP_POINTS
        self._score = score
        self._home += 1
        if self._home >= ALL_CARDS:
            self._won = True
        self._moves += 1
        self._remember(before << 13 | card << 7 | flipped << 6 | s << 2 | _HOME)

    def _back_refusal(self, suit: int, t: int) -> IllegalAction | None:
        if not 0 <= t < len(self._cols):
            return column_range(self, t)
        pile = self._found[suit]
        if not pile:
            return IllegalAction("foundation_empty", {"suit": SUITS[suit]})
        return self._fit_refusal(pile[-1], t)

    def _do_back(self, suit: int, t: int) -> None:
        self._cols[t].append(self._found[suit].pop())
        self._home -= 1
        self._moves += 1
        self._remember(self._score << 8 | t << 4 | suit << 2 | _BACK)

    def _deal_refusal(self) -> IllegalAction | None:
        return IllegalAction("no_stock", {"game": self.layout.name})

    # ------------------------------------------------------------------- undo

    def _revert(self, record: Record) -> None:
        # Undo restores cards, faces and score; the move counter never goes down.
        kind = record & 3
        if kind == _MOVE:
            s, n, t = recorded_columns(record)
            if record & _FLIPPED:
                self._down[s] += 1
            target = self._cols[t]
            start = len(target) - n
            self._cols[s] += target[start:]
            del target[start:]
            self._score = record >> 18
        elif kind == _HOME:
            s = record >> 2 & 15
            if record >> 6 & 1:
                self._down[s] += 1
            self._cols[s].append(self._found[SUIT_OF[record >> 7 & 63]].pop())
            self._home -= 1
            self._score = record >> 13
        else:
            self._found[record >> 2 & 3].append(self._cols[record >> 4 & 15].pop())
            self._home += 1
            self._score = record >> 8

    def _revealed(self, record: Record) -> bool:
        kind = record & 3
        if kind == _MOVE:
            return bool(record & _FLIPPED)
        return kind == _HOME and bool(record >> 6 & 1)

    def _action_of(self, record: Record) -> Action:
        kind = record & 3
        if kind == _MOVE:
            return recorded_move(record)
        if kind == _HOME:
            return ToFoundation((record >> 2 & 15) + 1)
        return FromFoundation(SUITS[record >> 2 & 3], (record >> 4 & 15) + 1)

    # ------------------------------------------------------------ enumeration

    def _legal_without_undo(self) -> list[Action]:
        cols = self._cols
        width = len(cols)
        onto = self._onto()
        actions: list[Action] = []
        for s in range(width):
            col = cols[s]
            size = len(col)
            up = size - self._down[s]
            for n in range(1, min(up, MAX_GROUP) + 1):
                for t in onto(col[size - n]):
                    if t != s:
                        actions.append(move_of(s + 1, n, t + 1))
        for s in range(width):
            if self._goes_home(s):
                actions.append(ToFoundation(s + 1))
        for suit in range(4):
            if self._found[suit]:
                for t in onto(self._found[suit][-1]):
                    actions.append(FromFoundation(SUITS[suit], t + 1))
        return actions

    def _onto(self) -> Callable[[int], list[int]]:
        """The columns a card (with whatever is on it) may go onto, in order, as ``_fits`` judges:
        the columns are sorted by their top card once, not asked of every card one by one."""
        classic = self._classic
        by_top: dict[int, list[int]] = {}
        empty: list[int] = []
        for t, target in enumerate(self._cols):
            if target:
                by_top.setdefault(target[-1] if classic else RANK_OF[target[-1]], []).append(t)
            else:
                empty.append(t)
        none: list[int] = []

        def onto(card: int) -> list[int]:
            if RANK_OF[card] == KING:
                return empty
            return by_top.get(_HIGHER_SAME[card] if classic else RANK_OF[card] + 1, none)

        return onto

    def _best_of(self, s: int, n: int, targets: list[int]) -> int:
        # A double tap looks for a place from the longest column first, then
        # an empty column for a king; ties go to the leftmost.
        placed = [t for t in targets if self._cols[t]]
        if placed:
            return max(placed, key=lambda t: (len(self._cols[t]), -t))
        return targets[0]
