"""Writes to the boards: a player's best verified result per board, and the board's change counter.

Each change of an entry bumps its board's BoardVersion in the same transaction and stamps the
entry with the new version, so the Redis index (which stores the version it reflects) can be
checked and brought up to date by any process (sync_index below).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from games.models import Player, Result
from games.ranking.boards import clean_twin
from games.ranking.keys import RankKey
from games.results import announcements
from leaderboard.models import BoardEntry, BoardVersion
from leaderboard.ranking import rank_index
from operations import metrics
from web.storage import fetch_each, values_database

_E = BoardEntry._meta.db_table
_V = BoardVersion._meta.db_table
_P = Player._meta.db_table

_COLUMNS = (
    "board, player_id, result_id, progress, score, moves, elapsed_ms, finished_at, won, undos, sort_key, updated_at"
)
_REPLACE = """ON CONFLICT (board, player_id) DO UPDATE SET
    result_id = excluded.result_id, progress = excluded.progress, score = excluded.score,
    moves = excluded.moves, elapsed_ms = excluded.elapsed_ms, finished_at = excluded.finished_at,
    won = excluded.won, undos = excluded.undos, sort_key = excluded.sort_key, updated_at = excluded.updated_at{version}
WHERE excluded.sort_key < {table}.sort_key"""

# The offer, one way on PostgreSQL and SQLite, two statements that need no answer from each other
# (so they run one after the other, in the result's transaction). First the board's version is
# bumped, unless a better entry of the player is already visible or the player was deactivated
# (asked of the database: the player in hand may have been read before, as a race's are when it
# ends). The bumped row is locked until the commit, so the board's changes are serialised and a
# visible version means every lower one is committed. Then the entry, stamped with the version it
# reads back, under the same two conditions (the player's; a better entry fails ON CONFLICT ...
# WHERE, which compares with the row as it is once locked): it is written exactly when the bump
# was. If a concurrent result of the player wins the row, the bump is left without an entry, which
# only makes the next reader catch up with nothing to apply.
_BUMP = f"""INSERT INTO {_V} (board, version)
SELECT %s, 1 WHERE NOT EXISTS (SELECT 1 FROM {_E} WHERE board = %s AND player_id = %s AND sort_key <= %s)
  AND EXISTS (SELECT 1 FROM {_P} WHERE id = %s AND is_active)
ON CONFLICT (board) DO UPDATE SET version = {_V}.version + 1
RETURNING version"""
_OFFER_VALUES = "%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s"  # the columns of _COLUMNS
_OFFER = (
    f"INSERT INTO {_E} ({_COLUMNS}, version)\n"
    f"SELECT {_OFFER_VALUES}, "
    f"(SELECT version FROM {_V} WHERE board = %s)\n"
    f"WHERE EXISTS (SELECT 1 FROM {_P} WHERE id = %s AND is_active)\n"
    + _REPLACE.format(version=", version = excluded.version", table=_E)
    + "\nRETURNING version"
)
# Above this many missed changes a reader rebuilds the index rather than replay them.
CATCH_UP_LIMIT = 5000


@dataclass(frozen=True)
class Change:
    """An entry that changed: what the index and the watchers are told after the commit."""

    board: str
    player_id: int
    sort_key: str
    version: int


def rank_key(result: Result) -> RankKey:
    return RankKey.of(**_key_parts(result), result_id=result.pk)


def _key_parts(result: Result) -> dict[str, Any]:
    russian = result.stored_code.game == "RU"
    return {
        "russian": russian,
        "progress": (result.cards_home if russian else result.sequences) or 0,
        "score": result.score,
        "moves": result.moves,
        "elapsed_ms": result.elapsed_ms,
        "finished_at": result.finished_at,
    }


def offer(*, result: Result, board: str | None = None) -> Change | None:
    """Make `result` the player's entry on `board` (default: the result's own) if it is their best
    there; the change if there was one. Runs inside the result's transaction."""
    board = board or result.board
    assert board is not None
    rows = fetch_each(offer_statements(result=result, boards=[board]))
    return next(iter(changes(result=result, boards=[board], rows=rows)), None)


