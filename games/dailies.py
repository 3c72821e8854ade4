"""Daily challenges (docs/dailies.md): the deal of a date and variant, and when it opens up."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from games.codes import stored_code_for
from games.engine import DAILY_VARIANTS, LONG_DEAL_NUMBERS, GameCode
from games.models import Daily, DailyCandidate
from web.errors import NotFound, Unprocessable


def daily_number(secret: str, date: dt.date, variant: str, k: int = 0) -> int:
    """Candidate k of a daily's deal number (docs/dailies.md): HMAC-SHA256(secret, "YYYY-MM-DD|variant")
    for k = 0 and of "YYYY-MM-DD|variant|k" after it, as a big-endian integer mod 26^20: the deal
    number of a long code, which nobody can find from the cards it shows (docs/codes.md)."""
    message = f"{date.isoformat()}|{variant}" + (f"|{k}" if k else "")
    digest = hmac.new(secret.encode("utf-8"), message.encode(), hashlib.sha256).digest()
    return int.from_bytes(digest, "big") % LONG_DEAL_NUMBERS


def candidate_code(date: dt.date, variant: str, k: int) -> GameCode:
    """The long code of candidate k of the daily of `date` and `variant`, under the server's secret."""
    return GameCode.from_variant(variant, daily_number(settings.DAILY_SECRET, date, variant, k), long=True)


def utc_today(now: dt.datetime) -> dt.date:
    return now.astimezone(dt.UTC).date()


def check_daily_variant(variant: str) -> str:
    if variant not in DAILY_VARIANTS:
        raise Unprocessable(
            gettext("%(variant)s has no daily challenge. The dailies are: %(dailies)s.")
            % {"variant": variant, "dailies": ", ".join(DAILY_VARIANTS)}
        )
    return variant


def daily_for(date: dt.date, variant: str, *, now: dt.datetime) -> Daily:
    """The daily of `date`, stored the first time it is asked for and never changed after.

    Dailies are prepared ahead (games.daily_preparation); one asked for before it was prepared is
    never made to wait for the solver: it is what the candidates tried so far decide, or else
    candidate 0 marked not certified (docs/dailies.md).
    """
    if date > utc_today(now):
        raise NotFound(gettext("The dailies of %(date)s are not out yet.") % {"date": date.isoformat()})
    if date < settings.DAILIES_START:
        raise NotFound(
            gettext("There are no dailies before %(date)s, the league's first day.")
            % {"date": settings.DAILIES_START.isoformat()}
        )
    check_daily_variant(variant)
    daily = Daily.objects.select_related("stored_code").filter(date=date, variant=variant).first()
    if daily is not None:
        return daily
    tried = list(DailyCandidate.objects.filter(date=date, variant=variant).order_by("k"))
    chosen = first_won(tried)
    if chosen is not None:
        return store_daily(date, variant, chosen, certified=True)
    return store_daily(date, variant, None, certified=False)


def first_won(tried: list[DailyCandidate]) -> DailyCandidate | None:
    """The first candidate won, among those tried from k = 0 on without a gap."""
    for k, candidate in enumerate(tried):
        if candidate.k != k:
            return None
        if candidate.verdict == DailyCandidate.Verdict.WON:
            return candidate
    return None


def store_daily(date: dt.date, variant: str, candidate: DailyCandidate | None, *, certified: bool) -> Daily:
    """Store the daily as `candidate` (None: candidate 0, not tried); a daily stored first stands."""
    code = GameCode.parse(candidate.code) if candidate is not None else candidate_code(date, variant, 0)
    fields = {
        "stored_code": stored_code_for(code),
        "certified": certified,
        "candidate": candidate.k if candidate is not None else 0,
        "par": candidate.par if certified and candidate is not None else None,
        "par_line": candidate.line if certified and candidate is not None else "",
    }
    try:
        with transaction.atomic():
            return Daily.objects.create(date=date, variant=variant, **fields)
    except IntegrityError:  # another request or the preparer stored it first: theirs stands
        return Daily.objects.select_related("stored_code").get(date=date, variant=variant)


def dailies_for(date: dt.date, *, now: dt.datetime) -> list[Daily]:
    return [daily_for(date, variant, now=now) for variant in DAILY_VARIANTS]


def is_published(daily: Daily, now: dt.datetime) -> bool:
    return now >= daily.publishes_at


def accepts_ranked_attempts(daily: Daily, now: dt.datetime) -> bool:
    return now < daily.closes_at
