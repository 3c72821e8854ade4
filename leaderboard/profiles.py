"""Player pages: statistics per variant, verified games newest first, and series for a chart."""

from __future__ import annotations

import base64
import binascii
import datetime as dt
from collections import defaultdict
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext

from games.models import Player, Result
from games.selectors import result_document
from leaderboard.models import PlayerStats
from leaderboard.stats import stats_document
from web.errors import BadRequest, NotFound

SERIES_POINTS = 200  # per variant: the most recent games
MAX_OFFSET = dt.timedelta(hours=16)


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
    text = f"{result.finished_at.isoformat()}|{result.pk}"
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def _decode(cursor: str) -> tuple[dt.datetime, int]:
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("ascii")
        stamp, _, pk = text.partition("|")
        finished_at = dt.datetime.fromisoformat(stamp)
        offset = finished_at.utcoffset()
        # PostgreSQL takes offsets up to 15:59 only (Python's go to 23:59), and this server writes +00:00.
        if offset is None or abs(offset) >= MAX_OFFSET or not pk.isdigit():
            raise ValueError(text)
        return finished_at.astimezone(dt.UTC), int(pk)
    except (binascii.Error, UnicodeDecodeError, ValueError, OverflowError):
        raise BadRequest(gettext("That cursor is not valid: use the next_cursor of the previous page.")) from None
