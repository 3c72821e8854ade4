"""The language of a connection that no LocaleMiddleware sees (a socket, a body refused early)."""

from __future__ import annotations

import contextlib
from typing import Any

from django.http import HttpRequest
from django.http.cookie import parse_cookie
from django.utils import translation


def language_of(scope: dict[str, Any]) -> str:
    """The language LocaleMiddleware would pick from an ASGI scope's headers: the language cookie,
    then Accept-Language, then LANGUAGE_CODE."""
    headers = {bytes(k).decode("latin-1").lower(): bytes(v).decode("latin-1") for k, v in scope.get("headers") or []}
    cookies = scope.get("cookies")
    request = HttpRequest()
    request.COOKIES = dict(cookies) if cookies is not None else parse_cookie(headers.get("cookie", ""))
    if "accept-language" in headers:
        request.META["HTTP_ACCEPT_LANGUAGE"] = headers["accept-language"]
    return translation.get_language_from_request(request)


def in_use(language: str) -> bool:
    """Whether `language` is the one in use already, so that an override would change nothing."""
    return translation.get_language() == language


def speaking(language: str) -> contextlib.AbstractContextManager[Any]:
    """`translation.override(language)`, or nothing where `language` is already the one in use: an
    override costs a request served on the loop about as much as its header checks, and leaves the
    language set in its context when it ends (a socket's: a few hundred bytes while it is open)."""
    if in_use(language):
        return contextlib.nullcontext()
    return translation.override(language)
