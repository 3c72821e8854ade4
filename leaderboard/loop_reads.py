"""A board's page for the async board view (leaderboard.api.boards): the asks of selectors.board_read
answered by the event loop's own database connection and Redis client where the request is served
on the loop (web.async_views), else by selectors.leaderboard on the request's thread.

What only a thread can do (close a daily's attempts left open before its board is read, bring an
index that missed changes up to date, read pages from SQL when Redis fails) is done on the
request's thread, which does it and logs it as ever; so is a read whose database fails, whose
refusal it words. A read changes nothing but the kept top page (best effort), so a read begun on
the loop is simply read again there.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
from collections.abc import Awaitable
from typing import Any

import psycopg
import redis
from asgiref.sync import sync_to_async

from games.boards import Board
from games.models import Player
from games.services import close_expired_dailies, expired_daily_attempt_sql
from leaderboard import rank_index, selectors
from web import asks
from web.database.loop_connection import reads

log = logging.getLogger(__name__)


class _OnThread(Exception):
    """This read needs the request's thread."""


async def leaderboard(
    board: Board,
    viewer: Player | None,
    *,
    limit: int,
    cursor: str | None,
    around_me: bool,
    now: dt.datetime,
    on_loop: bool,
) -> dict[str, Any]:
    """selectors.leaderboard's document, on the loop where `on_loop` and it can, else on the thread."""
    if on_loop:
        try:
            return await _read_on_loop(
                board, selectors.player_id_of(viewer), limit=limit, cursor=cursor, around_me=around_me, now=now
            )
        except _OnThread:
            pass
    return await sync_to_async(_read_on_thread)(board, viewer, limit, cursor, around_me, now)


def _read_on_thread(
    board: Board, viewer: Player | None, limit: int, cursor: str | None, around_me: bool, now: dt.datetime
) -> dict[str, Any]:
    if board.date is not None:
        # A daily's board is final from 01:00 the next day: attempts still open end first.
        close_expired_dailies(now=now)
    return selectors.leaderboard(board=board, viewer=viewer, limit=limit, cursor=cursor, around_me=around_me)


async def _read_on_loop(
    board: Board, player_id: int | None, *, limit: int, cursor: str | None, around_me: bool, now: dt.datetime
) -> dict[str, Any]:
    try:
        if board.date is not None:
            sql, params = expired_daily_attempt_sql(now)
            if await reads.get().fetchone(sql, params) is not None:
                raise _OnThread()  # attempts to close first
        read = selectors.board_read(board, player_id, limit=limit, cursor=cursor, around_me=around_me)
        return await asks.run_on_loop(read, _answer)
    except psycopg.Error:
        raise _OnThread() from None


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
    raise _OnThread()  # CatchUp, SqlPage, SqlRank: a thread's work


def _index_page(ask: selectors.IndexPage) -> Awaitable[Any]:
    """The index's page: its first trip is on its way when this returns."""
    return _on_thread_if_redis_fails(asks.run_on_loop(ask.read, rank_index.pipelined_on_loop))


async def _on_thread_if_redis_fails(page: Awaitable[Any]) -> Any:
    try:
        return await page
    except (redis.RedisError, OSError):
        raise _OnThread() from None  # the thread answers from SQL, and says so in its log
