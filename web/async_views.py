"""The base of the API's async views: DRF's APIView, its handlers awaited on the server's event loop.
The same authenticators, permissions, renderer and exception handler as any view; DRF's `initial` runs
on the loop when no authenticator needs I/O (`answers_at_once`), else on the request's thread.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.exceptions import SynchronousOnlyOperation
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from rest_framework.authentication import SessionAuthentication
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView


class AsyncAPIView(APIView):
    async def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:  # type: ignore[override]
        """DRF's dispatch, the handler awaited and `initial` on the loop where it needs no I/O."""
        self.args, self.kwargs = args, kwargs
        drf_request = self.initialize_request(request, *args, **kwargs)
        self.request, self.headers = drf_request, self.default_response_headers
        try:
            drf_request = await self._checked(request, drf_request, *args, **kwargs)
            method = str(drf_request.method).lower()
            handler = getattr(self, method, self.http_method_not_allowed)
            if method not in self.http_method_names:
                handler = self.http_method_not_allowed
            response = handler(drf_request, *args, **kwargs)
            if not isinstance(response, HttpResponseBase):  # a coroutine: the async handlers
                response = await response
        except Exception as exc:
            response = self.handle_exception(exc)
        self.response = self.finalize_response(drf_request, response, *args, **kwargs)
        return self.response

    async def _checked(self, request: HttpRequest, drf_request: Request, *args: Any, **kwargs: Any) -> Request:
        """`drf_request` once DRF's `initial` ran on it: here, or on the request's thread."""
        if all(_at_once(authenticator, drf_request) for authenticator in drf_request.authenticators or ()):
            try:
                self.initial(drf_request, *args, **kwargs)
                return drf_request
            except SynchronousOnlyOperation:  # a copy dropped meanwhile: the database must answer
                drf_request = self.request = self.initialize_request(request, *args, **kwargs)
        await sync_to_async(self.initial)(drf_request, *args, **kwargs)
        return drf_request

    def finalize_response(self, request: Request, response: Any, *args: Any, **kwargs: Any) -> Any:
        """Rendered here as a plain response: Django would render a DRF Response on the request's thread."""
        response = super().finalize_response(request, response, *args, **kwargs)
        if not isinstance(response, Response):
            return response
        response.render()
        rendered = HttpResponse(response.content, status=response.status_code)
        for name, value in response.items():
            rendered[name] = value
        rendered.cookies = response.cookies
        return rendered


def _at_once(authenticator: object, request: Request) -> bool:
    """Whether `authenticator` answers `request` without I/O (so on the event loop itself)."""
    if isinstance(authenticator, SessionAuthentication):
        return settings.SESSION_COOKIE_NAME not in request.COOKIES  # no session to read
    answers = getattr(authenticator, "answers_at_once", None)
    return bool(answers is not None and answers(request))
