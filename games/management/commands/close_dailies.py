"""The closer: finish the daily attempts still open at 01:00 UTC the next day, end the races still
on past their time limit (games.rooms.rooms.end_overdue_races), prepare the dailies of today and the
days ahead, then run the round tasks other apps registered (games.dailies.round_tasks:
a finished race's review) while time is left before the next round (run it from cron, or --loop;
`make run` and `make cluster` keep one running). Only one closer works at a time
(games.dailies.closer_lock): another one started by mistake stands by and takes over when the first
one stops."""

from __future__ import annotations

import datetime as dt
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from django.core.management.base import BaseCommand, CommandParser, OutputWrapper
from django.utils import timezone

from games.dailies.closer_lock import closer_lock
from games.dailies.preparation import Step, prepare_ahead
from games.dailies.round_tasks import run_round_tasks
from games.dailies.schedule import next_publication, utc_today
from games.engine import DAILY_VARIANTS
from games.rooms.rooms import end_overdue_races
from games.services import close_expired_dailies

STANDING_BY = "another closer is running; standing by"


def _due(at: float | None) -> Callable[[], bool]:
    """Whether the monotonic clock has reached `at` (never, for None)."""
    return lambda: at is not None and time.monotonic() >= at


def _next_round(started: float, every: int) -> float:
    """When the next round is due on the monotonic clock: `every` seconds after this one began, or at
    01:00 UTC if that comes first, so open attempts end at publication (reads never close them)."""
    until_publication = (next_publication(timezone.now()) - timezone.now()).total_seconds()
    return min(started + every, time.monotonic() + until_publication)


class Progress:
    """What the terminal is told as dailies are stored: only the date, the variant, whether each is
    certified and how long it took, never a code, a par or how many candidates were tried; and once
    today's are all ready, how long that took since this process began on them."""

    def __init__(self, out: OutputWrapper) -> None:
        self.out = out
        self.spent: defaultdict[tuple[dt.date, str], float] = defaultdict(float)
        self.began: dict[dt.date, float] = {}
        self.ready: defaultdict[dt.date, dict[str, bool]] = defaultdict(dict)  # variant: stored by this process
        self.told: set[dt.date] = set()
        self.today = dt.date.min
        self.stored = 0

    def round_begins(self, today: dt.date) -> None:
        self.today = today
        self.began.setdefault(today, time.monotonic())
        self.stored = 0

    def __call__(self, step: Step) -> None:
        self.spent[step.date, step.variant] += step.seconds
        if step.daily is None:
            return
        if step.stored_now:
            self.stored += 1
            verdict = "certified winnable" if step.daily.certified else "not certified"
            seconds = self.spent[step.date, step.variant]
            self.out.write(f"{step.date.isoformat()} {step.variant}: {verdict} ({seconds:.0f} s)")
        if step.date == self.today and self.today not in self.told:
            ready = self.ready[step.date]
            ready[step.variant] = ready.get(step.variant, False) or step.stored_now
            if len(ready) == len(DAILY_VARIANTS):
                self.told.add(self.today)
                summary = f"today's dailies: {len(ready)} of {len(DAILY_VARIANTS)} ready"
                if any(ready.values()):
                    summary += f" in {time.monotonic() - self.began[self.today]:.0f} s"
                else:
                    summary += " (prepared before)"
                self.out.write(summary)


class Command(BaseCommand):
    help = (
        "Finish open attempts on dailies whose code is due for publication, end the races past their"
        " time limit, prepare the next dailies, then run the other apps' round tasks (a finished race's review)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--loop", type=int, default=0, metavar="SECONDS", help="repeat every SECONDS")
        parser.add_argument(
            "--no-prepare", action="store_true", help="only finish attempts and races: no preparation, no round task"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        every = options["loop"]
        lock = closer_lock()
        progress = Progress(self.stdout)
        standing_by = False
        try:
            while True:
                started = time.monotonic()
                if lock.acquire():
                    if standing_by:
                        self.stdout.write("the other closer is gone; this one takes over")
                        standing_by = False
                    self._round(every, started, progress, prepare=not options["no_prepare"])
                elif not standing_by:
                    self.stdout.write(STANDING_BY)
                    standing_by = True
                if not every:
                    return
                time.sleep(max(0.0, _next_round(started, every) - time.monotonic()))
        except KeyboardInterrupt:  # Ctrl-C on a closer started by hand: no traceback
            pass
        finally:
            lock.release()

    def _round(self, every: int, started: float, progress: Progress, *, prepare: bool) -> None:
        closed = close_expired_dailies()
        if closed or not every:
            self.stdout.write(f"{closed} open daily attempts finished.")
        overdue = end_overdue_races()
        if overdue:
            self.stdout.write(f"races ended at their time limit: {overdue}")
        if not prepare:
            return
        progress.round_begins(utc_today(timezone.now()))
        # Between two candidates, or two pieces of a task's work, give way to the next close when a round is due.
        should_stop = _due(_next_round(started, every) if every else None)
        prepared = prepare_ahead(progress.today, should_stop=should_stop, progress=progress)
        if prepared.pending or progress.stored or not every:
            self.stdout.write(f"{len(prepared.dailies)} dailies ready, {prepared.pending} still to prepare.")
        # The dailies first: a queue of other work never holds them up (a task gets what the round has left).
        for line in run_round_tasks(should_stop):
            self.stdout.write(line)
