"""Prepare certified dailies ahead of their day: the solver tries each date's candidates now, so
that no player ever waits for it (docs/dailies.md). The closer does the same on every round."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from games.dailies.preparation import prepare_ahead
from games.dailies.schedule import utc_today


class Command(BaseCommand):
    help = "Prepare the dailies of today and the next DAYS days (DAILY_PREPARE_DAYS by default)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=None, help="days after today to prepare")

    def handle(self, *args: Any, **options: Any) -> None:
        days = options["days"]
        if days is not None and days < 0:
            raise CommandError("--days is 0 (today only) or more.")
        prepared = prepare_ahead(utc_today(timezone.now()), days=days)
        # Only whether each is certified: the par and the candidates tried stay secret until published.
        for daily in prepared.dailies:
            verdict = "certified winnable" if daily.certified else "not certified"
            self.stdout.write(f"{daily.date.isoformat()} {daily.variant}: {verdict}")
