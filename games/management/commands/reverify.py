"""Replay every stored result with the current engine and report any that would change.

An engine change must never silently alter a stored score: this exits 1 if
any verified result no longer replays to the same numbers.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.models import Result
from games.results.replay_verification import Refused, verify


class Command(BaseCommand):
    help = "Re-verify stored results by replaying their logs; exit 1 if any would change."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--batch", type=int, default=500, help="results read per query")

    def handle(self, *args: Any, **options: Any) -> None:
        checked = changed = 0
        query = Result.objects.select_related("stored_code").order_by("pk")
        for result in query.iterator(chunk_size=options["batch"]):
            checked += 1
            tokens = result.log.split()
            try:
                outcome = verify(result.stored_code.code, tokens)
            except Refused as refused:
                changed += 1
                self.stdout.write(f"result {result.pk} ({result.stored_code.code}): now refused: {refused}")
                continue
            stored = (result.score, result.moves, result.won, result.sequences, result.cards_home)
            now = (outcome.score, outcome.moves, outcome.won, outcome.sequences, outcome.cards_home)
            if stored != now or outcome.actions != result.actions:
                changed += 1
                self.stdout.write(
                    f"result {result.pk} ({result.stored_code.code}): stored score/moves/won/sequences/cards_home "
                    f"{stored} but replay gives {now}"
                )
            if checked % 1000 == 0:
                self.stderr.write(f"{checked} results checked, {changed} would change")
        self.stdout.write(f"{checked} results checked, {changed} would change.")
        if changed:
            raise SystemExit(1)
