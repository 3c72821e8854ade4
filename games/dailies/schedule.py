"""Daily challenges (docs/dailies.md): the deal of a date and variant, and when it opens up."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac

from django.conf import settings
from django.utils.translation import gettext

from games.deals.variants import variant_name
from games.engine import DAILY_VARIANTS, LONG_DEAL_NUMBERS, GameCode
from games.models import Daily
from web.errors import NotFound, Unavailable, Unprocessable


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


# How long a client waits before asking again for a daily still being prepared: a candidate is
# settled within the solver's budget, and most of today's seven within a minute of the closer's start.
PREPARING_RETRY_SECONDS = 15


class DailyPreparing(Unavailable):
    """Today's daily is not stored yet: the preparer (the closer) is still choosing its deal."""


def daily_for(date: dt.date, variant: str, *, now: dt.datetime) -> Daily:
    """The daily of `date` as the preparer stored it; a read never stores one (docs/dailies.md).

    Today's daily not stored yet is being prepared (503, Retry-After); a past day's that was never
    stored does not exist.
    """
    check_daily_date(date, now=now)
    check_daily_variant(variant)
    daily = Daily.objects.select_related("stored_code").filter(date=date, variant=variant).first()
    if daily is not None:
        return daily
    if date == utc_today(now):
        raise preparing(variant)
    raise NotFound(
        gettext("There was no %(variant)s daily on %(date)s.")
        % {"variant": variant_name(variant), "date": date.isoformat()}
    )


def preparing(variant: str) -> DailyPreparing:
    return DailyPreparing(
        gettext("Today's %(variant)s daily is being prepared. It will be ready in a minute or two.")
        % {"variant": variant_name(variant)},
        retry_after=PREPARING_RETRY_SECONDS,
    )


def check_daily_date(date: dt.date, *, now: dt.datetime) -> dt.date:
    """A date that can have dailies: not after today, not before the league's first day."""
    if date > utc_today(now):
        raise NotFound(gettext("The dailies of %(date)s are not out yet.") % {"date": date.isoformat()})
    if date < settings.DAILIES_START:
        raise NotFound(
            gettext("There are no dailies before %(date)s, the league's first day.")
            % {"date": settings.DAILIES_START.isoformat()}
        )
    return date


def stored_dailies(date: dt.date, *, now: dt.datetime) -> list[Daily]:
    """The dailies of `date` that the preparer stored, in the order of DAILY_VARIANTS."""
    check_daily_date(date, now=now)
    found = {d.variant: d for d in Daily.objects.select_related("stored_code").filter(date=date)}
    return [found[variant] for variant in DAILY_VARIANTS if variant in found]


def next_publication(now: dt.datetime) -> dt.datetime:
    """The next 01:00 UTC after `now`: when yesterday's open attempts end and its codes are published."""
    today_at = dt.datetime.combine(now.astimezone(dt.UTC).date(), dt.time(1), tzinfo=dt.UTC)
    return today_at if now < today_at else today_at + dt.timedelta(days=1)


def is_published(daily: Daily, now: dt.datetime) -> bool:
    return now >= daily.publishes_at


def accepts_ranked_attempts(daily: Daily, now: dt.datetime) -> bool:
    return now < daily.closes_at
