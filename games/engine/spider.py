"""The rules of Spider and Spiderette (docs/rules.md); Spiderette is Spider with other numbers."""

from __future__ import annotations

from typing import Final

from .actions import DEAL_ROW, Action, move_of, recorded_columns, recorded_move
from .cards import KING, NAME_OF, RANK_OF, SEQUENCE_OF_SUIT, SUIT_OF
from .codes import GameCode
from .errors import IllegalAction
from .game import UNDO_LIMIT, Game, Record, column_range

# The card one rank lower of the same suit, or -1 below an ace.
_LOWER_SAME: Final[tuple[int, ...]] = tuple(c - 1 if c % 13 else -1 for c in range(52))

# An undo record is one int (game.py), its fields by bit, lowest first; the score before the
# action (which may be negative) takes the high bits, so it comes back with an arithmetic shift.
#   a move:  0 | the move (actions.move_record: bits 2-16) | the source's card flipped << 17
#            | how the target ended << 18 (2 bits) | score before << 20
#   a deal:  1 | cards dealt << 2 (4 bits) | columns whose sequence went home << 6 (10 bits, one a
#            column) | those whose card beneath was flipped << 16 (10) | score before << 26
_DEAL: Final = 1
_FLIPPED: Final = 1 << 17
# How a move's target column ended: nothing removed, a sequence removed, a sequence removed and
# the card beneath it flipped.
_KEPT: Final = 0
_REMOVED: Final = 1 << 18
_REMOVED_FLIPPED: Final = 2 << 18
_ENDING: Final = 3 << 18


