"""Leaderboard writes: what the referee's verified results (games.results.announcements) make of the boards and
the statistics.

Validate, do, then tell (Zulip style): boards and statistics change inside
the result's transaction; the rank index and the watchers hear of it only
after that transaction commits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games import groups
from games.models import Result
from games.ranking.boards import parse_board
from games.results import announcements
from leaderboard import selectors, stats, withdrawals
from leaderboard.ranking import rank_index, standings
from web.storage import fetch_each


def _statements(event: announcements.Event, new: announcements.NewResult | None) -> list[announcements.Statement]:
    """Inside the transaction that stores a verified result: count it once, and rank it on its
    board unless it is held back (a secret race's: ranked when revealed); a result under fair-play
    review is neither, until it is approved. None of these needs an
    answer from another, so they go with the result's own INSERT (games.results.announcements.Writer)."""
    result = event.result
    statements: list[announcements.Statement] = [stats.count_statement(result)] if event.counts else []
    return statements + standings.offer_statements(result=result, boards=_boards(event), new=new)


def _wrote(event: announcements.Event, rows: list[tuple[Any, ...] | None]) -> None:
    """The rows of _statements, the result's pk set: a daily's streak, and each change announced;
    or a withdrawn result taken back out."""
    if event.kind == "withdrawn":
        withdrawals.withdraw(event.result)
        return
    rows = list(rows)
    if event.counts:
        stats.counted(result=event.result, row=rows.pop(0))
    _offered(result=event.result, boards=_boards(event), rows=rows)


def _writes_more(event: announcements.Event) -> bool:
    """Whether _wrote writes for this event: a ranked daily's result recounts the streak; a withdrawn
    one is taken out."""
    return (event.counts and stats.recounts_streak(event.result)) or event.kind == "withdrawn"


# Subscribed in the app's ready().
on_verified = announcements.Writer(statements=_statements, wrote=_wrote, writes_more=_writes_more)


def _boards(event: announcements.Event) -> list[str]:
    return _ranked_boards(event.result) if event.ranks else []


def rank_result(*, result: Result) -> None:
    """Inside a transaction: offer a verified result to its board and, if it has no undo, to the
    board's clean twin; index and push each change once committed."""
    boards = _ranked_boards(result)
    _offered(result=result, boards=boards, rows=fetch_each(standings.offer_statements(result=result, boards=boards)))


def _ranked_boards(result: Result) -> list[str]:
    """A guest's results rank nowhere; nor do a deactivated player's (the offer asks the database
    whether the player is active)."""
    return [] if result.player.is_guest else standings.boards_of(result)


def _offered(*, result: Result, boards: list[str], rows: list[tuple[Any, ...] | None]) -> None:
    """The rows of the offers to `boards`, two a board: announce each change they made."""
    for change in standings.changes(result=result, boards=boards, rows=rows):
        _announce(result=result, change=change)


def _announce(*, result: Result, change: standings.Change) -> None:
    """Inside the transaction that changed `result`'s board entry: index and push it once committed
    (games.results.announcements.after_commit)."""
    row = selectors.Row(
        sort_key=change.sort_key,
        progress=standings.rank_key(result).progress,
        score=result.score,
        moves=result.moves,
        won=result.won,
        elapsed_ms=result.elapsed_ms,
        undos=result.undos,
        result_id=result.pk,
        username=result.player.username,
        is_guest=result.player.is_guest,
    )
    announcements.after_commit(BoardChanged(change, row))


@dataclass(frozen=True)
class BoardChanged:
    """After the commit: index the change, and push the entry with the rank the index update itself
    returned."""

    change: standings.Change
    row: selectors.Row

    async def run(self) -> None:
        change = self.change
        board = parse_board(change.board)
        group = groups.board_group(board.id)
        if not rank_index.enabled():
            if not groups.watched(group):
                return  # nobody to tell: no need to count the rank either
            entry = await selectors.entry_of(board=board, player_id=change.player_id)  # SQL: no index, no Redis layer
        else:
            try:
                placed = await rank_index.put(change.board, change.player_id, change.sort_key, version=change.version)
            except rank_index.RankIndexUnavailable:
                return  # no push either (the layer is the same Redis); watchers resync when it is back
            if not groups.watched(group):
                return  # indexed; nobody to tell
            # Out of step (a change missed or still on its way): the reader's path catches the index up.
            entry = (
                selectors.entry_document(board, self.row, placed.rank + 1)
                if placed.in_step
                else await selectors.entry_of(board=board, player_id=change.player_id)
            )
        if entry is not None:
            await groups.send(group, {"type": "board.change", "board": board.id, "entry": entry})
