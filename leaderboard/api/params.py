"""Query parameters (a request's QueryDict, on Django's path or the loop's) and the requesting player
(games.players.guests), checked the same way by every view here."""

from __future__ import annotations

from django.http import QueryDict
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter

from games.players.guests import player, viewer
from leaderboard.selectors import DEFAULT_LIMIT, MAX_LIMIT
from web.errors import BadRequest


def limit(query: QueryDict, *, default: int = DEFAULT_LIMIT) -> int:
    text = query.get("limit")
    if text is None:
        return default
    value = int(text) if text.isascii() and text.isdigit() and len(text) <= 4 else 0
    if not 1 <= value <= MAX_LIMIT:
        raise BadRequest(gettext("limit is a whole number from 1 to %(limit)s.") % {"limit": MAX_LIMIT})
    return value


def limit_parameter(default: int = DEFAULT_LIMIT) -> OpenApiParameter:
    """The OpenAPI document's word for limit()."""
    return OpenApiParameter(
        "limit",
        {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT},
        description=f"entries per page, 1-{MAX_LIMIT} (default {default})",
    )


def cursor(query: QueryDict) -> str | None:
    text = query.get("cursor")
    if text is not None and (not text or len(text) > 200):
        raise BadRequest(gettext("That cursor is not valid: use the next_cursor of the previous page."))
    return text


__all__ = ["cursor", "limit", "limit_parameter", "player", "viewer"]
