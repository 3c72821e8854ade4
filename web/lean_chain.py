"""The middleware chain of the lean views (web/lean.py): Django's, less what they do not need.

A request whose path resolves to a lean view, with the method and headers that view serves itself,
passes through the same middleware as any other in the same order (body limit, security and CSP
headers, session, language, host check, CSRF cookie, player, frame options) except:

- WhiteNoise: it serves only static files, and the path resolved to a view;
- MessageMiddleware: these views leave no flash message;
- ApiErrorMiddleware and ServiceErrorMiddleware: these views answer every refusal in the API's
  error shape themselves (web.api_errors), and an error that escapes is handler500's JSON;
- CommonMiddleware's slash redirect, whose URL look-ups run only for a path that does not resolve
  (web.middleware.ResolvedCommonMiddleware keeps the rest of it).

The path is resolved once, here; the view is not looked up again.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import MiddlewareNotUsed
from django.core.handlers import base
from django.core.handlers.exception import convert_exception_to_response
from django.http import HttpRequest
from django.urls import Resolver404, ResolverMatch, get_resolver
from django.utils.module_loading import import_string

SKIPPED = frozenset(
    {
        "whitenoise.middleware.WhiteNoiseMiddleware",
        "django.contrib.messages.middleware.MessageMiddleware",
        "web.middleware.ApiErrorMiddleware",
        "web.middleware.ServiceErrorMiddleware",
        "web.middleware.DeviceCookieMiddleware",  # pages only
    }
)
REPLACED = {"django.middleware.common.CommonMiddleware": "web.middleware.ResolvedCommonMiddleware"}
PREFIX = "/api/"  # every lean view is under it: other paths are not even resolved here


def lean_middleware(middleware: list[str]) -> list[str]:
    """The chain for lean views made from `middleware` (settings.MIDDLEWARE)."""
    return [REPLACED.get(path, path) for path in middleware if path not in SKIPPED]


class ResolvedHandler(base.BaseHandler):
    """A handler that uses the view found before its chain ran (request.resolver_match, set by
    LeanHandler.takes), rather than resolving the path again."""

    def resolve_request(self, request: HttpRequest) -> ResolverMatch:
        match = request.resolver_match
        if match is None or hasattr(request, "urlconf"):
            return super().resolve_request(request)
        return match


class LeanHandler(ResolvedHandler):
    def __init__(self) -> None:
        super().__init__()
        self._view_middleware: list[Any] = []
        self._template_response_middleware: list[Any] = []
        self._exception_middleware: list[Any] = []
        handler = convert_exception_to_response(self._get_response)  # type: ignore[attr-defined]  # Django's, unstubbed
        # As BaseHandler.load_middleware(is_async=False) chains settings.MIDDLEWARE.
        for path in reversed(lean_middleware(settings.MIDDLEWARE)):
            try:
                instance = import_string(path)(handler)
            except MiddlewareNotUsed:
                continue
            if hasattr(instance, "process_view"):
                self._view_middleware.insert(0, instance.process_view)
            if hasattr(instance, "process_template_response"):
                self._template_response_middleware.append(instance.process_template_response)
            if hasattr(instance, "process_exception"):
                self._exception_middleware.append(instance.process_exception)
            handler = convert_exception_to_response(instance)
        self._middleware_chain = handler

    @staticmethod
    def takes(request: HttpRequest) -> bool:
        """Whether `request` goes to a lean view that serves it itself; its path is resolved once
        (request.resolver_match, used again by either chain)."""
        if not request.path_info.startswith(PREFIX):
            return False
        try:
            match = get_resolver().resolve(request.path_info)
        except Resolver404:
            return False
        except Exception:  # noqa: BLE001  # Django's chain meets it again and answers it (handler500)
            return False
        request.resolver_match = match
        serves = getattr(match.func, "lean_serves", None)
        return bool(serves is not None and serves(request))
