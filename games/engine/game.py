"""The game: a position you push actions onto and undo, python-chess style.

A position is kept as small ints for speed: each column is a list of cards
from the bottom to the top whose first ``down[i]`` cards are face-down; the
stock is the bytes of the stock's cards (a card is under 52; nothing changes
them) with the index of the next one; each undo record is what changed, never
a copy of the board, packed by the game's rules into one int. A game being
played or replayed keeps its records in a list, whose appends are cheap; a copy
holds them in an array of 64-bit ints, far smaller than tuples of small ints. A
game to keep rather than play (`kept`, what a cache holds) has its columns in
bytes too (the figures: bench/README.md).
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar, Final, cast

from .actions import _CACHE, Action, DealRow, FromFoundation, Move, ToFoundation, Undo, parse_action
from .cards import NAME_OF, SUITS
from .codes import GameCode
from .errors import EngineError, IllegalAction
from .layout import LAYOUTS, Layout

if TYPE_CHECKING:
    from .hint import Hint

UNDO_LIMIT: Final = 100
_WON_RULE: Final = "game_won"
_NOTHING_TO_UNDO_RULE: Final = "nothing_to_undo"

Record = int  # an undo record, packed by the game's rules (spider.py, russian.py)
# The foundations of every game that has none, shared (nothing changes them): four empty lists a
# game were a noticeable share of a cached game's memory.
_NO_FOUNDATIONS: Final[list[list[int]]] = [[], [], [], []]
_SUIT_INDEX: Final[dict[str, int]] = {suit: i for i, suit in enumerate(SUITS)}


def _no_foundation(suit: object) -> IllegalAction:
    return IllegalAction("no_such_foundation", {"letter": suit if isinstance(suit, str | int) else repr(suit)})


_SLOTS: dict[type, tuple[str, ...]] = {}


def _slots_of(cls: type) -> tuple[str, ...]:
    """Every slot of a game class, its bases' too (a copy sets each; looked up once per class)."""
    slots = _SLOTS.get(cls)
    if slots is None:
        slots = _SLOTS[cls] = tuple(name for klass in cls.__mro__ for name in getattr(klass, "__slots__", ()))
    return slots


