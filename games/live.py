"""Live engine states of this process's sessions, keyed by how much of the log they hold.

State is a pure function of (code, log), so a cached game is used only when
it has applied exactly the stored log's length; otherwise it is rebuilt by
replay. Any worker can serve any session.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict

from games.engine import Game
from games.models import GameAction, GameSession

CAPACITY = 20_000

_games: OrderedDict[uuid.UUID, tuple[int, Game]] = OrderedDict()
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
    """The session's game at its stored log length, to read."""
    with _lock:
        cached = _games.get(session.id)
        if cached is not None and cached[0] == session.action_count:
            _games.move_to_end(session.id)
            return cached[1]
    game = rebuild(session)
    remember(session, game)
    return game


def take(session: GameSession) -> Game:
    """The session's game, out of the cache, to change: a failed write must not leave it there.

    The writer puts it back with `remember` once its transaction has committed.
    """
    with _lock:
        cached = _games.pop(session.id, None)
    if cached is not None and cached[0] == session.action_count:
        return cached[1]
    return rebuild(session)


def remember(session: GameSession, game: Game) -> None:
    with _lock:
        _games[session.id] = (session.action_count, game)
        _games.move_to_end(session.id)
        while len(_games) > CAPACITY:
            _games.popitem(last=False)


def forget(session_id: uuid.UUID) -> None:
    with _lock:
        _games.pop(session_id, None)
