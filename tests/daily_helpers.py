"""Dailies stored for tests that need one to exist, not to be certified: as a preparer stores them
when the solver settles nothing, without running the solver (certification has its own tests)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from games.dailies.preparation import store_daily
from games.dailies.schedule import candidate_code
from games.engine import DAILY_VARIANTS
from games.models import Daily, DailyCandidate


def store_unsettled_dailies(date: dt.date, variants: Iterable[str] = DAILY_VARIANTS) -> list[Daily]:
    """The dailies of `date` as candidate 0, which the solver did not settle: stored, not certified."""
    stored = []
    for variant in variants:
        candidate, _ = DailyCandidate.objects.get_or_create(
            date=date,
            variant=variant,
            k=0,
            defaults={
                "code": str(candidate_code(date, variant, 0)),
                "verdict": DailyCandidate.Verdict.UNKNOWN,
                "seconds": 0.0,
                "nodes": 0,
            },
        )
        stored.append(store_daily(date, variant, candidate, certified=False))
    return stored
