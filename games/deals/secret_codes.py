"""Codes that are still secret: a daily's until it is published, a secret race's until the race ends.

Such a code is refused for free play, submissions and new rooms, before anything is dealt,
replayed or stored: no session, result, board entry, replay or error message about its deal
can exist before its time. The refusal is one sentence for every secret code and names no
daily or room, so it tells nothing about the deal or where it is used (docs/codes.md).
"""

from __future__ import annotations

import datetime as dt

from asgiref.sync import async_to_sync
from django.utils.translation import gettext, gettext_noop

from games.engine import GameCode
from games.models import Daily, Room, StoredCode
from web import storage
from web.errors import Unprocessable

CANNOT_BE_PLAYED = gettext_noop("This game code cannot be played now.")

# A daily is published at 01:00 UTC the day after its date (games.models.Daily.publishes_at), so
# it is still secret while its date is later than the date 25 hours ago.
_UNTIL_PUBLISHED = dt.timedelta(days=1, hours=1)
_D, _G, _R = Daily._meta.db_table, StoredCode._meta.db_table, Room._meta.db_table
_SECRET = (
    f"SELECT EXISTS (SELECT 1 FROM {_D} d JOIN {_G} g ON g.id = d.stored_code_id WHERE g.code = %(code)s"
    f" AND d.date > %(published_before)s)"
    f" OR EXISTS (SELECT 1 FROM {_R} r WHERE r.code = %(code)s AND r.code_secret AND r.state <> %(finished)s)"
)


async def is_secret(code: GameCode, *, now: dt.datetime) -> bool:
    """Whether `code` is an unpublished daily's or that of a secret race not yet over (one query)."""
    row = await storage.fetchone(
        _SECRET,
        {
            "code": str(code),
            "published_before": (now.astimezone(dt.UTC) - _UNTIL_PUBLISHED).date(),
            "finished": Room.State.FINISHED.value,
        },
    )
    return bool(row and row[0])


def refusal() -> Unprocessable:
    """The one refusal of every secret code."""
    return Unprocessable(gettext(CANNOT_BE_PLAYED), index=0)


def refuse_if_secret(code: GameCode, *, now: dt.datetime) -> None:
    """A 422 at index 0, as for a code that cannot be played, if `code` is still secret (sync code)."""
    if async_to_sync(is_secret)(code, now=now):
        raise refusal()
