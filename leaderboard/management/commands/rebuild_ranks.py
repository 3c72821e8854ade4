"""manage.py rebuild_ranks [--board X]: rebuild the Redis rank index from PostgreSQL."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.ranking.boards import parse_board
from leaderboard.ranking import rank_index, standings
from web.errors import ServiceError


class Command(BaseCommand):
    help = (
        "Rebuild the Redis rank index of one board, or of every board and clean twin, from the board entries "
        "in the database."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--board",
            help="a board id, e.g. code:SP1-S4C-AAAAAAD, daily:2026-11-30:SP1-S4C or its clean twin "
            "daily:2026-11-30:SP1-S4C:clean",
        )

    def handle(self, *args: Any, board: str | None = None, **options: Any) -> None:
        if not rank_index.enabled():
            raise CommandError("REDIS_URL is not set: without Redis the boards are ranked by SQL alone.")
        try:
            boards = [parse_board(board).id] if board else standings.all_boards()
        except ServiceError as error:
            raise CommandError(error.message) from None
        try:
            for board_id in boards:
                count = standings.rebuild_index(board=board_id)
                self.stdout.write(f"{board_id}: {count} entries")
        except rank_index.RankIndexUnavailable as error:
            raise CommandError(f"Redis is unavailable: {error}") from None
        self.stdout.write(self.style.SUCCESS(f"Rebuilt {len(boards)} board(s)."))
