"""A board read served on the event loop (web/loop_http.py): the asks of selectors.board_read answered
by the loop's own database connection and Redis client, with no trip to a thread.

What only a request's thread can do (bring an index that missed changes up to date, read pages
from SQL when Redis fails) hands the request over to Django's path, which does it and logs it as
before; so does a database that fails, whose refusal Django's path words. A read changes nothing
but the kept top page (best effort), so a request handed over midway is simply read again.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable
from typing import Any

import psycopg
import redis

from games.boards import Board
from leaderboard import rank_index, selectors
from web import asks
from web.database.loop_connection import reads
from web.loop_http import Handover

log = logging.getLogger(__name__)


async def board(
    board: Board, player_id: int | None, *, limit: int, cursor: str | None, around_me: bool
) -> dict[str, Any]:
    """selectors.leaderboard's document, read on the loop."""
    read = selectors.board_read(board, player_id, limit=limit, cursor=cursor, around_me=around_me)
    try:
        return await asks.run_on_loop(read, _answer)
    except psycopg.Error:
        raise Handover() from None


async def _answer(ask: selectors.Ask) -> Any:
    match ask:
        case selectors.Mine(board, player_id):
            return selectors.mine_of(await reads.get().fetchone(selectors.MINE, [board, board, player_id]))
        case selectors.Together(mine, index):
            # Both trips at once, with no task of their own: Redis's commands are written first and
            # read as they come while PostgreSQL is asked. An error of either (the database's first)
            # is raised once both ended.
            indexed = _index_page(index)
            try:
                mine_answer = await _answer(mine)
            except BaseException:
                with contextlib.suppress(Exception):
                    await indexed
                raise
            return mine_answer, await indexed
        case selectors.IndexPage():
            return await _index_page(ask)
        case selectors.Rows(board, keys):
            return selectors.rows_by_key(await reads.get().fetchall(selectors.ROWS_ANY, [board, keys]))
        case selectors.KeepPage(key, text):
            try:
                await rank_index.client_on_loop().execute("SET", key, text, "EX", selectors.TOP_PAGE_SECONDS)
            except (redis.RedisError, OSError) as error:
                log.warning("rank index: page not kept (%s)", error)
            return None
    raise Handover()  # CatchUp, SqlPage, SqlRank: a thread's work


def _index_page(ask: selectors.IndexPage) -> Awaitable[Any]:
    """The index's page: its first trip is on its way when this returns."""
    return _handed_over_if_redis_fails(asks.run_on_loop(ask.read, rank_index.pipelined_on_loop))


async def _handed_over_if_redis_fails(page: Awaitable[Any]) -> Any:
    try:
        return await page
    except (redis.RedisError, OSError):
        raise Handover() from None  # Django's path answers from SQL, and says so in its log
