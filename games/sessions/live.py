"""Live games of this process: each session's engine state beside what play needs of its row.

State is a pure function of (code, log). An entry is trusted only as far as
the database confirms it: a write is conditional on the stored log length the
entry reflects (see `games.sessions.play_repository.append`), so an entry that another
worker made stale is caught and rebuilt by replay. Any worker can serve any session.

An entry holds a `LiveSession`, a frozen copy of the row's fields that play
reads, never a model instance: nothing a caller does to it can reach the cache.
Sockets act on several threads: an entry is taken out of the cache while its
game is changed and put back with a copy of the game, so no reader ever sees it change.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import threading
import uuid
from collections import OrderedDict

from django.conf import settings

from games.engine import Game
from games.models import GameAction, GameSession

CAPACITY = 20_000


def race_limit() -> dt.timedelta:
    """How long a race runs from its go before its games still open end (RACE_LIMIT_MINUTES)."""
    return dt.timedelta(minutes=settings.RACE_LIMIT_MINUTES)


def race_ends_at(go: dt.datetime) -> dt.datetime:
    return go + race_limit()


def race_time_up(*, in_room: bool, started_at: dt.datetime, now: dt.datetime) -> bool:
    """Whether a game of a race (its clock runs from the race's go) is past the race's time limit."""
    return in_room and now >= race_ends_at(started_at)


@dataclasses.dataclass(frozen=True, slots=True)
class LiveSession:
    """The fields of a `GameSession` that judging an action and answering it read."""

    id: uuid.UUID
    player_id: int
    code: str
    variant: str
    daily_date: dt.date | None
    daily_publishes_at: dt.datetime | None  # a daily attempt ends, and its code is public, from then
    ranked: bool
    board: str | None
    code_secret: bool
    in_room: bool
    room_id: uuid.UUID | None
    started_at: dt.datetime
    finished_at: dt.datetime | None
    action_count: int
    score: int
    moves: int
    progress: int
    won: bool
    undos: int
    hints: int

    @classmethod
    def of(cls, session: GameSession) -> LiveSession:
        """A session's row as read (its deal and daily are read too, if not selected with it)."""
        daily = session.daily
        # A race's room, asked once per entry (most games are in no room: no query for them).
        member = getattr(session, "room_member", None) if session.in_room else None
        return cls(
            id=session.id,
            player_id=session.player_id,
            code=session.stored_code.code,
            variant=session.stored_code.variant,
            daily_date=daily.date if daily is not None else None,
            daily_publishes_at=daily.publishes_at if daily is not None else None,
            ranked=session.ranked,
            board=session.board,
            code_secret=session.code_secret,
            in_room=session.in_room,
            room_id=member.room_id if member is not None else None,
            started_at=session.started_at,
            finished_at=session.finished_at,
            action_count=session.action_count,
            score=session.score,
            moves=session.moves,
            progress=session.progress,
            won=session.won,
            undos=session.undos,
            hints=session.hints,
        )

    def played(self, game: Game, *, undo: bool) -> LiveSession:
        """This session once the action `game` has just applied is stored (`undo`: it was an undo).
        Made field by field: `dataclasses.replace` costs more, on every action (bench/README.md)."""
        return LiveSession(
            id=self.id,
            player_id=self.player_id,
            code=self.code,
            variant=self.variant,
            daily_date=self.daily_date,
            daily_publishes_at=self.daily_publishes_at,
            ranked=self.ranked,
            board=self.board,
            code_secret=self.code_secret,
            in_room=self.in_room,
            room_id=self.room_id,
            started_at=self.started_at,
            finished_at=self.finished_at,
            action_count=self.action_count + 1,
            score=game.score,
            moves=game.moves,
            progress=progress_of(game),
            won=game.won,
            undos=self.undos + 1 if undo else self.undos,
            hints=self.hints,
        )

    @property
    def finished(self) -> bool:
        return self.finished_at is not None

    def time_up(self, now: dt.datetime) -> bool:
        """A race's game past the race's time limit: it takes no more actions (the closer ends the race)."""
        return race_time_up(in_room=self.in_room, started_at=self.started_at, now=now)

    def daily_over(self, now: dt.datetime) -> bool:
        """A daily attempt whose day is published: it takes no more actions."""
        return self.daily_publishes_at is not None and now >= self.daily_publishes_at

    def is_blind_ranked(self, now: dt.datetime) -> bool:
        """A ranked attempt on a deal nobody may know yet: a daily's before it is published, a race
        on a hidden fresh deal. Its undo never takes back what it revealed (docs/rules.md)."""
        unpublished = self.daily_publishes_at is not None and now < self.daily_publishes_at
        return (self.ranked and unpublished) or (self.in_room and self.code_secret)

    def is_code_secret(self, now: dt.datetime) -> bool:
        """A daily's code stays secret until it is published; a race room's until the race ends."""
        return self.code_secret or (self.daily_publishes_at is not None and now < self.daily_publishes_at)


@dataclasses.dataclass(frozen=True, slots=True)
class LiveGame:
    """A session and its engine state. `stored`: the session was read from the database just now
    (not taken from this process's cache), so a verdict reached on it is one on the stored log."""

    session: LiveSession
    game: Game
    stored: bool = False


# Each entry's game is the cache's own copy: readers get copies of it, a writer takes it out.
_entries: OrderedDict[uuid.UUID, LiveGame] = OrderedDict()
_lock = threading.Lock()


def progress_of(game: Game) -> int:
    """What a session's `progress` counts: cards home in Russian Solitaire, sequences removed otherwise."""
    return game.cards_home if game.code.game == "RU" else game.sequences


def stored_tokens(session: GameSession) -> list[str]:
    return list(GameAction.objects.filter(session=session).order_by("seq").values_list("token", flat=True))


def rebuild(session: GameSession) -> Game:
    game = Game.from_code(session.stored_code.code)
    refusal = game.run(stored_tokens(session))
    if refusal is not None:  # a stored log is always legal; anything else is corruption
        index, token, error = refusal
        raise RuntimeError(f"stored log of session {session.id} refused at {index} ({token}): {error}")
    return game


def game_for(session: GameSession) -> Game:
    """The game of a session just read from the database, as a private copy to read."""
    with _lock:
        cached = _entries.get(session.id)
        if cached is not None and cached.session.action_count == session.action_count:
            _entries.move_to_end(session.id)
        else:
            cached = None
    if cached is not None:
        return cached.game.copy()
    game = rebuild(session)
    put(LiveSession.of(session), game)
    return game


def take(session_id: uuid.UUID) -> LiveGame | None:
    """The cached entry, out of the cache, for a writer to change (None if absent)."""
    with _lock:
        taken = _entries.pop(session_id, None)
    if taken is not None:
        taken.game.thaw()  # the cache's own copy, now the writer's alone
    return taken


def put(session: LiveSession, game: Game) -> None:
    """Remember a copy of the game, so that what the caller goes on using is its own. The copy is
    kept in the engine's compact form (Game.kept): a game waits here far longer than it is played."""
    entry = LiveGame(session, game.kept())
    with _lock:
        _entries[session.id] = entry
        _entries.move_to_end(session.id)
        while len(_entries) > CAPACITY:
            _entries.popitem(last=False)


def count_hint(session_id: uuid.UUID, *, hints: int) -> None:
    """The session's hints as stored now (a hint was given), in its entry if this process has one.
    An entry out with a writer meanwhile comes back with the count its append returns."""
    with _lock:
        entry = _entries.get(session_id)
        if entry is not None:
            _entries[session_id] = LiveGame(dataclasses.replace(entry.session, hints=hints), entry.game)


def forget(session_id: uuid.UUID) -> None:
    with _lock:
        _entries.pop(session_id, None)


def clear() -> None:
    """Forget every live game of this process (they are rebuilt from the stored logs on demand)."""
    with _lock:
        _entries.clear()
