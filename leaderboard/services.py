"""Leaderboard writes, called by the games app at two fixed points of its flow.

Validate, do, then tell (Zulip style): boards and statistics change inside
the result's transaction; the rank index and the watchers hear of it only
after that transaction commits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction

from leaderboard import groups, rank_index, rooms, selectors, standings, stats
from leaderboard.boards import parse_board

if TYPE_CHECKING:
    from games.models import GameSession
    from leaderboard.models import Result


def record_result(*, result: Result) -> None:
    """Inside the transaction that stored a verified result: count it, and rank it on its board."""
    stats.count_result(result=result)
    if result.board is None or result.player.is_guest:
        return
    entry = standings.offer(result=result)
    if entry is not None:
        board, player_id, sort_key = entry.board, entry.player_id, entry.sort_key
        transaction.on_commit(lambda: _board_changed(board, player_id, sort_key), robust=True)


def session_progressed(*, session: GameSession) -> None:
    """After the transaction of an action or a finish has committed: tell its race room, if any."""
    if session.in_room:  # most games are in no room: no query for them
        rooms.member_progressed(session=session)


def _board_changed(board_id: str, player_id: int, sort_key: str) -> None:
    if rank_index.enabled():
        try:
            rank_index.put(board_id, player_id, sort_key)
        except rank_index.RankIndexUnavailable:
            pass  # marked stale there; readers fall back to SQL meanwhile
    board = parse_board(board_id)
    entry = selectors.entry_of(board=board, player_id=player_id)
    if entry is not None:
        groups.send(groups.board_group(board.id), {"type": "board.change", "board": board.id, "entry": entry})
