"""Error pages: a database that is away is a 503 with a plain message, never a bare 500."""

from __future__ import annotations

import sys

from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext, gettext_noop

from web.errors import error_body

UNAVAILABLE = gettext_noop("The game server's storage is unavailable. Try again in a moment.")


def server_error(request: HttpRequest) -> HttpResponse:
    error = sys.exc_info()[1]
    if isinstance(error, DatabaseError):
        status, message = 503, gettext(UNAVAILABLE)
    else:
        status, message = 500, gettext("Something went wrong on the server. It has been logged.")
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(error_body(message), status=status)
    else:
        response = HttpResponse(
            f"<!doctype html><title>{status}</title><h1>{message}</h1>", status=status, content_type="text/html"
        )
    if status == 503:
        response["Retry-After"] = "5"
    return response
