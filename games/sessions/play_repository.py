"""Play's storage: a session's live game loaded, one action appended, and a plain answer when the
stored log moved on. The hot path of refereed play: an action costs one round trip.

`load` gives the game from this process's cache (`games.sessions.live`) or, on a miss or when asked,
from the stored row and log. `append` is conditional on the log length the caller's state
reflects and on the game being open, so two workers can never both append at one position and a
stale state is detected (`LogMovedOn`) instead of trusted. On PostgreSQL the counters update and
the log insert are one statement, which is its own transaction: when `append` returns, the action
is committed (play runs outside any transaction: requests are not atomic). The play socket runs
the same statement on its event loop's pool, in group commits (games/sessions/play_loop.py).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import uuid
from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import Any, TypedDict

import orjson
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.engine import Action, Game, Undo
from games.models import GameAction, GameSession, Player
from games.selectors import session_for
from games.sessions import live
from games.sessions.live import LiveGame, LiveSession
from web.errors import NotFound
from web.group_commit import Statement
from web.storage import fetch_each

_SESSIONS = GameSession._meta.db_table
_ACTIONS = GameAction._meta.db_table

APPEND_POSTGRES = f"""
WITH moved AS (
    UPDATE {_SESSIONS}
       SET action_count = %(count)s, score = %(score)s, moves = %(moves)s, progress = %(progress)s, won = %(won)s,
           undos = %(undos)s
     WHERE id = %(id)s AND action_count = %(expected)s AND finished_at IS NULL
 RETURNING id, code_secret, hints
), logged AS (
    INSERT INTO {_ACTIONS} (session_id, seq, token, at)
    SELECT id, %(count)s, %(token)s, %(at)s FROM moved
 RETURNING session_id
)
SELECT moved.code_secret, moved.hints FROM moved JOIN logged ON logged.session_id = moved.id
"""


# The appends of many sessions in one statement (the play socket's group commit): the same
# conditions per session, so a session whose log moved on gets no row and the others are written.
# The batch is one JSON parameter, not an array per column: psycopg writes a list item by item in
# Python, 5 us an append against 0.2 for orjson (bench/README.md).
_APPEND_MANY_POSTGRES = f"""
WITH batch AS (
    SELECT * FROM json_to_recordset(%(writes)s::json)
        AS b(id uuid, expected int, count int, token text, score int, moves int, progress int, won bool, undos int,
              at timestamptz)
), moved AS (
    UPDATE {_SESSIONS} AS s
       SET action_count = b.count, score = b.score, moves = b.moves, progress = b.progress, won = b.won,
           undos = b.undos
      FROM batch AS b
     WHERE s.id = b.id AND s.action_count = b.expected AND s.finished_at IS NULL
 RETURNING s.id, s.code_secret, s.hints, b.count, b.token, b.at
), logged AS (
    INSERT INTO {_ACTIONS} (session_id, seq, token, at)
    SELECT id, count, token, at FROM moved
 RETURNING session_id
)
SELECT moved.id, moved.code_secret, moved.hints FROM moved JOIN logged ON logged.session_id = moved.id
"""


def _gathered(writes: list[Mapping[str, Any]]) -> dict[str, str]:
    return {"writes": orjson.dumps(writes).decode()}


APPEND = Statement(one=APPEND_POSTGRES, many=_APPEND_MANY_POSTGRES, gather=_gathered, key=itemgetter("id"))


@dataclasses.dataclass(frozen=True, slots=True)
class Appended:
    """The action is stored: `live` is the game with it, and the session's flags and hints as
    stored now (a secret race's code may have been revealed since the game was loaded, a hint given
    by another worker)."""

    live: LiveGame


@dataclasses.dataclass(frozen=True, slots=True)
class LogMovedOn:
    """Nothing was written: the stored log is no longer the one the caller's state reflects
    (another worker appended to it, or the game ended meanwhile)."""


def load(session_id: uuid.UUID, player: Player, *, stored: bool = False) -> LiveGame:
    """The player's session and its game, taken out of this process's cache for the caller to
    change: hand it back with `keep` (nothing changed) or `append`.

    From the cache unless `stored`; otherwise from the stored row, with the cached engine state
    when it reflects the same log, else replayed. Another player's session answers like a missing one.
    """
    if not stored:
        cached = live.take(session_id)
        if cached is not None:
            if cached.session.player_id != player.pk:
                keep(cached)
                raise NotFound(gettext("No such game session."))
            return cached
    row = session_for(player=player, session_id=session_id)
    cached = live.take(session_id)
    if cached is not None and cached.session.action_count == row.action_count:
        game = cached.game
    else:
        game = live.rebuild(row)
    return LiveGame(LiveSession.of(row), game, stored=True)


def keep(current: LiveGame) -> None:
    """Put a loaded game back unchanged (its action was refused or answered without a write)."""
    live.put(current.session, current.game)


class AppendValues(TypedDict):
    """The parameters of an append, in either write."""

    id: uuid.UUID
    expected: int
    count: int
    token: str
    score: int
    moves: int
    progress: int
    won: bool
    undos: int
    at: dt.datetime  # when the server applied it


def append(current: LiveGame, action: Action, *, now: dt.datetime | None = None) -> Appended | LogMovedOn:
    """Store `action`, which `current.game` has just applied at `now`, as the next token of the log."""
    after, values = next_row(current, action, now=now)
    stored = _append_postgres(values) if connection.vendor == "postgresql" else _append_atomic(values)
    return appended(after, current.game, stored)


def next_row(current: LiveGame, action: Action, *, now: dt.datetime | None = None) -> tuple[LiveSession, AppendValues]:
    """The session once `action` (just applied by `current.game` at `now`) is stored, and the
    append's parameters: the same for the statement here and for the group commit of the play socket."""
    session, game = current.session, current.game
    after = session.played(game, undo=isinstance(action, Undo))
    values: AppendValues = {
        "id": session.id,
        "expected": session.action_count,
        "count": after.action_count,
        "token": str(action),
        "score": after.score,
        "moves": after.moves,
        "progress": after.progress,
        "won": after.won,
        "undos": after.undos,
        "at": now or timezone.now(),
    }
    return after, values


def appended(after: LiveSession, game: Game, stored: Sequence[Any] | None) -> Appended | LogMovedOn:
    """What an append whose row is `stored` (the session's code_secret and hints once written; None:
    it wrote nothing) means, the cache updated."""
    if stored is None:
        return LogMovedOn()
    code_secret, hints = bool(stored[0]), int(stored[1])
    if (after.code_secret, after.hints) != (code_secret, hints):  # as a rule: a replace is a few microseconds
        after = dataclasses.replace(after, code_secret=code_secret, hints=hints)
    live.put(after, game)
    return Appended(LiveGame(after, game))


def _append_postgres(values: AppendValues) -> Sequence[Any] | None:
    """The session's code_secret and hints once written; None if nothing was."""
    (row,) = fetch_each([(APPEND_POSTGRES, values)])
    return row


def _append_atomic(values: AppendValues) -> Sequence[Any] | None:
    """The same write as three statements in one transaction (SQLite, the embedded default)."""
    with transaction.atomic():
        changed = GameSession.objects.filter(id=values["id"], action_count=values["expected"], finished_at=None).update(
            action_count=values["count"],
            score=values["score"],
            moves=values["moves"],
            progress=values["progress"],
            won=values["won"],
            undos=values["undos"],
        )
        if not changed:
            return None
        GameAction.objects.create(session_id=values["id"], seq=values["count"], token=values["token"], at=values["at"])
        return GameSession.objects.filter(id=values["id"]).values_list("code_secret", "hints").get()
