"""ASGI entry point: HTTP through Django, WebSockets through Channels.

WebSockets pass the allowed-hosts origin check, then authenticate by the
`Authorization: Token` header (scripts) or Django's session (browser).
"""

import gc
import os
import sys

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)

from django.conf import settings  # noqa: E402

# The event loop serves every socket of the process; while a socket's database thread computes
# (a document, a replay), the loop waits for the GIL. With Python's 5 ms switch interval that wait
# was most of the play answers' p99 at 600 actions/s (bench/README.md); 0.5 ms cut it by a third
# to a half.
sys.setswitchinterval(max(settings.GIL_SWITCH_US, 1) / 1_000_000)

from config.http import ASGIHandler  # noqa: E402

django_asgi_app = ASGIHandler()  # Django's, with one thread trip per request (config/http.py)

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402
from config.ws_auth import TokenAuthMiddleware  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(TokenAuthMiddleware(URLRouter(websocket_urlpatterns)))
        ),
    }
)

# Start-up built ~110,000 objects that live as long as the process: leave them out of the garbage
# collector's full passes, which otherwise scan them all (30-190 ms each on this machine, a
# stall of every request in flight). config/http.py freezes once more when the process is warm.
gc.collect()
gc.freeze()
