"""Player pages: statistics per variant, verified games newest first, and series for a chart."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext

from games.models import Player, Result
from games.ranking.keys import decode_cursor, encode_cursor
from games.selectors import result_document
from leaderboard.models import PlayerStats
from leaderboard.stats import stats_document
from races.rating_board import player_ratings
from web.errors import NotFound

SERIES_POINTS = 200  # per variant: the most recent games

# A page's cursor (games.ranking.keys encodes it): the last result's finishing time, in microseconds since
# the first day Python has, then its id, each in a fixed number of digits.
_FIRST_DAY = dt.datetime.min.replace(tzinfo=dt.UTC)
_LAST_US = (dt.datetime.max.replace(tzinfo=dt.UTC) - _FIRST_DAY) // dt.timedelta(microseconds=1)
_LAST_ID = 2**63 - 1  # the largest id a database column holds
_TIME_DIGITS = len(str(_LAST_US))
_ID_DIGITS = len(str(_LAST_ID))
PAGE_KEY_LENGTH = _TIME_DIGITS + _ID_DIGITS


def named_player(name: str) -> Player | None:
    """The active named player called `name` (any case), or None."""
    if "\x00" in name:  # no name has one, and PostgreSQL refuses it in a query: no such player
        return None
    return Player.objects.filter(username__iexact=name.strip(), is_guest=False, is_active=True).first()


def player_page(*, name: str, limit: int, cursor: str | None, now: dt.datetime) -> dict[str, Any]:
    player = named_player(name)
    if player is None:
        raise NotFound(gettext("No player is called %(name)s.") % {"name": repr(name)})
    today = now.astimezone(dt.UTC).date()
    results, next_cursor = _recent(player, limit, cursor)
    return {
        "player": {"name": player.display_name, "joined": player.date_joined.isoformat()},
        "stats": [stats_document(s, today) for s in PlayerStats.objects.filter(player=player).order_by("variant")],
        "results": [result_document(r, now=now) for r in results],
        "next_cursor": next_cursor,
        "series": _series(player),
        "ratings": player_ratings(player),
    }


def _with_documents() -> Any:
    return Result.objects.select_related("stored_code", "daily", "player", "session")


def _recent(player: Player, limit: int, cursor: str | None) -> tuple[list[Result], str | None]:
    rows = _with_documents().filter(player=player)
    if cursor is not None:
        finished_at, result_id = _decode(cursor)
        rows = rows.filter(Q(finished_at__lt=finished_at) | Q(finished_at=finished_at, pk__lt=result_id))
    page = list(rows.order_by("-finished_at", "-pk")[: limit + 1])
    more = len(page) > limit
    page = page[:limit]
    return page, _encode(page[-1]) if more else None


def _series(player: Player) -> dict[str, list[dict[str, Any]]]:
    """Score and moves over time per variant, oldest first (no codes: nothing secret in it)."""
    series: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for variant in PlayerStats.objects.filter(player=player).values_list("variant", flat=True):
        recent = _with_documents().filter(player=player, stored_code__variant=variant).order_by("-finished_at", "-pk")
        for result in reversed(recent[:SERIES_POINTS]):
            series[variant].append(
                {
                    "result": result.pk,
                    "finished_at": result.finished_at.isoformat(),
                    "score": result.score,
                    "moves": result.moves,
                    "won": result.won,
                }
            )
    return dict(series)


def _encode(result: Result) -> str:
    finished_us = (result.finished_at - _FIRST_DAY) // dt.timedelta(microseconds=1)
    return encode_cursor(f"{finished_us:0{_TIME_DIGITS}d}{result.pk:0{_ID_DIGITS}d}")


def _decode(cursor: str) -> tuple[dt.datetime, int]:
    """Where a page starts: any key of digits is a place (one past the last time or id is the end)."""
    key = decode_cursor(cursor, PAGE_KEY_LENGTH)
    finished_us, result_id = int(key[:_TIME_DIGITS]), int(key[_TIME_DIGITS:])
    finished_at = _FIRST_DAY + dt.timedelta(microseconds=min(finished_us, _LAST_US))
    return finished_at, min(result_id, _LAST_ID)
