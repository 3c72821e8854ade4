"""A socket's route is resolved in the frame that serves it (web/sockets/routes.py): the consumer runs
with the very scope the middleware stack resolved, its route written in, and neither a router's
copy nor its suspended call is kept while the socket is open."""

from __future__ import annotations

import gc
import types
from typing import Any

import pytest
from channels.consumer import AsyncConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.urls import path

from games.consumers import PlayConsumer
from web.sockets.resolved import Resolved
from web.sockets.routes import Routes

seen: dict[str, Any] = {}
# The code of the application as_asgi() makes, which awaits the consumer it makes.
_AS_ASGI_APPS = [
    const for const in AsyncConsumer.as_asgi.__func__.__code__.co_consts if isinstance(const, types.CodeType)
]


class Recorder(AsyncJsonWebsocketConsumer):
    def __init__(self, *, tag: str) -> None:
        super().__init__()
        self.tag = tag

    async def connect(self) -> None:
        await self.accept()
        gc.collect()
        seen["scope"] = self.scope
        seen["tag"] = self.tag
        seen["suspended routers"] = sum(
            type(thing) is types.CoroutineType
            and (thing.cr_code is URLRouter.__call__.__code__ or thing.cr_code in _AS_ASGI_APPS)
            for thing in gc.get_objects()
        )
        await self.send_json(self.scope["url_route"])


def _stack(inner: Any) -> Any:
    """A middleware that notes the scope it hands inward, as the last of the real stack does."""

    async def middleware(scope: dict[str, Any], receive: Any, send: Any) -> None:
        scope = dict(scope, user="someone")
        seen["resolved"] = scope
        await inner(scope, receive, send)

    return middleware


ROUTES = Routes(
    [path("ws/first/", Recorder.as_asgi(tag="first")), path("ws/rooms/<str:room>/", Recorder.as_asgi(tag="room"))]
)


async def test_the_consumer_runs_with_the_scope_the_stack_resolved_and_its_route() -> None:
    seen.clear()
    client = WebsocketCommunicator(Resolved(_stack, ROUTES), "/ws/rooms/abc/")
    connected, _ = await client.connect(timeout=5)
    assert connected
    assert await client.receive_json_from(timeout=5) == {"args": [], "kwargs": {"room": "abc"}}
    await client.disconnect()
    assert seen["tag"] == "room"  # the route's own consumer, made with its as_asgi() arguments
    assert seen["scope"] is seen["resolved"]  # no copy of the scope for the route
    assert seen["scope"]["user"] == "someone" and seen["scope"]["path_remaining"] == ""
    assert seen["suspended routers"] == 0  # neither URLRouter's call nor as_asgi()'s is kept


async def test_a_path_no_route_matches_is_refused_as_channels_refuses_it() -> None:
    for unknown in ("/ws/rooms/", "/ws/first/extra/", "/elsewhere/"):
        with pytest.raises(ValueError, match="No route found"):
            ROUTES.resolve({"type": "websocket", "path": unknown})


def test_a_root_path_is_taken_off_before_matching() -> None:
    scope = {"type": "websocket", "path": "/league/ws/first/", "root_path": "/league"}
    assert isinstance(ROUTES.resolve(scope), Recorder)
    assert scope["url_route"] == {"args": (), "kwargs": {}}
    with pytest.raises(ValueError, match="No route found"):
        ROUTES.resolve({"type": "websocket", "path": "/ws/first/", "root_path": "/league"})


def test_the_service_routes_its_play_socket_to_the_play_consumer() -> None:
    from config.routing import websocket_urlpatterns

    scope = {"type": "websocket", "path": "/ws/play/7f1c/"}
    assert isinstance(Routes(websocket_urlpatterns).resolve(scope), PlayConsumer)
    assert scope["url_route"]["kwargs"] == {"session_id": "7f1c"}


def test_only_consumers_are_routed() -> None:
    async def plain(scope: dict[str, Any], receive: Any, send: Any) -> None:
        raise AssertionError("never served")

    with pytest.raises(TypeError, match="as_asgi"):
        Routes([path("ws/plain/", plain)])
