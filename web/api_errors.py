"""DRF exception handler: every refusal answers in the error shape of docs/api.md, the sync views'
and the async ones' (web.async_views: their storage on the event loop raises psycopg's errors)."""

from __future__ import annotations

import logging
from typing import Any

import psycopg
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError, DataError
from django.http import Http404
from django.utils.translation import gettext, gettext_noop
from rest_framework import exceptions, status
from rest_framework.response import Response

from web.errors import BadRequest, ServiceError, Unavailable, error_body
from web.middleware import CSRF_REFUSED
from web.views import UNAVAILABLE

log = logging.getLogger(__name__)

DATA_REFUSED = gettext_noop("The request holds a value that cannot be looked up or stored: check what you sent.")

_PLAIN_MESSAGES = {
    exceptions.NotAuthenticated: gettext_noop("Sign in or start a guest game first: this needs a player."),
    exceptions.AuthenticationFailed: gettext_noop("That token or session is not valid. Sign in again."),
    exceptions.PermissionDenied: gettext_noop("You are not allowed to do that."),
    exceptions.MethodNotAllowed: gettext_noop("This address does not accept that method."),
    exceptions.UnsupportedMediaType: gettext_noop("Send the body as JSON (Content-Type: application/json)."),
    exceptions.ParseError: gettext_noop("The body is not valid JSON."),
    exceptions.NotAcceptable: gettext_noop("This API answers in JSON only."),
}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ServiceError):
        response = Response(exc.body(), status=exc.status)
        if exc.retry_after is not None:
            response["Retry-After"] = str(exc.retry_after)
        return response
    if isinstance(exc, Http404):
        return Response(error_body(gettext("Not found.")), status=status.HTTP_404_NOT_FOUND)
    if isinstance(exc, PermissionDenied):
        return Response(error_body(gettext("You are not allowed to do that.")), status=status.HTTP_403_FORBIDDEN)
    if isinstance(exc, exceptions.APIException):
        plain = _PLAIN_MESSAGES.get(type(exc))
        message = gettext(plain) if plain else _flatten(exc.detail)
        if isinstance(exc, exceptions.PermissionDenied) and str(exc.detail).startswith("CSRF Failed"):
            message = gettext(CSRF_REFUSED)  # DRF's session check, not a lack of rights: say what to do
        code = exc.status_code
        if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
            code = status.HTTP_401_UNAUTHORIZED
        response = Response(error_body(message), status=code)
        wait = getattr(exc, "wait", None)
        if wait is not None:
            response["Retry-After"] = str(max(1, int(wait)))
        return response
    if isinstance(exc, DatabaseError | psycopg.Error):
        return exception_handler(database_refusal(exc, data=isinstance(exc, DataError | psycopg.DataError)), context)
    return None


def database_refusal(error: Exception, *, data: bool) -> ServiceError:
    """The answer to a database error: a value the database refused (`data`) is the client's
    error, anything else an outage. Logged here; the answer names neither."""
    if data:
        # A value PostgreSQL refuses (a NUL, a number or date out of its range) came with the
        # request: the client's error, not an outage. Views check their inputs; this is the net.
        log.warning("input refused by the database: %s", error)
        return BadRequest(gettext(DATA_REFUSED))
    log.error("database unavailable", exc_info=error)
    return Unavailable(gettext(UNAVAILABLE), retry_after=5)


def _flatten(detail: Any) -> str:
    """One readable sentence from DRF's nested validation detail."""
    if isinstance(detail, dict):
        parts = []
        for field, value in detail.items():
            text = _flatten(value)
            parts.append(text if field == "non_field_errors" else f"{field}: {text}")
        return " ".join(parts)
    if isinstance(detail, list):
        return " ".join(_flatten(item) for item in detail)
    return str(detail)
