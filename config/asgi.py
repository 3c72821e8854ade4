"""ASGI entry point: HTTP through Django, WebSockets through Channels.

WebSockets pass the origin check (scheme, host and port: web/sockets/origin.py), then authenticate by the
`Authorization: Token` header (scripts) or Django's session (browser).
"""

import gc
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)

from django.core.asgi import get_asgi_application  # noqa: E402

from web.bodies import WithLength  # noqa: E402
from web.request_threads import KeptThreads  # noqa: E402

# Django's handler as it comes, in front of it a chunked body given its length and a kept thread lent.
django_asgi_app = WithLength(KeptThreads(get_asgi_application()))

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import URLRouter  # noqa: E402
from django.urls import get_resolver  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402
from operations.asgi import operated  # noqa: E402
from web.sockets.auth import TokenAuthMiddleware  # noqa: E402
from web.sockets.origin import SameOriginValidator  # noqa: E402

application = operated(  # health, metrics, request ids, access logs, the drain (operations/asgi.py)
    http=django_asgi_app,
    websocket=SameOriginValidator(AuthMiddlewareStack(TokenAuthMiddleware(URLRouter(websocket_urlpatterns)))),
)

# Import every view now (the URLconf pulls in DRF, the API schema and their dependencies), not in a
# worker's first request: that slowed each fresh process's first POST (bench/README.md).
_views = get_resolver().url_patterns

# Start-up builds many objects that live as long as the process: leave them out of the garbage
# collector's full passes, which otherwise scan them all (each pass a stall of every request in
# flight; figures in bench/README.md).
gc.collect()
gc.freeze()
