"""Live games of this process: each session's engine state beside the session it belongs to.

State is a pure function of (code, log). An entry is trusted only as far as
the database confirms it: a write is conditional on the stored log length the
entry reflects (see `games.moves.append`), so an entry that another worker
made stale is caught and rebuilt by replay. Any worker can serve any session.

Sockets act on several threads: an entry is taken out of the cache while it
is changed and put back as a copy, so no reader ever sees it change.
"""

from __future__ import annotations

import copy
import threading
import uuid
from collections import OrderedDict

from games.engine import Game
from games.models import GameAction, GameSession

CAPACITY = 20_000

_entries: OrderedDict[uuid.UUID, tuple[GameSession, Game]] = OrderedDict()
_lock = threading.Lock()


def stored_tokens(session: GameSession) -> list[str]:
    return list(GameAction.objects.filter(session=session).order_by("seq").values_list("token", flat=True))


def rebuild(session: GameSession) -> Game:
    game = Game.from_code(session.deal.code)
    refusal = game.run(stored_tokens(session))
    if refusal is not None:  # a stored log is always legal; anything else is corruption
        index, token, error = refusal
        raise RuntimeError(f"stored log of session {session.id} refused at {index} ({token}): {error}")
    return game


def game_for(session: GameSession) -> Game:
    """The game of a session just read from the database, as a private copy to read."""
    with _lock:
        cached = _entries.get(session.id)
        if cached is not None and cached[0].action_count == session.action_count:
            _entries.move_to_end(session.id)
            return cached[1].copy()
    game = rebuild(session)
    put(session, game)
    return game


def take(session_id: uuid.UUID) -> tuple[GameSession, Game] | None:
    """The cached session and game, out of the cache, for a writer to change (None if absent)."""
    with _lock:
        return _entries.pop(session_id, None)


def put(session: GameSession, game: Game) -> None:
    """Remember copies, so that what the caller goes on using is its own."""
    entry = (_copy_session(session), game.copy())
    with _lock:
        _entries[session.id] = entry
        _entries.move_to_end(session.id)
        while len(_entries) > CAPACITY:
            _entries.popitem(last=False)


def _copy_session(session: GameSession) -> GameSession:
    """What copy.copy makes of a model instance (Django's __getstate__: the fields, the state and
    its cache of related rows, each copied one level), without the pickling protocol's detour."""
    clone = GameSession.__new__(GameSession)
    clone.__dict__ = session.__dict__.copy()
    clone._state = copy.copy(session._state)
    clone._state.fields_cache = session._state.fields_cache.copy()
    return clone


def forget(session_id: uuid.UUID) -> None:
    with _lock:
        _entries.pop(session_id, None)


def clear() -> None:
    """Forget every live game of this process (they are rebuilt from the stored logs on demand)."""
    with _lock:
        _entries.clear()
