"""Request guards that must run before any view."""

from __future__ import annotations

import secrets
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import translation
from django.utils.cache import get_max_age
from django.utils.translation import gettext, gettext_noop

from web.errors import ServiceError, error_body

CSRF_REFUSED = gettext_noop("The request was refused: send the CSRF token from the page, or use a Token.")


def too_large_message() -> str:
    return gettext("The body is too large: at most %(limit)s bytes are accepted.") % {"limit": settings.MAX_BODY_BYTES}


class BodySizeLimitMiddleware:
    """Refuse a body whose Content-Length is over the cap with 413 before anything reads it (a
    chunked one: web/bodies.py)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        length = request.META.get("CONTENT_LENGTH") or "0"
        try:
            size = int(length)
        except ValueError:
            return self._refuse(request, gettext_noop("The Content-Length header is not a number."), status=400)
        if size > settings.MAX_BODY_BYTES:
            return self._refuse(request, None, status=413)
        return self.get_response(request)

    @staticmethod
    def _refuse(request: HttpRequest, message: str | None, *, status: int) -> HttpResponse:
        # Before LocaleMiddleware: the refusal asks for the client's language itself.
        with translation.override(translation.get_language_from_request(request)):
            words = gettext(message) if message is not None else too_large_message()
            return JsonResponse(error_body(words), status=status)


class ApiErrorMiddleware:
    """Answers under /api/ that Django makes itself (404, 405, 500) in the API's error shape."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not request.path.startswith("/api/") or response.get("Content-Type", "").startswith(
            ("application/json", "application/vnd.oai.openapi")
        ):
            return response
        if response.status_code == 404:
            return JsonResponse(error_body(gettext("No such address in the API.")), status=404)
        if response.status_code == 403:
            # Django's CSRF failure page: say what to do instead.
            return JsonResponse(error_body(gettext(CSRF_REFUSED)), status=403)
        return response


class ServiceErrorMiddleware:
    """A refusal raised outside the API's views (the admin's log-in limit) answers as in the API, not 500."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, ServiceError):
            return None
        response = JsonResponse(exception.body(), status=exception.status)
        if exception.retry_after is not None:
            response["Retry-After"] = str(exception.retry_after)
        return response


DEVICE_COOKIE_SECONDS = 2 * 365 * 24 * 3600
DEVICE_BYTES = 24


class DeviceCookieMiddleware:
    """A long-lived random device cookie for a browser that has none (games.dailies.fair_play), on pages only:
    never on an answer a shared cache may keep, nor under /api/."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        name = settings.FAIR_PLAY_DEVICE_COOKIE
        if (
            name in request.COOKIES
            or request.path.startswith("/api/")
            or not response.get("Content-Type", "").startswith("text/html")
            or "public" in response.get("Cache-Control", "")
            or (get_max_age(response) or 0) > 0
        ):
            return response
        response.set_cookie(
            name,
            secrets.token_urlsafe(DEVICE_BYTES),
            max_age=DEVICE_COOKIE_SECONDS,
            httponly=True,
            samesite="Lax",
            secure=settings.SESSION_COOKIE_SECURE,
        )
        return response
