"""A socket's route, resolved in the frame that serves it: Channels' URLRouter, less its layer.

URLRouter awaits the consumer it matched, with a copy of the scope that adds `url_route`: an open
socket kept that copy, the router's suspended call and `as_asgi`'s for as long as it was open
(bench/README.md, memory). `Routes.resolve` matches the same patterns the same way (the scope's
`root_path` taken off, the leading slash stripped, the first pattern that matches), writes
`path_remaining` and `url_route` into the scope it is given, which only the socket holds
(web/sockets/resolved.py), and answers the consumer to serve it with, which web.sockets.resolved
awaits itself. No route: ValueError, as the outermost URLRouter raises it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.urls import URLPattern


class Routes:
    """The outermost WebSocket routes: `path()` patterns of consumers made with `as_asgi()`."""

    def __init__(self, patterns: Sequence[URLPattern]) -> None:
        for pattern in patterns:
            if not hasattr(pattern.callback, "consumer_class"):
                raise TypeError(f"{pattern!r}: a route here serves a consumer's as_asgi(), not {pattern.callback!r}")
        self.patterns = list(patterns)

    def resolve(self, scope: dict[str, Any]) -> Any:
        """The consumer that serves the socket of `scope`, whose `url_route` it writes."""
        path = scope["path"]
        root_path = scope.get("root_path", "")
        if root_path and not path.startswith(root_path):
            raise ValueError(f"No route found for path {path!r}.")
        path = path[len(root_path) :].lstrip("/")
        for pattern in self.patterns:
            match = pattern.pattern.match(path)
            if match:
                remaining, args, kwargs = match
                scope["path_remaining"] = remaining
                scope["url_route"] = {"args": args, "kwargs": {**kwargs, **pattern.default_args}}
                made: Any = pattern.callback  # as_asgi()'s application, which names its consumer
                return made.consumer_class(**made.consumer_initkwargs)
        raise ValueError(f"No route found for path {path!r}.")
