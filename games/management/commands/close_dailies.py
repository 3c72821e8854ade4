"""The closer: finish the daily attempts still open at 01:00 UTC the next day, and prepare the
dailies of today and the days ahead (run it from cron, or --loop)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from games.dailies import utc_today
from games.daily_preparation import prepare_ahead
from games.services import close_expired_dailies


def _due(at: float | None) -> Callable[[], bool]:
    """Whether the monotonic clock has reached `at` (never, for None)."""
    return lambda: at is not None and time.monotonic() >= at


class Command(BaseCommand):
    help = "Finish open attempts on dailies whose code is due for publication, and prepare the next dailies."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--loop", type=int, default=0, metavar="SECONDS", help="repeat every SECONDS")
        parser.add_argument("--no-prepare", action="store_true", help="only finish attempts, prepare nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        every = options["loop"]
        while True:
            started = time.monotonic()
            closed = close_expired_dailies()
            self.stdout.write(f"{closed} open daily attempts finished.")
            if not options["no_prepare"]:
                # Between two candidates, give way to the next close when a round is due.
                prepared = prepare_ahead(
                    utc_today(timezone.now()), should_stop=_due(started + every if every else None)
                )
                self.stdout.write(f"{len(prepared.dailies)} dailies ready, {prepared.pending} still to prepare.")
            if not every:
                return
            time.sleep(max(0.0, every - (time.monotonic() - started)))
