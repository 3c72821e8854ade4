"""A lean dispatch for the API's hottest views: the DRF view's own method, its own authenticators,
permissions, parser and error handler, without the rest of DRF's request cycle.

DRF's dispatch negotiates the content type, instantiates the view, its parsers, authenticators and
permissions, and renders the answer through its Response's machinery on every request: a large part
of a leaderboard read's CPU (bench/README.md). `lean(View)` serves the view's one hot method itself:

- the same authenticators in the same order (a token, then the session with DRF's CSRF check for
  unsafe methods), the same permissions, the same parser, so no check is skipped;
- the view's method itself, with a DRF Request, so the answer is the same document;
- every refusal through the same exception handler (web.api_errors), so the same error shape, status
  and Retry-After; rendered by the same JSONRenderer, with the same Allow header;
- Django's middleware around it as before: security and CSP headers, session, language, host
  check, request id.

Anything else (another method, HEAD, OPTIONS, an Accept header other than JSON's or anything's, a
`format` parameter) goes to DRF's own dispatch of the same view, which words it as before. The
OpenAPI document is the same: the URL pattern still names the view class (drf-spectacular reads it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from web import loop_http
from web.api_errors import exception_handler
from web.loop_http import PLAIN_ACCEPTS

View = Callable[..., HttpResponseBase]


def lean(view_class: type[APIView], method: str, *, on_loop: loop_http.Handler | None = None) -> View:
    """The URL callback for `view_class`: `method` served leanly, everything else by DRF. With
    `on_loop`, that handler serves on the event loop what it can (web/loop_http.py), the rest goes
    to the lean path."""
    drf_view = view_class.as_view()
    probe = view_class()
    probe.setup(HttpRequest())  # as as_view() does: a view with get answers HEAD too
    if probe.get_throttles() or probe.versioning_class is not None or len(probe.renderer_classes) != 1:
        # Each would change what the lean path must check or how it answers.
        raise ImproperlyConfigured(f"{view_class.__name__} has throttles, versioning or renderers lean() skips")
    if probe.renderer_classes[0] is not JSONRenderer or method not in probe.allowed_methods:
        raise ImproperlyConfigured(f"{view_class.__name__} must render JSON and allow {method}")
    renderer = JSONRenderer()
    allow = ", ".join(probe.allowed_methods)
    format_param = api_settings.URL_FORMAT_OVERRIDE

    def serves(request: HttpRequest) -> bool:
        """Whether the lean path answers `request` as DRF would (else DRF's dispatch does)."""
        return (
            request.method == method
            and request.META.get("HTTP_ACCEPT", "") in PLAIN_ACCEPTS
            and not (format_param and format_param in request.GET)
        )

    def serve(request: HttpRequest, **kwargs: Any) -> HttpResponseBase:
        if not serves(request):
            return drf_view(request, **kwargs)
        # A view, its authenticators and its permissions per request, as DRF makes them.
        view = view_class()
        view.setup(request, **kwargs)
        view.format_kwarg, view.headers = None, {"Allow": allow}
        drf_request = Request(
            request,
            parsers=view.get_parsers(),
            authenticators=view.get_authenticators(),
            parser_context={"view": view, "args": (), "kwargs": kwargs},
        )
        view.request = drf_request
        drf_request.accepted_renderer, drf_request.accepted_media_type = renderer, renderer.media_type
        drf_request.version, drf_request.versioning_scheme = None, None
        try:
            drf_request.user  # noqa: B018  # authenticates, as DRF's perform_authentication does
            view.check_permissions(drf_request)
            answer: HttpResponseBase = getattr(view, method.lower())(drf_request, **kwargs)
        except Exception as exc:
            refusal = exception_handler(exc, {"view": view, "request": drf_request})
            if refusal is None:
                raise  # as DRF does: Django answers it (handler500)
            answer = refusal
        if not isinstance(answer, Response):
            answer["Allow"] = allow  # as DRF's finalize_response passes a plain response on
            return answer
        response = HttpResponse(
            renderer.render(answer.data, renderer.media_type, {}),
            status=answer.status_code,
            content_type=renderer.media_type,
        )
        for name, value in answer.items():
            if name.lower() != "content-type":
                response[name] = value
        response.cookies = answer.cookies
        response["Allow"] = allow
        return response

    # What Django's and DRF's as_view() say of their view: drf-spectacular documents the view class.
    for name in ("cls", "initkwargs", "view_class", "view_initkwargs", "__doc__", "__name__", "__module__"):
        setattr(serve, name, getattr(drf_view, name))
    serve.lean_serves = serves  # type: ignore[attr-defined]  # web/lean_chain.py asks it
    if on_loop is not None:
        loop_http.route_of(serve, method, on_loop, allow)
    serve.csrf_exempt = True  # type: ignore[attr-defined]  # as DRF's: the session authenticator checks CSRF
    return serve
