"""Writes to the boards: a player's best verified result per board, and rebuilding the rank index."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from leaderboard import rank_index
from leaderboard.models import BoardEntry, Result
from leaderboard.ranking import RankKey


def rank_key(result: Result) -> RankKey:
    russian = result.deal.game == "RU"
    return RankKey.of(
        russian=russian,
        progress=(result.cards_home if russian else result.sequences) or 0,
        score=result.score,
        moves=result.moves,
        elapsed_ms=result.elapsed_ms,
        finished_at=result.finished_at,
        result_id=result.pk,
    )


def offer(*, result: Result) -> BoardEntry | None:
    """Make `result` the player's entry on its board if it is their best; the entry if it changed.

    Runs inside the result's transaction; the row lock serialises a player's concurrent results.
    """
    assert result.board is not None
    key = rank_key(result)
    candidate = BoardEntry(
        board=result.board,
        player_id=result.player_id,
        result=result,
        progress=key.progress,
        score=result.score,
        moves=result.moves,
        elapsed_ms=result.elapsed_ms,
        finished_at=result.finished_at,
        won=result.won,
        sort_key=key.sort_key(),
    )
    BoardEntry.objects.bulk_create([candidate], ignore_conflicts=True)
    entry = BoardEntry.objects.select_for_update().get(board=result.board, player_id=result.player_id)
    if entry.result_id == result.pk:
        return entry
    if entry.sort_key <= candidate.sort_key:
        return None  # a better (or the same) result already stands
    candidate.pk = entry.pk
    candidate.save()
    return candidate


def rebuild_index(*, board: str) -> int:
    """Rebuild the board's Redis index from PostgreSQL; entries that change meanwhile are re-applied."""
    started = timezone.now()
    count = rank_index.rebuild(board, _entries(board))
    # An update whose Redis write landed in the old set just before the swap is not lost.
    for player_id, sort_key in _entries(board, since=started - dt.timedelta(seconds=5)):
        rank_index.put(board, player_id, sort_key)
    return count


def _entries(board: str, since: dt.datetime | None = None) -> list[tuple[int, str]]:
    rows = BoardEntry.objects.filter(board=board)
    if since is not None:
        rows = rows.filter(updated_at__gte=since)
    return list(rows.values_list("player_id", "sort_key"))


def all_boards() -> list[str]:
    return list(BoardEntry.objects.order_by().values_list("board", flat=True).distinct())