class SpiderGame(Game):
    """Spider (10 columns, 8 sequences) and Spiderette (7 columns, 4 sequences)."""

    __slots__ = ("_classic", "_floor", "_goal")

    _classic: bool
    _floor: bool
    _goal: int

    def _configure(self, code: GameCode) -> None:
        spider = code.game == "SP"
        self._classic = code.rule == "C"
        self._floor = spider
        self._goal = self.layout.sequences

    def _is_won(self) -> bool:
        return len(self._removed) >= self._goal

    # ------------------------------------------------------------------ moves

    def _move_refusal(self, s: int, n: int, t: int) -> IllegalAction | None:
        cols = self._cols
        if not (0 <= s < len(cols) and 0 <= t < len(cols)):
            return column_range(self, s, t)
        col = cols[s]
        start = len(col) - n
        if n < 1 or start < self._down[s]:  # no card, or one face-down: worded by the common rule
            return self._face_up_refusal(s, n)
        bottom = col[start]
        if n > 1:  # a single card is always a run: most moves ask no more
            refusal = self._run_refusal(col, start)
            if refusal is not None:
                return refusal
        target = cols[t]
        if target:
            top = target[-1]
            if RANK_OF[top] != RANK_OF[bottom] + 1:
                fit: dict[str, str | int] = {"card": NAME_OF[bottom], "top": NAME_OF[top]}
                if RANK_OF[top] == 0:
                    return IllegalAction("nothing_onto_ace", fit)
                return IllegalAction("doesnt_fit", fit)
        return None

    def _lift_refusal(self, s: int, n: int) -> IllegalAction | None:
        refusal = self._face_up_refusal(s, n)
        if refusal is not None:
            return refusal
        col = self._cols[s]
        return self._run_refusal(col, len(col) - n) if n > 1 else None

    def _run_refusal(self, col: list[int], start: int) -> IllegalAction | None:
        """Why the face-up cards of ``col`` from ``start`` up are not one group that moves together."""
        prev = col[start]
        if self._classic:
            for i in range(start + 1, len(col)):
                c = col[i]
                if c != _LOWER_SAME[prev]:
                    if RANK_OF[c] + 1 != RANK_OF[prev]:
                        return _not_a_run(c, prev)
                    return IllegalAction(
                        "group_one_suit", {"game": self.layout.name, "card": NAME_OF[c], "below": NAME_OF[prev]}
                    )
                prev = c
        else:
            for i in range(start + 1, len(col)):
                c = col[i]
                if RANK_OF[c] + 1 != RANK_OF[prev]:
                    return _not_a_run(c, prev)
                prev = c
        return None

    def _play_move(self, s: int, n: int, t: int, record: int) -> IllegalAction | None:
        # A replay plays hundreds of moves a log: a legal move is judged here, inline; anything else
        # is judged again by _move_refusal, which words why (the rule's one text, and its last word).
        cols = self._cols
        down = self._down
        if not (0 <= s < len(cols) and 0 <= t < len(cols)):
            return self._move_refusal(s, n, t)
        col = cols[s]
        target = cols[t]
        start = len(col) - n
        if (
            n < 1
            or start < down[s]
            or (n > 1 and self._run_refusal(col, start) is not None)
            or (target and RANK_OF[target[-1]] != RANK_OF[col[start]] + 1)
        ):
            refusal = self._move_refusal(s, n, t)
            if refusal is not None:
                return refusal
        target += col[start:]
        del col[start:]
        flipped = 0
        d = down[s]
        if d and d == start:
            down[s] = d - 1
            flipped = _FLIPPED
        before = self._score
        score = before - 1 if before > 0 or not self._floor else 0
        ending = _KEPT
        top = target[-1]
        if not RANK_OF[top] and len(target) - down[t] >= 13:
            suit = SUIT_OF[top]
            if target[-13:] == SEQUENCE_OF_SUIT[suit]:
                del target[-13:]
                self._removed.append(suit)
                score += 100
                ending = _REMOVED
                d = down[t]
                if d and d == len(target):
                    down[t] = d - 1
                    ending = _REMOVED_FLIPPED
                if len(self._removed) >= self._goal:
                    self._won = True
        self._score = score
        self._moves += 1
        history = self._history  # self._remember, inline
        history.append(before << 20 | ending | flipped | record)
        if len(history) > UNDO_LIMIT:
            del history[0]
        return None

    # ------------------------------------------------------------------ deals

    def _can_deal(self) -> bool:
        """Whether a row may be dealt: ``_deal_refusal`` is None, without making a refusal to say so
        (every legal-action list asks)."""
        return self._stock_pos < len(self._stock) and all(self._cols)

    def _deal_refusal(self) -> IllegalAction | None:
        if self._stock_pos >= len(self._stock):
            return IllegalAction("stock_empty")
        for i, col in enumerate(self._cols):
            if not col:
                return IllegalAction("deal_with_empty_column", {"column": i + 1})
        return None

    def _do_deal(self) -> None:
        cols = self._cols
        down = self._down
        pos = self._stock_pos
        stock = self._stock
        k = min(len(cols), len(stock) - pos)
        for i in range(k):
            cols[i].append(stock[pos + i])
        self._stock_pos = pos + k
        before = self._score
        score = before - 1 if before > 0 or not self._floor else 0
        removed = 0
        flips = 0
        for i in range(k):
            col = cols[i]
            top = col[-1]
            if not RANK_OF[top] and len(col) - down[i] >= 13:
                suit = SUIT_OF[top]
                if col[-13:] == SEQUENCE_OF_SUIT[suit]:
                    del col[-13:]
                    self._removed.append(suit)
                    score += 100
                    removed |= 1 << i
                    d = down[i]
                    if d and d == len(col):
                        down[i] = d - 1
                        flips |= 1 << i
        if len(self._removed) >= self._goal:
            self._won = True
        self._score = score
        self._moves += 1
        self._remember(before << 26 | flips << 16 | removed << 6 | k << 2 | _DEAL)

    # ------------------------------------------------------------ foundations

    def _home_refusal(self, s: int) -> IllegalAction | None:
        return IllegalAction("no_foundations", {"game": self.layout.name})

    def _back_refusal(self, suit: int, t: int) -> IllegalAction | None:
        return IllegalAction("no_foundations", {"game": self.layout.name})

    # ------------------------------------------------------------------- undo

    def _revert(self, record: Record) -> None:
        cols = self._cols
        down = self._down
        if not record & _DEAL:
            s, n, t = recorded_columns(record)
            target = cols[t]
            ending = record & _ENDING
            if ending:
                if ending == _REMOVED_FLIPPED:
                    down[t] += 1
                target += SEQUENCE_OF_SUIT[self._removed.pop()]
            if record & _FLIPPED:
                down[s] += 1
            start = len(target) - n
            cols[s] += target[start:]
            del target[start:]
            self._score = record >> 20
        else:
            k = record >> 2 & 15
            removed = record >> 6 & 1023
            flips = record >> 16 & 1023
            for i in range(k - 1, -1, -1):  # the sequences went home from the left: back from the right
                if removed >> i & 1:
                    if flips >> i & 1:
                        down[i] += 1
                    cols[i] += SEQUENCE_OF_SUIT[self._removed.pop()]
            for i in range(k):
                cols[i].pop()
            self._stock_pos -= k
            self._score = record >> 26
        self._moves -= 1

    def _revealed(self, record: Record) -> bool:
        if record & _DEAL:
            return True  # a row of cards from the face-down stock
        return bool(record & _FLIPPED) or record & _ENDING == _REMOVED_FLIPPED

    def _action_of(self, record: Record) -> Action:
        if not record & _DEAL:
            return recorded_move(record)
        return DEAL_ROW

    # ------------------------------------------------------------ enumeration

    def _legal_without_undo(self) -> list[Action]:
        cols = self._cols
        down = self._down
        width = len(cols)
        # The columns a card of each rank may go onto, in order: those whose top card is one rank
        # higher, and the empty ones. Sorted once per list rather than asked of every column for
        # every movable group (most of the time the list took, after every action).
        onto: list[list[int]] = [[] for _ in range(KING + 2)]
        empty: list[int] = []
        for t in range(width):
            target = cols[t]
            if target:
                onto[RANK_OF[target[-1]]].append(t)
            else:
                empty.append(t)
        if empty:
            onto = [sorted(columns + empty) for columns in onto]
        actions: list[Action] = []
        for s in range(width):
            col = cols[s]
            size = len(col)
            if not size:
                continue
            up = size - down[s]
            movable = 1
            while movable < up:
                upper, lower = col[size - movable], col[size - movable - 1]
                if self._classic:
                    if upper != _LOWER_SAME[lower]:
                        break
                elif RANK_OF[upper] + 1 != RANK_OF[lower]:
                    break
                movable += 1
            for n in range(1, movable + 1):
                for t in onto[RANK_OF[col[size - n]] + 1]:
                    if t != s:
                        actions.append(move_of(s + 1, n, t + 1))
        if self._can_deal():
            actions.append(DEAL_ROW)
        return actions

    def _best_of(self, s: int, n: int, targets: list[int]) -> int:
        # Spider: same suit, another suit, an empty column; Spiderette: same suit, an empty column,
        # another suit (the seeds' double-click); the first of each kind. One pass over the targets.
        cols = self._cols
        suit = SUIT_OF[cols[s][-n]]
        other = empty = -1
        for t in targets:
            target = cols[t]
            if not target:
                if empty < 0:
                    empty = t
            elif SUIT_OF[target[-1]] == suit:
                return t
            elif other < 0:
                other = t
        first, then = (other, empty) if self._floor else (empty, other)
        if first >= 0:
            return first
        if then >= 0:
            return then
        raise AssertionError("targets was not empty")


def _not_a_run(c: int, below: int) -> IllegalAction:
    return IllegalAction("not_a_run", {"card": NAME_OF[c], "below": NAME_OF[below]})
