"""The rules of Spider and Spiderette (docs/rules.md); Spiderette is Spider with other numbers."""

from __future__ import annotations

from typing import Final

from .actions import DEAL_ROW, Action, move_of
from .cards import NAME_OF, RANK_OF, SEQUENCE_OF_SUIT, SUIT_OF
from .codes import GameCode
from .errors import IllegalAction
from .game import Game, Record, column_range

# The card one rank lower of the same suit, or -1 below an ace.
_LOWER_SAME: Final[tuple[int, ...]] = tuple(c - 1 if c % 13 else -1 for c in range(52))

_MOVE: Final = 0
_DEAL: Final = 1
# How a move's target column ended: nothing removed, a sequence removed,
# a sequence removed and the card beneath it flipped.
_KEPT, _REMOVED, _REMOVED_FLIPPED = 0, 1, 2


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
        refusal = self._lift_refusal(s, n)
        if refusal is not None:
            return refusal
        bottom = cols[s][-n]
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
        size = len(col)
        start = size - n
        if n > 1:
            prev = col[start]
            if self._classic:
                for i in range(start + 1, size):
                    c = col[i]
                    if c != _LOWER_SAME[prev]:
                        if RANK_OF[c] + 1 != RANK_OF[prev]:
                            return _not_a_run(c, prev)
                        return IllegalAction(
                            "group_one_suit", {"game": self.layout.name, "card": NAME_OF[c], "below": NAME_OF[prev]}
                        )
                    prev = c
            else:
                for i in range(start + 1, size):
                    c = col[i]
                    if RANK_OF[c] + 1 != RANK_OF[prev]:
                        return _not_a_run(c, prev)
                    prev = c
        return None

    def _do_move(self, s: int, n: int, t: int) -> None:
        cols = self._cols
        down = self._down
        col = cols[s]
        target = cols[t]
        start = len(col) - n
        target += col[start:]
        del col[start:]
        flipped = 0
        d = down[s]
        if d and d == len(col):
            down[s] = d - 1
            flipped = 1
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
        self._history.append((_MOVE, s, n, t, flipped, ending, before))

    # ------------------------------------------------------------------ deals

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
        record: list[int] = [_DEAL, k, before]
        for i in range(k):
            col = cols[i]
            top = col[-1]
            if not RANK_OF[top] and len(col) - down[i] >= 13:
                suit = SUIT_OF[top]
                if col[-13:] == SEQUENCE_OF_SUIT[suit]:
                    del col[-13:]
                    self._removed.append(suit)
                    score += 100
                    flipped = 0
                    d = down[i]
                    if d and d == len(col):
                        down[i] = d - 1
                        flipped = 1
                    record += (i, flipped)
        if len(self._removed) >= self._goal:
            self._won = True
        self._score = score
        self._moves += 1
        self._history.append(tuple(record))

    # ------------------------------------------------------------ foundations

    def _home_refusal(self, s: int) -> IllegalAction | None:
        return IllegalAction("no_foundations", {"game": self.layout.name})

    def _back_refusal(self, suit: int, t: int) -> IllegalAction | None:
        return IllegalAction("no_foundations", {"game": self.layout.name})

    # ------------------------------------------------------------------- undo

    def _revert(self, record: Record) -> None:
        cols = self._cols
        down = self._down
        if record[0] == _MOVE:
            _, s, n, t, flipped, ending, before = record
            target = cols[t]
            if ending:
                if ending == _REMOVED_FLIPPED:
                    down[t] += 1
                target += SEQUENCE_OF_SUIT[self._removed.pop()]
            if flipped:
                down[s] += 1
            start = len(target) - n
            cols[s] += target[start:]
            del target[start:]
        else:
            k = record[1]
            before = record[2]
            for at in range(len(record) - 2, 2, -2):
                i, flipped = record[at], record[at + 1]
                if flipped:
                    down[i] += 1
                cols[i] += SEQUENCE_OF_SUIT[self._removed.pop()]
            for i in range(k):
                cols[i].pop()
            self._stock_pos -= k
        self._score = before
        self._moves -= 1

    def _action_of(self, record: Record) -> Action:
        if record[0] == _MOVE:
            return move_of(record[1] + 1, record[2], record[3] + 1)
        return DEAL_ROW

    # ------------------------------------------------------------ enumeration

    def _legal_without_undo(self) -> list[Action]:
        cols = self._cols
        down = self._down
        width = len(cols)
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
                need = RANK_OF[col[size - n]] + 1
                for t in range(width):
                    if t != s and (not cols[t] or RANK_OF[cols[t][-1]] == need):
                        actions.append(move_of(s + 1, n, t + 1))
        if self._deal_refusal() is None:
            actions.append(DEAL_ROW)
        return actions

    def _best_of(self, s: int, n: int, targets: list[int]) -> int:
        suit = SUIT_OF[self._cols[s][-n]]
        same = [t for t in targets if self._cols[t] and SUIT_OF[self._cols[t][-1]] == suit]
        other = [t for t in targets if self._cols[t] and SUIT_OF[self._cols[t][-1]] != suit]
        empty = [t for t in targets if not self._cols[t]]
        # Spider: same suit, another suit, an empty column; Spiderette: same suit,
        # an empty column, another suit (the seeds' double-click).
        tiers = (same, other, empty) if self._floor else (same, empty, other)
        for tier in tiers:
            if tier:
                return tier[0]
        raise AssertionError("targets was not empty")


def _not_a_run(c: int, below: int) -> IllegalAction:
    return IllegalAction("not_a_run", {"card": NAME_OF[c], "below": NAME_OF[below]})
