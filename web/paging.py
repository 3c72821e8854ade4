"""A page's query parameters, checked alike wherever a list is paged (the boards over HTTP and
over their sockets, the rating boards): `limit` and `cursor`."""

from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter

from web.errors import BadRequest

DEFAULT_LIMIT = 50
MAX_LIMIT = 100


def limit(text: str | None, *, default: int = DEFAULT_LIMIT) -> int:
    """The `limit` a query gave (None: not given), a whole number from 1 to MAX_LIMIT."""
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


def cursor(text: str | None) -> str | None:
    """The `cursor` a query gave, as the previous page's next_cursor (its own reader decodes it)."""
    if text is not None and (not text or len(text) > 200):
        raise BadRequest(gettext("That cursor is not valid: use the next_cursor of the previous page."))
    return text
