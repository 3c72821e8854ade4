"""The base of the API's async views (the hottest two): adrf's APIView, whose `async def` handlers run
on the server's event loop, and where their storage work runs.

A request the ASGI server serves runs its handler on the server's event loop, whose own clients
(web.database.loop_connection, web.redis_clients) serve its storage work without a thread. Anything
else runs that work on the request's thread through Django's connection: a request from Django's test
client (a WSGI request, on a loop made for it alone, inside the test's transaction), and every request
on the embedded default (SQLite, no Redis), which the loop's clients do not speak.
"""

from __future__ import annotations

import functools
from typing import Any

from adrf.views import APIView
from django.conf import settings
from django.core.signals import setting_changed
from django.db import connections
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from rest_framework.request import Request
from rest_framework.response import Response


class AsyncAPIView(APIView):
    def finalize_response(self, request: Request, response: HttpResponseBase, *args: Any, **kwargs: Any) -> Any:
        """DRF's answer, rendered here by the view's renderer and handed on as a plain response: Django
        renders a DRF Response on a trip to the request's thread, and the loop has it in hand."""
        response = super().finalize_response(request, response, *args, **kwargs)
        if not isinstance(response, Response):
            return response
        response.render()
        rendered = HttpResponse(response.content, status=response.status_code)
        for name, value in response.items():
            rendered[name] = value
        rendered.cookies = response.cookies
        return rendered


def on_the_loop(request: Request | HttpRequest) -> bool:
    """Whether `request`'s storage work is done on the event loop's own clients: an ASGI request
    (it has the server's scope; DRF's Request passes the attribute on) while PostgreSQL and Redis
    serve."""
    return isinstance(getattr(request, "scope", None), dict) and _loop_clients()


@functools.cache
def _loop_clients() -> bool:
    return bool(settings.REDIS_URL) and connections["default"].vendor == "postgresql"


setting_changed.connect(lambda **kwargs: _loop_clients.cache_clear(), weak=False, dispatch_uid="async_views_settings")
