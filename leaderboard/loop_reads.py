"""A board read served on the event loop (web/loop_http.py): selectors.read_board. A database that
fails hands the request over to Django's path, whose refusal words it; a read changes nothing but
the kept top page (best effort), so a request handed over midway is simply read again.
"""

from __future__ import annotations

from typing import Any

from django.db import DatabaseError

from games.boards import Board
from leaderboard import selectors
from web.loop_http import Handover


async def board(
    board: Board, player_id: int | None, *, limit: int, cursor: str | None, around_me: bool
) -> dict[str, Any]:
    """selectors.leaderboard's document, read on the loop."""
    try:
        return await selectors.read_board(board, player_id, limit=limit, cursor=cursor, around_me=around_me)
    except DatabaseError:
        raise Handover() from None
