"""What the API's async views (adrf's APIView with `async def` handlers) share: where their storage
work runs.

A request the ASGI server serves runs its view on the server's event loop, whose own clients
(web.database.loop_connection, web.redis_clients) serve it without a thread. Anything else runs that
work on the request's thread through Django's connection: a request from Django's test client (a
WSGI request, on a loop made for it alone, inside the test's transaction), and every request on the
embedded default (SQLite, no Redis), which the loop's clients do not speak.
"""

from __future__ import annotations

import functools

from django.conf import settings
from django.core.signals import setting_changed
from django.db import connections
from django.http import HttpRequest
from rest_framework.request import Request


def on_the_loop(request: Request | HttpRequest) -> bool:
    """Whether `request`'s storage work is done on the event loop's own clients: an ASGI request
    (it has the server's scope; DRF's Request passes the attribute on) while PostgreSQL and Redis
    serve."""
    return isinstance(getattr(request, "scope", None), dict) and _loop_clients()


@functools.cache
def _loop_clients() -> bool:
    return bool(settings.REDIS_URL) and connections["default"].vendor == "postgresql"


setting_changed.connect(lambda **kwargs: _loop_clients.cache_clear(), weak=False, dispatch_uid="async_views_settings")
