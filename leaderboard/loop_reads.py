"""A board's page for the async board view (leaderboard.api.boards): selectors.read_board, on the
event loop's storage clients where the server serves the request, else through Django's connection
(web.storage chooses).

A daily's board is final from 01:00 the next day: attempts still open then end first, on the
request's thread (games.services.close_expired_dailies), which only runs when one is left.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from asgiref.sync import sync_to_async

from games.boards import Board
from games.models import Player
from games.services import close_expired_dailies, expired_daily_attempt_sql
from leaderboard import selectors
from web import storage


async def leaderboard(
    board: Board,
    viewer: Player | None,
    *,
    limit: int,
    cursor: str | None,
    around_me: bool,
    now: dt.datetime,
) -> dict[str, Any]:
    """selectors.leaderboard's document."""
    if board.date is not None:
        sql, params = expired_daily_attempt_sql(now)
        if await storage.fetchone(sql, params) is not None:
            await sync_to_async(close_expired_dailies)(now=now)
    return await selectors.read_board(
        board, selectors.player_id_of(viewer), limit=limit, cursor=cursor, around_me=around_me
    )
