"""Certified dailies, prepared ahead of their day (docs/dailies.md).

For each date and daily variant the solver tries candidate k = 0, 1, ... (games.dailies.schedule.candidate_code)
within its budget; the daily is the first candidate it wins, with the winning line's move count as
its par. After DAILY_CANDIDATE_CAP candidates the last one tried is used, not certified. Every
verdict is stored as it comes (DailyCandidate), so a preparer that stops or crashes goes on where
it was, and two at once agree: a verdict stored first is the one both use.

Only the closer and `manage.py prepare_dailies` run this, and only this stores a daily: a request
never stores one, nor waits for the solver.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction

from games.dailies.schedule import candidate_code
from games.deals.codes import stored_code_for
from games.engine import DAILY_VARIANTS, Game, GameCode
from games.models import Daily, DailyCandidate
from games.solver import Solution, SolverBug, solve

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Prepared:
    """What a round of preparation left: the dailies stored, and how many are still to prepare."""

    dailies: list[Daily]
    pending: int


@dataclass(frozen=True)
class Step:
    """One daily's turn in a round of prepare_ahead, for a progress report.

    `daily` is None when the round stopped before it was stored; `stored_now` says whether this
    turn stored it (False: it was there before the round); `seconds` is this turn's wall time.
    """

    date: dt.date
    variant: str
    daily: Daily | None
    stored_now: bool
    seconds: float


def prepare_ahead(
    today: dt.date,
    *,
    days: int | None = None,
    should_stop: Callable[[], bool] = lambda: False,
    progress: Callable[[Step], None] = lambda step: None,
) -> Prepared:
    """Prepare the dailies of today and the `days` after it (DAILY_PREPARE_DAYS), earliest first
    (every variant of a day before the next day), until every one is stored or `should_stop()`
    says so between two candidates. `progress` hears of each daily's turn as it ends."""
    ahead = settings.DAILY_PREPARE_DAYS if days is None else days
    dates = [today + dt.timedelta(days=offset) for offset in range(ahead + 1)]
    there = set(Daily.objects.filter(date__in=dates).values_list("date", "variant"))
    stored: list[Daily] = []
    pending = 0
    for date in dates:
        for variant in DAILY_VARIANTS:
            if pending:
                pending += 1
                continue
            started = time.monotonic()
            daily = prepare_daily(date, variant, should_stop)
            stored_now = daily is not None and (date, variant) not in there
            progress(Step(date, variant, daily, stored_now, time.monotonic() - started))
            if daily is None:
                pending += 1
            else:
                stored.append(daily)
    return Prepared(dailies=stored, pending=pending)


def prepare_daily(date: dt.date, variant: str, should_stop: Callable[[], bool] = lambda: False) -> Daily | None:
    """The daily of `date` and `variant`, trying the candidates it still needs; None if stopped first."""
    cap = settings.DAILY_CANDIDATE_CAP
    tried = {c.k: c for c in DailyCandidate.objects.filter(date=date, variant=variant, k__lt=cap)}
    last: DailyCandidate | None = None
    for k in range(cap):
        existing = Daily.objects.select_related("stored_code").filter(date=date, variant=variant).first()
        if existing is not None:  # stored earlier (by another preparer, or before a new secret): it stands
            return existing
        candidate = tried.get(k)
        if candidate is None:
            if should_stop():
                return None
            candidate = _try(date, variant, k)
        last = candidate
        if candidate.verdict == DailyCandidate.Verdict.WON:
            return store_daily(date, variant, candidate, certified=True)
    log.info("daily %s %s: no candidate won within the cap, the last one is used", date, variant)
    assert last is not None  # the cap is at least 1 (config.settings)
    return store_daily(date, variant, last, certified=False)


def store_daily(date: dt.date, variant: str, candidate: DailyCandidate, *, certified: bool) -> Daily:
    """Store the daily as `candidate`, the one place a daily is written; a daily stored first stands."""
    fields = {
        "stored_code": stored_code_for(GameCode.parse(candidate.code)),
        "certified": certified,
        "candidate": candidate.k,
        "par": candidate.par if certified else None,
        "par_line": candidate.line if certified else "",
    }
    try:
        with transaction.atomic():
            return Daily.objects.create(date=date, variant=variant, **fields)
    except IntegrityError:  # another preparer stored it first: theirs stands
        return Daily.objects.select_related("stored_code").get(date=date, variant=variant)


def _try(date: dt.date, variant: str, k: int) -> DailyCandidate:
    """Solve candidate k once and store its verdict; a verdict stored meanwhile by another preparer wins."""
    code = candidate_code(date, variant, k)
    started = time.monotonic()
    try:
        solution = solve(code, settings.DAILY_SOLVER_BUDGET_SECONDS)
    except SolverBug:  # a line the engine refused: it certifies nothing, the next candidate is tried
        log.exception("daily %s %s candidate %s: the solver failed; passed over", date, variant, k)
        solution = Solution(status="unknown", actions=(), par=None, seconds=time.monotonic() - started, nodes=0)
    verdict = DailyCandidate.Verdict(solution.status)
    par: int | None = None
    line = ""
    if verdict == DailyCandidate.Verdict.WON:
        par = _checked_par(str(code), solution.actions)
        if par is None or par != solution.par:  # a line the engine does not win certifies nothing
            log.error("daily %s %s candidate %s: the solver's line does not win; passed over", date, variant, k)
            verdict, par = DailyCandidate.Verdict.UNKNOWN, None
        else:
            line = " ".join(solution.actions)
    fields = {"code": str(code), "verdict": verdict, "seconds": solution.seconds, "nodes": solution.nodes}
    try:
        with transaction.atomic():
            return DailyCandidate.objects.create(date=date, variant=variant, k=k, par=par, line=line, **fields)
    except IntegrityError:
        return DailyCandidate.objects.get(date=date, variant=variant, k=k)


def _checked_par(code: str, actions: tuple[str, ...]) -> int | None:
    """The engine's move count after `actions` if the engine's replay of them wins, else None."""
    game = Game.from_code(code)
    if game.run(list(actions)) is not None or not game.won:
        return None
    return game.moves
