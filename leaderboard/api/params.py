"""Query parameters (a request's QueryDict, on Django's path or the loop's) and the requesting player
(games.players.guests), checked the same way by every view here."""

from __future__ import annotations

from django.http import QueryDict
from drf_spectacular.utils import OpenApiParameter

from games.players.guests import player, viewer
from web import paging


def limit(query: QueryDict, *, default: int = paging.DEFAULT_LIMIT) -> int:
    return paging.limit(query.get("limit"), default=default)


def limit_parameter(default: int = paging.DEFAULT_LIMIT) -> OpenApiParameter:
    return paging.limit_parameter(default)


def cursor(query: QueryDict) -> str | None:
    return paging.cursor(query.get("cursor"))


__all__ = ["cursor", "limit", "limit_parameter", "player", "viewer"]
