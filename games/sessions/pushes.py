"""A session's play sockets hear of each change of it once the change is committed (docs/api.md).

Whatever changes a session (an action over the play socket or over HTTP, a finish, a daily
attempt closed at its publication) tells the session's group (games.groups.session_group) after
its transaction commits: `{"type": "session.changed", "actions", "finished"}`, the log length and
whether the game is over, nothing else (no card, no code travels through the layer). Each play
socket of the session, all its player's own, reads the game as it is now for that player and
sends it as it sends an answer, unless it already sent that state: the socket that made the move
has its answer already (games.consumers).

A play socket tells of its own moves only once it knows another socket of the session is open:
each socket says `session.opened` on the group as it opens (and again when live updates resume), and
one that hears another answers in kind and tells the state it has sent, so a move made before the
two heard of each other is followed too (games.consumers). Everything else tells always.

A push is sent from the event loop the thread works for (web.loops): the layer's connections are
the loop's, and the thread does not wait for it. Its failure (Redis away) loses the push, never
the change: the page asks for the game when it comes back into view. The mover's own socket hears
its push too, and sends nothing: it has sent that state already.
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

from asgiref.sync import async_to_sync
from django.db import transaction

from games import groups
from games.models import GameSession
from games.sessions.live import LiveSession
from web.loops import serving_loop

CHANGED = "session.changed"
OPENED = "session.opened"

_sending: set[asyncio.Task[None]] = set()  # kept until sent


def version_of(document: dict[str, Any]) -> tuple[int, bool]:
    """What orders a session's states: its log length, then whether it is over (a finish adds no action)."""
    return int(document["actions"]), bool(document["finished"])


def changed_on_commit(session: GameSession | LiveSession) -> None:
    """Tell the session's sockets of its state as `session` holds it, once the transaction commits
    (at once outside one)."""
    session_id, actions, finished = session.id, session.action_count, session.finished_at is not None
    transaction.on_commit(lambda: announce(session_id, actions=actions, finished=finished), robust=True)


def announce(session_id: uuid.UUID, *, actions: int, finished: bool) -> None:
    """Tell the session's sockets now (the change is committed), from any thread or the loop itself."""
    group = groups.session_group(session_id)
    message = {"type": CHANGED, "actions": actions, "finished": finished}
    try:
        running: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is not None:  # the play socket's own path (games.sessions.play_loop)
        _spawn(group, message)
        return
    loop = serving_loop()
    if loop is not None:
        loop.call_soon_threadsafe(_spawn, group, message)
    elif groups.watched(group):  # a request's thread (asgiref sends from its loop), a command, a test
        async_to_sync(groups.send)(group, message)


def opened(session_id: uuid.UUID, socket: str, *, reply: bool = False) -> None:
    """Say on the session's group that play socket `socket` is open (`reply`: in answer to another
    saying so). From the socket's event loop."""
    _spawn(groups.session_group(session_id), {"type": OPENED, "socket": socket, "reply": reply})


def _spawn(group: str, message: dict[str, Any]) -> None:
    task = asyncio.get_running_loop().create_task(groups.send(group, message))
    _sending.add(task)
    task.add_done_callback(_sending.discard)
