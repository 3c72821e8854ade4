"""Leaderboard reads: the document of SPEC section 8 (entries, cursor, total, me).

Ranks and pages come from the Redis index when there is one; without Redis,
or when it fails in the middle of a request, the same answers come from SQL.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

from leaderboard import rank_index, standings
from leaderboard.boards import Board
from leaderboard.models import BoardEntry, Player
from leaderboard.ranking import decode_cursor, encode_cursor
from leaderboard.sql_ranks import SqlRanks

log = logging.getLogger(__name__)

DEFAULT_LIMIT = 50
MAX_LIMIT = 100


class Ranks(Protocol):
    def total(self) -> int: ...
    def rank(self, sort_key: str) -> int | None: ...
    def after(self, sort_key: str | None, count: int) -> list[str]: ...
    def at(self, offset: int, count: int) -> list[str]: ...


def leaderboard(
    *,
    board: Board,
    viewer: Player | None,
    limit: int = DEFAULT_LIMIT,
    cursor: str | None = None,
    around_me: bool = False,
) -> dict[str, Any]:
    """One page of the board: from the top, after `cursor`, or centred on the viewer's entry."""
    after = decode_cursor(cursor) if cursor is not None else None
    mine = _own_entry(board, viewer)
    if rank_index.enabled():
        try:
            return _document(board, _redis_ranks(board.id), mine, limit, after, around_me)
        except rank_index.RankIndexUnavailable as error:
            log.warning("rank index unavailable for %s, answering from SQL: %s", board.id, error)
    return _document(board, SqlRanks(board.id), mine, limit, after, around_me)


def entry_of(*, board: Board, player_id: int) -> dict[str, Any] | None:
    """A player's entry with its rank now (what a change message carries)."""
    row = BoardEntry.objects.select_related("player").filter(board=board.id, player_id=player_id).first()
    if row is None:
        return None
    return _entry(board, row, _rank_of(board, row.sort_key))


def _redis_ranks(board: str) -> rank_index.RedisRanks:
    ranks = rank_index.RedisRanks(board)
    if ranks.needs_rebuild():
        standings.rebuild_index(board=board)
    return ranks


def _rank_of(board: Board, sort_key: str) -> int:
    if rank_index.enabled():
        try:
            found = _redis_ranks(board.id).rank(sort_key)
            if found is not None:
                return found + 1
        except rank_index.RankIndexUnavailable as error:
            log.warning("rank index unavailable for %s, answering from SQL: %s", board.id, error)
    return (SqlRanks(board.id).rank(sort_key) or 0) + 1


def _own_entry(board: Board, viewer: Player | None) -> BoardEntry | None:
    if viewer is None or not viewer.is_authenticated or viewer.is_guest:
        return None
    return BoardEntry.objects.select_related("player").filter(board=board.id, player=viewer).first()


def _document(
    board: Board, ranks: Ranks, mine: BoardEntry | None, limit: int, after: str | None, around_me: bool
) -> dict[str, Any]:
    my_rank = ranks.rank(mine.sort_key) if mine is not None else None
    if around_me and my_rank is not None:
        first = max(0, my_rank - limit // 2)
        keys = ranks.at(first, limit + 1)
    else:
        keys = ranks.after(after, limit + 1)
        first = 0 if after is None or not keys else (ranks.rank(keys[0]) or 0)
    more = len(keys) > limit
    keys = keys[:limit]
    rows = {
        row.sort_key: row
        for row in BoardEntry.objects.select_related("player").filter(board=board.id, sort_key__in=keys)
    }
    # A key whose row was replaced between the two reads is left out rather than shown stale.
    entries = [_entry(board, rows[key], first + offset + 1) for offset, key in enumerate(keys) if key in rows]
    return {
        "board": board.id,
        "entries": entries,
        "next_cursor": encode_cursor(keys[-1]) if more else None,
        "total": ranks.total(),
        "me": _entry(board, mine, my_rank + 1) if mine is not None and my_rank is not None else None,
    }


def _entry(board: Board, row: BoardEntry, rank: int) -> dict[str, Any]:
    return {
        "rank": rank,
        "player": row.player.display_name,
        "score": row.score,
        "moves": row.moves,
        "won": row.won,
        board.progress_field: row.progress,
        "elapsed_ms": row.elapsed_ms,
        "result": row.result_id,
    }
