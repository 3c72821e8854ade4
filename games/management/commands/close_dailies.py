"""Finish the daily attempts still open at 01:00 UTC the next day (run it from cron, or --loop)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.services import close_expired_dailies


class Command(BaseCommand):
    help = "Finish open attempts on dailies whose code is due for publication."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--loop", type=int, default=0, metavar="SECONDS", help="repeat every SECONDS")

    def handle(self, *args: Any, **options: Any) -> None:
        while True:
            closed = close_expired_dailies()
            self.stdout.write(f"{closed} open daily attempts finished.")
            if not options["loop"]:
                return
            time.sleep(options["loop"])