def offer_statements(
    *, result: Result, boards: Sequence[str], new: announcements.NewResult | None = None
) -> list[tuple[str, list[Any]]]:
    """The offers of `result` to `boards`: for each board, the bump and the entry, to run in this
    order (fetch_each). Given `new`, the result is the one the statement before them stores, whose
    id they read there. The result's key is worked out once for all its boards."""
    if new is None:
        ranked = rank_key(result)
        bump, offer, key = _BUMP, _OFFER, ranked.sort_key()
    else:
        ranked = RankKey.of(**_key_parts(result), result_id=0)  # the id is read in SQL
        (bump, offer), key = _offer_of_new(new), ranked.prefix()
    adapt = values_database().ops.adapt_datetimefield_value
    player_id = result.player_id
    columns = [
        *([] if new else [result.pk]),
        ranked.progress,
        result.score,
        result.moves,
        result.elapsed_ms,
        adapt(result.finished_at),
        result.won,
        result.undos,
        key,
        adapt(timezone.now()),  # updated_at
    ]
    statements: list[tuple[str, list[Any]]] = []
    for board in boards:
        statements.append((bump, [board, board, player_id, key, player_id]))
        # the entry's columns, then the board whose version it reads back and the player still active
        statements.append((offer, [board, player_id, *columns, board, player_id]))
    return statements


@functools.cache
def _offer_of_new(new: announcements.NewResult) -> tuple[str, str]:
    """_BUMP and _OFFER for a result stored just before them: its id and its key's last digits
    read in SQL (the key's parameter is its prefix)."""
    key = f"(%s || {new.key_suffix})"
    bump = _BUMP.replace("sort_key <= %s", f"sort_key <= {key}")
    values = _OFFER_VALUES.split(", ")
    values[2], values[10] = new.id, key  # result_id, sort_key
    offer = _OFFER.replace(_OFFER_VALUES, ", ".join(values), 1)
    assert bump != _BUMP and offer != _OFFER
    return bump, offer


def changes(*, result: Result, boards: Sequence[str], rows: Sequence[tuple[Any, ...] | None]) -> list[Change]:
    """The changes the rows of offer_statements made to `boards`, two rows a board: none on a board
    where the player has a better entry or ranks nowhere now, or where a better result of the
    player's took the entry meanwhile."""
    made: list[Change] = []
    sort_key = ""
    for i, board in enumerate(boards):
        bumped, entry = rows[2 * i : 2 * i + 2]
        if bumped is None or entry is None:
            continue
        sort_key = sort_key or rank_key(result).sort_key()
        made.append(Change(board=board, player_id=result.player_id, sort_key=sort_key, version=int(entry[0])))
    return made


def boards_of(result: Result) -> list[str]:
    """The boards a ranked result is offered to: its own, and its clean twin if it is clean (no undo,
    no hint)."""
    if result.board is None:
        return []
    return [result.board, clean_twin(result.board)] if result.is_clean else [result.board]


@metrics.counts(metrics.RANK_INDEX_REBUILDS)
def rebuild_index(*, board: str) -> int:
    """Rebuild the board's Redis index from PostgreSQL; returns how many entries it holds.

    The version is read first: every change up to it is in the entries read after it, and a
    change after it (even one whose Redis write lands in the old set before the swap) has a
    higher version, which the next reader catches up with.
    """
    version = board_version(board)
    return rank_index.rebuild(board, all_entries(board), version=version)


@metrics.counts(metrics.RANK_INDEX_CATCH_UPS)
def sync_index(*, board: str, indexed: int | None, version: int) -> None:
    """Bring the board's index (reflecting `indexed`, None: unknown) up to `version`.

    Missed changes are few (a Redis blip, a worker killed after its commit, a write still on its
    way): apply just those. An unknown or far-behind index is rebuilt by one process at a time;
    RankIndexBusy meanwhile, and readers answer from SQL.
    """
    if indexed is not None and version - indexed <= CATCH_UP_LIMIT:
        rank_index.catch_up(board, entries_since(board, indexed), version=version)
        return
    with rank_index.rebuilding(board):
        rebuild_index(board=board)


def board_version(board: str) -> int:
    found = BoardVersion.objects.filter(board=board).values_list("version", flat=True).first()
    return int(found or 0)


def entries_since(board: str, version: int) -> list[tuple[int, str]]:
    """(player id, sort key) of the entries changed after `version` (the (board, version) index)."""
    rows = BoardEntry.objects.filter(board=board, version__gt=version).order_by()
    return list(rows.values_list("player_id", "sort_key"))


def all_entries(board: str) -> list[tuple[int, str]]:
    return list(BoardEntry.objects.filter(board=board).order_by().values_list("player_id", "sort_key"))


def all_boards() -> list[str]:
    return list(BoardEntry.objects.order_by().values_list("board", flat=True).distinct())
