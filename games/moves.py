"""Appending one action to a stored log: the hot path of refereed play, in one round trip.

The write is conditional on the log length the caller's state reflects and on
the game being open, so two workers can never both append at one position and
a stale state is detected instead of trusted. On PostgreSQL the counters
update and the log insert are one statement (one implicit transaction).
"""

from __future__ import annotations

from django.db import connection, transaction

from games.models import GameAction, GameSession
from web.database.prepared import fetchone_prepared

_SESSIONS = GameSession._meta.db_table
_ACTIONS = GameAction._meta.db_table

_APPEND_POSTGRES = f"""
WITH moved AS (
    UPDATE {_SESSIONS}
       SET action_count = %(count)s, score = %(score)s, moves = %(moves)s, progress = %(progress)s, won = %(won)s,
           undos = %(undos)s
     WHERE id = %(id)s AND action_count = %(expected)s AND finished_at IS NULL
 RETURNING id, conceal_code
), logged AS (
    INSERT INTO {_ACTIONS} (session_id, seq, token)
    SELECT id, %(count)s, %(token)s FROM moved
 RETURNING session_id
)
SELECT moved.conceal_code FROM moved JOIN logged ON logged.session_id = moved.id
"""


def append(
    session: GameSession, *, token: str, score: int, moves: int, progress: int, won: bool, undos: int
) -> bool | None:
    """Store the next action of `session` (whose `action_count` is the length it reflects).

    Returns the session's current `conceal_code` when written, None when the stored
    log has moved on or the game has ended meanwhile (the caller reloads).
    """
    values = {
        "id": session.id,
        "expected": session.action_count,
        "count": session.action_count + 1,
        "token": token,
        "score": score,
        "moves": moves,
        "progress": progress,
        "won": won,
        "undos": undos,
    }
    if connection.vendor == "postgresql":
        return _append_postgres(values)
    with transaction.atomic():
        changed = GameSession.objects.filter(id=session.id, action_count=values["expected"], finished_at=None).update(
            action_count=values["count"], score=score, moves=moves, progress=progress, won=won, undos=undos
        )
        if not changed:
            return None
        GameAction.objects.create(session_id=session.id, seq=values["count"], token=token)
        return GameSession.objects.filter(id=session.id).values_list("conceal_code", flat=True).get()


def _append_postgres(values: dict[str, object]) -> bool | None:
    row = fetchone_prepared(_APPEND_POSTGRES, values)  # parsed and planned once per kept connection
    return None if row is None else bool(row[0])


def stored_position(session_id: object) -> tuple[int, bool] | None:
    """(log length, finished) as stored now; None if there is no such session."""
    row = GameSession.objects.filter(id=session_id).values_list("action_count", "finished_at").first()
    return None if row is None else (row[0], row[1] is not None)
