"""The play socket's common action, judged and stored on the event loop: no trip to a database thread.

An ordinary legal action on a game in this process's live cache (games.sessions.live) is judged here by
the same judge as `services.apply_action` (`services.judge`, the same rate limit and log cap) and
appended with the same conditional statement (games.sessions.play_repository), committed in a group with
the other sockets' appends of this loop (web.storage.commit_row). The answer leaves only once
that commit succeeded; the socket tells the session's other sockets, if it knows of any (games.consumers).
Everything else is handed to apply_action on a database thread, which judges it on the stored
state: a cache miss, another player's id, a resend (`at` not the next position), a game over or
not yet started, a refusal on the cached copy (which may be behind what another worker stored),
the winning action (stored with its verification in one transaction), an append that found the
log moved on, and a loop that does not commit in groups (SQLite: web.storage.grouped).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import logging
import time
import uuid
from typing import Any

from django.db import DatabaseError
from django.utils.translation import gettext

from games import selectors, services
from games.models import Player
from games.rooms import progress as room_progress
from games.sessions import live
from games.sessions import play_repository as play
from operations import metrics
from web import storage
from web.errors import ServiceError, Unavailable
from web.sockets.consumer import in_database_thread
from web.views import UNAVAILABLE

log = logging.getLogger(__name__)


@functools.lru_cache(maxsize=4096)
def _session_key(session_id: str) -> uuid.UUID:
    """The session's id: a socket sends every action of one session (ValueError: not an id)."""
    return uuid.UUID(session_id)


@dataclasses.dataclass(frozen=True, slots=True)
class Handoff:
    """The action goes to apply_action on a database thread. `counted`: its rate budget is spent."""

    counted: bool


async def act(
    *, player: Player, session_id: str, message: dict[str, Any], now: dt.datetime
) -> dict[str, Any] | Handoff:
    """The session document once `message`'s action is committed, a refusal raised, or a Handoff."""
    token, at = message.get("action"), message.get("at")
    if not isinstance(token, str) or not storage.grouped():
        return Handoff(counted=False)
    if at is not None and (isinstance(at, bool) or not isinstance(at, int)):
        return Handoff(counted=False)
    try:
        key = _session_key(session_id)
    except ValueError:
        return Handoff(counted=False)
    current = live.take(key)
    if current is None:
        return Handoff(counted=False)
    session = current.session
    if (
        session.player_id != player.pk
        or (at is not None and at != session.action_count + 1)
        or session.finished
        or session.daily_over(now)  # its closing writes: the thread path's
        or now < session.started_at
        or session.time_up(now)  # refused on the thread path, in words
    ):
        play.keep(current)
        return Handoff(counted=False)
    started = time.perf_counter()
    try:
        services.count_action(current)  # hands the game back to the cache when it refuses
    except ServiceError as error:
        metrics.action_judged(started, error)
        raise
    try:
        action = services.judge(session, current.game, token, now)
    except ServiceError:
        play.keep(current)  # refused on a copy that may be behind: the stored state decides
        return Handoff(counted=True)
    if current.game.won:
        return Handoff(counted=True)  # this copy has the action applied: dropped, the stored log replays
    after, values = play.next_row(current, action, now=now)
    try:
        row = await storage.commit_row(play.APPEND, values)
    except DatabaseError as error:
        # The entry stays out of the cache: whether a broken commit happened, the stored log says.
        log.warning("append of session %s failed: %s", session.id, error)
        refusal = Unavailable(gettext(UNAVAILABLE))
        metrics.action_judged(started, refusal)
        raise refusal from None
    stored = play.appended(after, current.game, row)
    if isinstance(stored, play.LogMovedOn):
        return Handoff(counted=True)  # nothing written; the copy was behind
    room_id = stored.live.session.room_id
    if room_id is not None:  # committed: the room hears of it now (its push reads the database)
        await in_database_thread(room_progress.pushes.changed)(room_id)
    metrics.action_judged(started)
    return selectors.session_document(stored.live.session, stored.live.game, now=now)
