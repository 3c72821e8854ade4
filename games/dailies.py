"""Daily challenges (SPEC section 7): the deal of a date and variant, and when it opens up."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from config.errors import NotFound, Unprocessable
from games.deals import deal_for
from games.engine import DAILY_VARIANTS, LONG_DEAL_NUMBERS, GameCode
from games.models import Daily


def daily_number(secret: str, date: dt.date, variant: str) -> int:
    """HMAC-SHA256(secret, "YYYY-MM-DD|variant") as a big-endian integer, mod 26^20: the deal number
    of a long code, which nobody can find from the cards it shows (docs/codes.md)."""
    message = f"{date.isoformat()}|{variant}".encode()
    digest = hmac.new(secret.encode("utf-8"), message, hashlib.sha256).digest()
    return int.from_bytes(digest, "big") % LONG_DEAL_NUMBERS


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
    """The daily of `date`, stored the first time it is asked for and never changed after."""
    if date > utc_today(now):
        raise NotFound(gettext("The dailies of %(date)s are not out yet.") % {"date": date.isoformat()})
    if date < settings.DAILIES_START:
        raise NotFound(
            gettext("There are no dailies before %(date)s, the league's first day.")
            % {"date": settings.DAILIES_START.isoformat()}
        )
    check_daily_variant(variant)
    daily = Daily.objects.select_related("deal").filter(date=date, variant=variant).first()
    if daily is not None:
        return daily
    code = GameCode.from_variant(variant, daily_number(settings.DAILY_SECRET, date, variant), long=True)
    deal = deal_for(code)
    try:
        with transaction.atomic():
            return Daily.objects.create(date=date, variant=variant, deal=deal)
    except IntegrityError:  # another request stored it first: theirs stands
        return Daily.objects.select_related("deal").get(date=date, variant=variant)


def dailies_for(date: dt.date, *, now: dt.datetime) -> list[Daily]:
    return [daily_for(date, variant, now=now) for variant in DAILY_VARIANTS]


def is_published(daily: Daily, now: dt.datetime) -> bool:
    return now >= daily.publishes_at


def accepts_ranked_attempts(daily: Daily, now: dt.datetime) -> bool:
    return now < daily.closes_at
