"""Leaderboard reads: the board document of docs/api.md (entries, cursor, total, me).

Ranks and pages come from the Redis index when there is one; without Redis,
or when it fails in the middle of a request, the same answers come from SQL.
A read is one query (the board's version and my entry) and, asked at the same
time, one Redis round trip (version, total, page, the rank of the index's member
for me, the top page kept for the board), and, unless that kept page is of this
version, one query for the page's rows. Where the index's member for me is not
the key PostgreSQL holds, and around my entry, the index is read after the
query. An index behind PostgreSQL's version is brought up to date first,
whichever process missed the change.

A read is async (`read_board`, `entry_of`), on the loop's clients (web.storage); sync code calls it
through asgiref's async_to_sync (`leaderboard`).
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import replace
from typing import Any, NamedTuple

from asgiref.sync import async_to_sync, sync_to_async

from games.models import Player
from games.ranking.boards import Board
from games.ranking.keys import decode_cursor, encode_cursor
from leaderboard.models import BoardEntry, BoardVersion
from leaderboard.ranking import rank_index, standings
from leaderboard.ranking.sql_ranks import SqlRanks
from web import paging, storage

log = logging.getLogger(__name__)

# The top page of a board is kept in Redis beside its index, stamped with the board version it
# shows: readers of that version reuse it (no query for its rows); any change of the board makes
# a new version, so the stamp no longer matches. The expiry bounds the memory of idle boards, and
# how long a change that bumps no version (an admin deleting a player) goes unseen.
TOP_PAGE_SECONDS = 60

_E, _V, _P = BoardEntry._meta.db_table, BoardVersion._meta.db_table, Player._meta.db_table
_ROW = "e.sort_key, e.progress, e.score, e.moves, e.won, e.elapsed_ms, e.undos, e.result_id, p.username, p.is_guest"
MINE = (
    f"SELECT (SELECT version FROM {_V} WHERE board = %s), {_ROW} FROM (SELECT 1) AS one "
    f"LEFT JOIN {_E} e ON e.board = %s AND e.player_id = %s LEFT JOIN {_P} p ON p.id = e.player_id"
)
_ROWS = f"SELECT {_ROW} FROM {_E} e JOIN {_P} p ON p.id = e.player_id WHERE e.board = %s AND e.sort_key IN "
# The same with the keys as one array: one statement whatever their number, so it can be prepared (PostgreSQL).
ROWS_ANY = f"SELECT {_ROW} FROM {_E} e JOIN {_P} p ON p.id = e.player_id WHERE e.board = %s AND e.sort_key = ANY(%s)"


class Row(NamedTuple):
    sort_key: str
    progress: int
    score: int
    moves: int
    won: bool
    elapsed_ms: int | None
    undos: int
    result_id: int
    username: str
    is_guest: bool


async def read_board(
    board: Board,
    player_id: int | None,
    *,
    limit: int = paging.DEFAULT_LIMIT,
    cursor: str | None = None,
    around_me: bool = False,
) -> dict[str, Any]:
    """One page of the board: from the top, after `cursor`, or centred on `player_id`'s entry
    (`me`: that player's entry, None for nobody)."""
    after = decode_cursor(cursor) if cursor is not None else None
    top = rank_index.page_key(board.id, limit) if after is None and not around_me else None
    indexed = rank_index.enabled()
    read_first: rank_index.Page | None = None
    if around_me or not indexed:  # the page is centred on my key: PostgreSQL's answer comes first
        version, mine = await _version_and_mine(board.id, player_id)
    else:
        # The index is read beside PostgreSQL, finding my member itself: its rank is mine if that
        # member is the key PostgreSQL holds (else the index is read again, as around me).
        by_player = _index_page(board.id, after=after, count=limit + 1, mine=None, cached_page=top, player=player_id)
        (version, mine), first_read = await asyncio.gather(_version_and_mine(board.id, player_id), by_player)
        indexed = first_read is not None  # None: the index is unavailable, SQL answers
        if first_read is not None and first_read.my_key == _key_of(mine):
            read_first = first_read
    mine_key = _key_of(mine)
    page: rank_index.Page | None = None
    if indexed:
        page = await _indexed_page(
            board.id,
            version,
            after=after,
            count=limit + 1,
            mine=mine_key,
            around_me=around_me,
            cached_page=top,
            read_first=read_first,
        )
    if page is None:
        page = await sync_to_async(_sql_page)(
            board.id, after=after, count=limit + 1, mine=mine_key, around_me=around_me
        )
    kept = _kept_top(top, page.cached, version) if top is not None else None
    if kept is not None:
        entries, next_cursor = kept
    else:
        more = len(page.keys) > limit
        keys = page.keys[:limit]
        rows = await _rows(board.id, keys) if keys else {}
        # A key whose row was replaced between the two reads is left out rather than shown stale.
        entries = [_entry(board, rows[key], page.first + offset + 1) for offset, key in enumerate(keys) if key in rows]
        next_cursor = encode_cursor(keys[-1]) if more else None
        if top is not None and page.version == version and len(entries) == len(keys):
            # The index reflects exactly this version: every reader of it gets the same top page.
            document = {"version": version, "entries": entries, "next_cursor": next_cursor}
            await rank_index.keep_page(top, json.dumps(document), seconds=TOP_PAGE_SECONDS)
    return {
        "board": board.id,
        "entries": entries,
        "next_cursor": next_cursor,
        "total": page.total,
        "me": _entry(board, mine, page.my_rank + 1) if mine is not None and page.my_rank is not None else None,
    }


def leaderboard(
    *,
    board: Board,
    viewer: Player | None,
    limit: int = paging.DEFAULT_LIMIT,
    cursor: str | None = None,
    around_me: bool = False,
) -> dict[str, Any]:
    """`read_board` for sync code, the viewer's entry as `me`."""
    return async_to_sync(read_board)(board, player_id_of(viewer), limit=limit, cursor=cursor, around_me=around_me)


# The kept pages this process decoded last, by key, with their text: a hot board's top page is
# decoded once per version, not once per read.
_decoded: dict[str, tuple[str, int, list[dict[str, Any]], str | None]] = {}
_DECODED_MAX = 256


def _key_of(mine: Row | None) -> str | None:
    return mine.sort_key if mine is not None else None


def _kept_top(key: str, cached: str | None, version: int) -> tuple[list[dict[str, Any]], str | None] | None:
    """The top page a reader kept for this board version, if that is what is stored."""
    if cached is None:
        return None
    memo = _decoded.get(key)
    if memo is None or memo[0] != cached:
        try:
            document = json.loads(cached)
            memo = (cached, int(document["version"]), list(document["entries"]), document["next_cursor"])
        except (ValueError, KeyError, TypeError):
            return None
        if len(_decoded) >= _DECODED_MAX:
            _decoded.clear()
        _decoded[key] = memo
    if memo[1] != version:
        return None
    return list(memo[2]), memo[3]  # the entries are shared with other reads: read them, never change them


async def entry_of(*, board: Board, player_id: int) -> dict[str, Any] | None:
    """A player's entry with its rank now (the win screen shows it)."""
    version, mine = await _version_and_mine(board.id, player_id)
    if mine is None:
        return None
    page = await _indexed_page(board.id, version, after=None, count=1, mine=mine.sort_key)
    rank = page.my_rank if page is not None else None
    if rank is None:
        rank = await sync_to_async(_sql_rank)(board.id, mine.sort_key) or 0
    return _entry(board, mine, rank + 1)


def entry_document(board: Board, row: Row, rank: int) -> dict[str, Any]:
    return _entry(board, row, rank)


async def _index_page(board: str, **read: Any) -> rank_index.Page | None:
    """The index's page (rank_index.read_page's arguments), or None when the index is unavailable."""
    if not rank_index.enabled():
        return None
    try:
        return await rank_index.read_page(board, **read)
    except rank_index.RankIndexUnavailable as error:
        log.warning("rank index unavailable for %s, answering from SQL: %s", board, error)
        return None


async def _indexed_page(
    board: str,
    version: int,
    *,
    after: str | None,
    count: int,
    mine: str | None,
    around_me: bool = False,
    cached_page: str | None = None,
    read_first: rank_index.Page | None = None,
) -> rank_index.Page | None:
    """The index's page (`read_first`, if it was read already), brought up to `version` first if it
    is behind; None: ask SQL."""
    read = {"after": after, "count": count, "mine": mine, "around_me": around_me, "cached_page": cached_page}
    page = read_first if read_first is not None else await _index_page(board, **read)
    if page is None:
        return None
    if page.total == 0 and version > 0:
        page = replace(page, version=None)  # the set is gone (lost, evicted): rebuild
    elif page.version is not None and page.version >= version:
        return page
    elif page.version is None and version == 0 and page.total == 0:
        return page  # a board nobody has played
    # The index missed changes (Redis was away, a worker died after its commit) or one is on its way.
    try:
        await sync_to_async(standings.sync_index)(board=board, indexed=page.version, version=version)
    except rank_index.RankIndexUnavailable as error:
        log.warning("rank index of %s unavailable, answering from SQL: %s", board, error)
        return None
    return await _index_page(board, **read)


def _sql_rank(board: str, sort_key: str) -> int | None:
    return SqlRanks(board).rank(sort_key)


def _sql_page(board: str, *, after: str | None, count: int, mine: str | None, around_me: bool) -> rank_index.Page:
    ranks = SqlRanks(board)
    my_rank = ranks.rank(mine) if mine is not None else None
    if around_me and my_rank is not None:
        first = max(0, my_rank - (count - 1) // 2)  # count is a page + 1
        keys = ranks.at(first, count)
    else:
        keys = ranks.after(after, count)
        first = 0 if after is None or not keys else (ranks.rank(keys[0]) or 0)
    return rank_index.Page(version=None, total=ranks.total(), keys=keys, first=first, my_rank=my_rank)


def player_id_of(viewer: Player | None) -> int | None:
    """Whose entry `me` is: a signed-in player's, never a guest's (guests rank nowhere)."""
    if viewer is None or not viewer.is_authenticated or viewer.is_guest:
        return None
    return int(viewer.pk)


async def _version_and_mine(board: str, player_id: int | None) -> tuple[int, Row | None]:
    """The board's version and the player's entry, in one query."""
    return mine_of(await storage.fetchone(MINE, [board, board, player_id]))


def mine_of(row: tuple[Any, ...] | None) -> tuple[int, Row | None]:
    """MINE's row read: the board's version and the player's entry (None: no entry)."""
    assert row is not None  # MINE always answers one row
    version, *rest = row
    return int(version or 0), (Row(*rest) if rest[0] is not None else None)


async def _rows(board: str, keys: list[str]) -> dict[str, Row]:
    if storage.values_database().vendor == "postgresql":  # one statement whatever the number of keys
        return rows_by_key(await storage.fetchall(ROWS_ANY, [board, keys]))
    return rows_by_key(await storage.fetchall(_ROWS + "(" + ", ".join(["%s"] * len(keys)) + ")", [board, *keys]))


def rows_by_key(rows: list[tuple[Any, ...]]) -> dict[str, Row]:
    """ROWS_ANY's rows, by sort key."""
    return {row[0]: Row(*row) for row in rows}


def _entry(board: Board, row: Row, rank: int) -> dict[str, Any]:
    return {
        "rank": rank,
        "player": "Guest" if row.is_guest else row.username,
        "score": row.score,
        "moves": row.moves,
        "won": bool(row.won),
        board.progress_field: row.progress,
        "elapsed_ms": row.elapsed_ms,
        "undos": row.undos,
        "result": row.result_id,
    }