class Game:
    """One game of Spider, Spiderette or Russian Solitaire; make it with ``Game.from_code``."""

    __slots__ = (
        "code",
        "layout",
        "_cols",
        "_down",
        "_stock",
        "_stock_pos",
        "_removed",
        "_found",
        "_home",
        "_score",
        "_moves",
        "_won",
        "_history",
    )

    has_foundations: ClassVar[bool] = False
    # How many cards one move to a foundation takes (Russian Solitaire: the top card); 0: no foundations.
    home_move_cards: ClassVar[int] = 0

    code: GameCode
    layout: Layout
    _cols: list[list[int]]
    _down: list[int]
    _stock: bytes
    _stock_pos: int
    _removed: list[int]
    _found: list[list[int]]
    _home: int
    _score: int
    _moves: int
    _won: bool
    _history: list[int] | array[int]  # the undo records, oldest first, at most UNDO_LIMIT

    # ------------------------------------------------------------------ making

    @classmethod
    def from_code(cls, code: GameCode | str) -> Game:
        """The game at the start of the deal ``code``; InvalidCode if the text is not a code."""
        from .deal import deal

        parsed = code if isinstance(code, GameCode) else GameCode.parse(code)
        initial = deal(parsed)
        game = _class_for(parsed)()
        game._setup(
            parsed,
            [list(c) for c in initial.columns],
            list(initial.face_down),
            initial.stock,
        )
        return game

    @classmethod
    def from_state(cls, document: dict[str, object]) -> Game:
        """A game in the position of a state document (docs/state.md), without undo history.

        For tests and analysis: the cards are not checked against the deal.
        """
        from .position import game_from_state

        return game_from_state(document)

    def _setup(
        self,
        code: GameCode,
        columns: list[list[int]],
        down: list[int],
        stock: Sequence[int],
        removed: Sequence[int] = (),
        foundations: Sequence[Sequence[int]] = ((), (), (), ()),
        score: int | None = None,
        moves: int = 0,
    ) -> None:
        self.code = code
        self.layout = LAYOUTS[code.game]
        self._configure(code)
        self._cols = columns
        self._down = down
        self._stock = bytes(stock)
        self._stock_pos = 0
        self._removed = list(removed)
        self._found = [list(f) for f in foundations] if self.has_foundations else _NO_FOUNDATIONS
        self._home = sum(len(f) for f in self._found)
        self._score = self.initial_score() if score is None else score
        self._moves = moves
        self._history = []
        self._won = self._is_won()

    def _configure(self, code: GameCode) -> None:
        """What a variant sets from its code before play (its rule, its goal); nothing here."""

    def initial_score(self) -> int:
        return 500

    # ----------------------------------------------------------------- playing

    def push(self, action: Action) -> None:
        """Apply ``action`` (``Undo()`` undoes); IllegalAction with the rule, state unchanged."""
        if self._won:
            raise IllegalAction(_WON_RULE)
        kind = type(action)
        if kind is Move:
            move: Move = action  # type: ignore[assignment]
            s = move.source - 1
            n = move.count
            t = move.target - 1
            refusal = self._play_move(s, n, t, move._record)
            if refusal is not None:
                raise refusal
        elif kind is ToFoundation:
            s = action.source - 1  # type: ignore[union-attr]
            refusal = self._home_refusal(s)
            if refusal is not None:
                raise refusal
            self._do_home(s)
        elif kind is DealRow:
            refusal = self._deal_refusal()
            if refusal is not None:
                raise refusal
            self._do_deal()
        elif kind is Undo:
            if not self._history:
                raise IllegalAction(_NOTHING_TO_UNDO_RULE)
            self._revert(self._history.pop())
        elif kind is FromFoundation:
            back: FromFoundation = action  # type: ignore[assignment]
            suit = _SUIT_INDEX.get(back.suit, -1)
            t = back.target - 1
            refusal = self._back_refusal(suit, t) if suit >= 0 else _no_foundation(back.suit)
            if refusal is not None:
                raise refusal
            self._do_back(suit, t)
        else:
            raise TypeError(f"not an action: {action!r}")

    def pop(self) -> Action:
        """Undo the last action and return it (python-chess style); IllegalAction if none."""
        if self._won:
            raise IllegalAction(_WON_RULE)
        if not self._history:
            raise IllegalAction(_NOTHING_TO_UNDO_RULE)
        record = self._history.pop()
        self._revert(record)
        return self._action_of(record)

    def peek(self) -> Action | None:
        """The action an undo would take back now, or None."""
        return self._action_of(self._history[-1]) if self._history else None

    def copy(self) -> Game:
        """An independent game in the same position, with the same undo history."""
        return self._copy_with([list(c) for c in self._cols])

    def kept(self) -> Game:
        """A copy to keep, not to play, in less memory: its cards in bytes. Its ``copy()`` is a game
        to play, and so is the kept game itself once ``thaw()`` has made it so (its owner's alone)."""
        # The type says lists: nothing reads a kept game's cards but copy() and thaw(), which make lists.
        return self._copy_with(cast("list[list[int]]", [bytes(c) for c in self._cols]))

    def _copy_with(self, columns: list[list[int]]) -> Game:
        """A copy of this game (as ``copy`` describes it) whose columns are ``columns``."""
        other = object.__new__(type(self))
        for name in _slots_of(type(self)):
            setattr(other, name, getattr(self, name))
        other._cols = columns
        other._down = list(self._down)
        other._removed = list(self._removed)
        if self.has_foundations:
            other._found = [list(f) for f in self._found]
        history = self._history
        other._history = history[:] if type(history) is array else array("q", history)  # compact, to keep
        return other

    def thaw(self) -> None:
        """Make this game playable again, in place, if it was kept (``kept``)."""
        first: object = self._cols[0]  # every layout has columns
        if isinstance(first, bytes):
            self._cols = [list(c) for c in self._cols]

    def apply(self, token: object) -> Action:
        """Parse ``token`` and push it; returns the action. MalformedAction or IllegalAction."""
        action = parse_action(token)
        self.push(action)
        return action

    def refusal(self, action: Action) -> str | None:
        """Why ``action`` is refused now, in words, or None if it is legal."""
        error = self.refusal_error(action)
        return None if error is None else error.message

    def refusal_error(self, action: Action) -> IllegalAction | None:
        """Why ``action`` is refused now, as the error ``push`` would raise (rule id, params), or None."""
        if self._won:
            return IllegalAction(_WON_RULE)
        if isinstance(action, Move):
            return self._move_refusal(action.source - 1, action.count, action.target - 1)
        if isinstance(action, DealRow):
            return self._deal_refusal()
        if isinstance(action, Undo):
            return None if self._history else IllegalAction(_NOTHING_TO_UNDO_RULE)
        if isinstance(action, ToFoundation):
            return self._home_refusal(action.source - 1)
        suit = _SUIT_INDEX.get(action.suit, -1)
        if suit < 0:
            return _no_foundation(action.suit)
        return self._back_refusal(suit, action.target - 1)

    def is_legal(self, action: Action) -> bool:
        return self.refusal_error(action) is None

    def legal_actions(self) -> list[Action]:
        """Every legal action now, one per (column, count, target); ``Undo()`` last if possible."""
        if self._won:
            return []
        actions = self._legal_without_undo()
        if self._history:
            actions.append(Undo())
        return actions

    def run(self, tokens: Sequence[object]) -> tuple[int, str, EngineError] | None:
        """Apply ``tokens`` in order; the first refusal as (1-based index, token, error), or None.

        The replay loop: no state documents, no legal-action lists, parsed tokens cached.
        """
        cache = _CACHE
        push = self.push
        index = 0
        for token in tokens:
            index += 1
            action = cache.get(token) if type(token) is str else None
            try:
                if action is None:
                    action = parse_action(token)
                push(action)
            except EngineError as error:
                from .actions import token_text

                return index, token_text(token), error
        return None

    # ------------------------------------------------------------- browser aid

    def targets(self, column: int, count: int) -> list[int]:
        """The columns (1-based) the top ``count`` cards of ``column`` may legally go to."""
        if self._won or type(column) is not int or type(count) is not int:
            return []
        s = column - 1
        if not 0 <= s < len(self._cols) or count < 1:
            return []
        return [t + 1 for t in range(len(self._cols)) if t != s and self._move_refusal(s, count, t) is None]

    def lift_refusal(self, column: int, count: int) -> IllegalAction | None:
        """Why the top ``count`` cards of ``column`` cannot be picked up together now, whatever
        the target (``group_one_suit``, ``not_a_run``, ``group_too_big``, ...), or None if they can.

        A group that can be picked up may still have nowhere to go: ``targets`` says where it may.
        Only face-up cards are judged, so the answer tells nothing a player cannot see.
        """
        if self._won:
            return IllegalAction(_WON_RULE)
        if type(column) is not int or type(count) is not int:
            raise TypeError(f"column and count are ints, not {column!r} and {count!r}")
        s = column - 1
        if not 0 <= s < len(self._cols):
            return column_range(self, s)
        return self._lift_refusal(s, count)

    def best_target(self, column: int, count: int) -> int | None:
        """Where a double-click sends the group, as the seeds describe; ties go leftmost."""
        targets = self.targets(column, count)
        if not targets:
            return None
        return self._best_of(column - 1, count, [t - 1 for t in targets]) + 1

    def best_targets(self, legal: Sequence[Action] | None = None) -> dict[tuple[int, int], int]:
        """``best_target`` of every movable group at once, keyed by (column, count).

        Pass ``legal_actions()`` if you already hold it: the targets of each group are read
        from it instead of judging every column again, one group after another.
        """
        grouped: dict[tuple[int, int], list[int]] = {}
        for action in self.legal_actions() if legal is None else legal:
            if type(action) is Move:
                grouped.setdefault((action.source, action.count), []).append(action.target - 1)
        return {
            (column, count): self._best_of(column - 1, count, sorted(targets)) + 1
            for (column, count), targets in grouped.items()
        }

    def tap_action(self, column: int) -> Action | None:
        """What a single tap on ``column`` does: nothing, except in Russian Solitaire."""
        return None

    def hint(self) -> Hint | None:
        """A next action chosen from the player's view only (hint.py says how), or None."""
        from .hint import choose

        return choose(self.view(), self.legal_actions())

    # ---------------------------------------------------------------- counters

    @property
    def won(self) -> bool:
        return self._won

    @property
    def score(self) -> int:
        return self._score

    @property
    def moves(self) -> int:
        return self._moves

    @property
    def undo_available(self) -> int:
        return len(self._history)

    @property
    def last_action_revealed(self) -> bool:
        """Whether the action an undo would take back dealt a row or turned a face-down card face up:
        an undo that would hide again what the player has seen (docs/rules.md, "Undo")."""
        return bool(self._history) and self._revealed(self._history[-1])

    @property
    def nothing_hidden(self) -> bool:
        """Every card is face up and the stock is empty: the player sees the whole game."""
        return self.stock_left == 0 and not any(self._down)

    @property
    def sequences(self) -> int:
        """Sequences removed (Spider family; 0 for Russian)."""
        return len(self._removed)

    @property
    def cards_home(self) -> int:
        """Cards on the foundations (Russian; 0 otherwise)."""
        return self._home

    @property
    def stock_left(self) -> int:
        return len(self._stock) - self._stock_pos

    @property
    def rows_left(self) -> int:
        """Deals the stock still holds: one card per column each, the last one short if need be."""
        return -(-self.stock_left // self.layout.columns)

    # --------------------------------------------------------------- documents

    def state(self) -> dict[str, object]:
        """The full state document of docs/state.md (hidden cards included)."""
        doc = self._counters()
        doc["columns"] = [
            {"down": [NAME_OF[c] for c in col[:d]], "up": [NAME_OF[c] for c in col[d:]]}
            for col, d in zip(self._cols, self._down)
        ]
        doc["stock"] = [NAME_OF[c] for c in self._stock[self._stock_pos :]]
        return doc

    def view(self) -> dict[str, object]:
        """The player's view: face-down cards and the stock as counts only."""
        doc = self._counters()
        doc["columns"] = [{"down": d, "up": [NAME_OF[c] for c in col[d:]]} for col, d in zip(self._cols, self._down)]
        doc["stock"] = self.stock_left
        return doc

    def _counters(self) -> dict[str, object]:
        foundations: dict[str, list[str]] | None = None
        if self.has_foundations:
            foundations = {SUITS[i]: [NAME_OF[c] for c in pile] for i, pile in enumerate(self._found)}
        return {
            "code": str(self.code),
            "columns": [],
            "stock": [],
            "removed": [SUITS[s] for s in self._removed],
            "foundations": foundations,
            "score": self._score,
            "moves": self._moves,
            "undo_available": len(self._history),
            "won": self._won,
        }

    def __repr__(self) -> str:
        return f"<Game {self.code} score={self._score} moves={self._moves} won={self._won}>"

    # ------------------------------------------------- the rules (per game)

    def _is_won(self) -> bool:
        raise NotImplementedError

    def _group_refusal(self, s: int, n: int, t: int) -> IllegalAction | None:
        """What every game checks of moving the top ``n`` cards of column ``s`` onto ``t``,
        before its own rules: the columns exist, and that many face-up cards are there."""
        cols = self._cols
        if not (0 <= s < len(cols) and 0 <= t < len(cols)):
            return column_range(self, s, t)
        return self._face_up_refusal(s, n)

    def _face_up_refusal(self, s: int, n: int) -> IllegalAction | None:
        """Whether column ``s`` (which exists) has ``n`` face-up cards to take."""
        cols = self._cols
        if n < 1:
            return IllegalAction("move_no_cards")
        size = len(cols[s])
        if not size:
            return IllegalAction("column_empty", {"column": s + 1})
        up = size - self._down[s]
        if n > up:
            return IllegalAction("not_enough_face_up", {"column": s + 1, "up": up})
        return None

    def _lift_refusal(self, s: int, n: int) -> IllegalAction | None:
        """Why the top ``n`` cards of column ``s`` (which exists) do not move together, whatever the target."""
        raise NotImplementedError

    def _move_refusal(self, s: int, n: int, t: int) -> IllegalAction | None:
        raise NotImplementedError

    def _play_move(self, s: int, n: int, t: int, record: Record) -> IllegalAction | None:
        """Move the top ``n`` cards of ``s`` onto ``t`` if ``_move_refusal`` allows it, else return
        its refusal and change nothing; ``record``: the move's part of its undo record
        (actions.move_record). One call judges and plays: most of a replay's actions are moves."""
        raise NotImplementedError

    def _deal_refusal(self) -> IllegalAction | None:
        raise NotImplementedError

    def _do_deal(self) -> None:
        raise NotImplementedError

    def _home_refusal(self, s: int) -> IllegalAction | None:
        raise NotImplementedError

    def _do_home(self, s: int) -> None:
        raise NotImplementedError

    def _back_refusal(self, suit: int, t: int) -> IllegalAction | None:
        raise NotImplementedError

    def _do_back(self, suit: int, t: int) -> None:
        raise NotImplementedError

    def _remember(self, record: Record) -> None:
        """Keep an undo record: the last UNDO_LIMIT are kept."""
        history = self._history
        history.append(record)
        if len(history) > UNDO_LIMIT:
            del history[0]

    def _revert(self, record: Record) -> None:
        raise NotImplementedError

    def _revealed(self, record: Record) -> bool:
        raise NotImplementedError

    def _legal_without_undo(self) -> list[Action]:
        raise NotImplementedError

    def _action_of(self, record: Record) -> Action:
        raise NotImplementedError

    def _best_of(self, s: int, n: int, targets: list[int]) -> int:
        raise NotImplementedError


def _class_for(code: GameCode) -> type[Game]:
    if code.game == "RU":
        from .russian import RussianGame

        return RussianGame
    from .spider import SpiderGame

    return SpiderGame


def column_range(game: Game, *columns: int) -> IllegalAction | None:
    """A refusal if any 0-based column index is outside the game."""
    count = len(game._cols)
    for c in columns:
        if not 0 <= c < count:
            return IllegalAction("no_such_column", {"column": c + 1, "game": game.layout.name, "columns": count})
    return None
