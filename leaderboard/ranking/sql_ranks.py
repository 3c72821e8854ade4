"""The same rank answers as the Redis index, from the board entries table (no Redis, or Redis down)."""

from __future__ import annotations

from leaderboard.models import BoardEntry


class SqlRanks:
    """COUNTs and keyset pages over the (board, sort_key) index; ranks are 0-based."""

    def __init__(self, board: str) -> None:
        self.rows = BoardEntry.objects.filter(board=board)

    def total(self) -> int:
        return self.rows.count()

    def rank(self, sort_key: str) -> int | None:
        if not self.rows.filter(sort_key=sort_key).exists():
            return None
        return self.rows.filter(sort_key__lt=sort_key).count()

    def after(self, sort_key: str | None, count: int) -> list[str]:
        rows = self.rows if sort_key is None else self.rows.filter(sort_key__gt=sort_key)
        return list(rows.order_by("sort_key").values_list("sort_key", flat=True)[:count])

    def at(self, offset: int, count: int) -> list[str]:
        return list(self.rows.order_by("sort_key").values_list("sort_key", flat=True)[offset : offset + count])
