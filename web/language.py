"""The language of a connection that no LocaleMiddleware sees (a socket, a body refused early)."""

from __future__ import annotations

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
