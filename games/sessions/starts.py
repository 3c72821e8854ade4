"""How a new game's session row on a deal is made: one home for a game started on its own or in a
room (games.services.start_session) and for the races a service starts in bulk (games.rooms.start_races)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from games.engine import Game
from games.models import GameSession, Player, StoredCode


def new_sessions(
    players: Sequence[Player],
    *,
    game: Game,
    stored_code: StoredCode,
    code_secret: bool,
    in_room: bool,
    started_at: dt.datetime,
) -> list[GameSession]:
    """Each player's new session on `game`'s deal (`game` as dealt; `stored_code` its row), not yet
    saved: the caller writes one alone or a race's all at once. Ranked on the code's board, but a
    guest's. A race's games start at its go (`started_at`)."""
    return [
        GameSession(
            player=player,
            stored_code=stored_code,
            ranked=not player.is_guest,
            board=None if player.is_guest else f"code:{game.code}",
            code_secret=code_secret,
            in_room=in_room,
            started_at=started_at,
            score=game.score,
        )
        for player in players
    ]
