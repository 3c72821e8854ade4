"""Pins of the library internals web.adapters relies on: each fails if a release changes one."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest
from channels.consumer import AsyncConsumer
from channels.exceptions import StopConsumer
from channels_redis.core import RedisChannelLayer
from django.conf import settings
from psycopg_pool import ConnectionPool

from web import adapters


class Probe(AsyncConsumer):
    channel_layer_alias = "no-such-layer"  # get_channel_layer answers None: no channel of its own

    async def dispatch(self, message: dict[str, Any]) -> None:
        raise StopConsumer  # at the first message (Channels' own would close old database connections)


async def _send(message: dict[str, Any]) -> None:
    pass


async def test_a_consumer_is_set_up_as_channels_sets_it_up() -> None:
    """start_consumer sets what AsyncConsumer.__call__ sets, no more and no less: a Channels that
    sets something else on a consumer fails this."""
    scope = {"type": "websocket", "path": "/ws/x/"}

    async def connect() -> dict[str, Any]:
        return {"type": "websocket.connect"}

    theirs, ours = Probe(), Probe()
    await theirs(scope, connect, _send)
    adapters.start_consumer(ours, scope, _send, None)
    assert vars(ours) == vars(theirs) == {"scope": scope, "channel_layer": None, "base_send": _send}


async def test_consume_hands_every_source_s_messages_to_dispatch_until_stopped() -> None:
    seen: list[str] = []

    class Recorder(Probe):
        async def dispatch(self, message: dict[str, Any]) -> None:
            seen.append(message["type"])
            if len(seen) == 3:
                raise StopConsumer

    client: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    for queue, kind in ((client, "websocket.receive"), (inbox, "board.change"), (client, "websocket.receive")):
        queue.put_nowait({"type": kind})
    await asyncio.wait_for(adapters.consume(Recorder(), {}, client.get, _send, also=inbox.get), 5)
    assert sorted(seen) == ["board.change", "websocket.receive", "websocket.receive"]


class _Recording:
    """A stand-in for the layer's Redis connection: the keys group_add writes to."""

    def __init__(self) -> None:
        self.keys: list[bytes] = []

    async def zadd(self, key: bytes, mapping: dict[str, float]) -> None:
        self.keys.append(key)

    async def expire(self, key: bytes, seconds: int) -> None:
        pass


async def test_the_group_key_is_where_channels_redis_keeps_a_group_s_members() -> None:
    layer = RedisChannelLayer(hosts=["redis://127.0.0.1:6379/0"], prefix="pin")
    recording = _Recording()
    layer.connection = lambda index: recording  # type: ignore[method-assign]
    await layer.group_add("board.x", "specific.channel!abc")
    assert adapters.redis_group_key(layer, "board.x") == ("redis://127.0.0.1:6379/0", recording.keys[0])


def test_no_group_key_is_guessed_for_a_sharded_or_configured_layer() -> None:
    sharded = RedisChannelLayer(hosts=["redis://127.0.0.1:6379/0", "redis://127.0.0.1:6380/0"])
    configured = RedisChannelLayer(hosts=[{"address": "redis://127.0.0.1:6379/0", "retry_on_timeout": True}])
    assert adapters.redis_group_key(sharded, "g") is None
    assert adapters.redis_group_key(configured, "g") is None


@pytest.mark.redis
async def test_the_group_key_exists_in_redis_exactly_while_the_group_has_a_member() -> None:
    import redis

    layer = RedisChannelLayer(hosts=[settings.REDIS_URL], prefix=f"pin-{uuid.uuid4().hex[:8]}")
    address, key = adapters.redis_group_key(layer, "room.pin") or ("", b"")
    client = redis.Redis.from_url(address)
    channel = await layer.new_channel()
    try:
        await layer.group_add("room.pin", channel)
        assert client.exists(key)
        await layer.group_discard("room.pin", channel)
        assert not client.exists(key)
    finally:
        await layer.flush()


def _checked(conn: Any) -> None:
    pass


def test_a_pool_keeps_the_check_it_was_given_where_it_is_replaced() -> None:
    pool = ConnectionPool("", open=False, check=ConnectionPool.check_connection)
    assert pool._check is ConnectionPool.check_connection  # what Django hands the pool
    adapters.replace_pool_check(pool, _checked)
    assert pool._check is _checked
    none_asked = ConnectionPool("", open=False)
    adapters.replace_pool_check(none_asked, _checked)  # CONN_HEALTH_CHECKS off: nothing to replace
    assert none_asked._check is None


@pytest.mark.django_db
@pytest.mark.postgres
def test_the_pool_runs_the_replaced_check_on_each_connection_it_hands_out() -> None:
    from django.db import connection

    checked: list[object] = []
    params = {**connection.get_connection_params(), "autocommit": True}
    pool = ConnectionPool(kwargs=params, min_size=1, max_size=1, open=False, check=ConnectionPool.check_connection)
    adapters.replace_pool_check(pool, checked.append)
    pool.open(wait=True, timeout=10)
    try:
        with pool.connection(timeout=10) as conn:
            pass
        assert checked == [conn]
    finally:
        pool.close()


# daphne, autobahn, Twisted: the way from a socket's send to its transport, and the transport's buffer.


async def test_the_daphne_protocol_is_found_behind_the_sends_that_wrap_daphne_s() -> None:
    from channels.sessions import InstanceSessionWrapper
    from daphne.ws_protocol import WebSocketProtocol

    from operations.asgi import Socket
    from operations.server import GracefulServer

    given: list[Any] = []

    async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
        given.append(send)

    server = GracefulServer(application=application, endpoints=["tcp:port=0"])  # the workers' daphne
    protocol = WebSocketProtocol()
    server.connections = {protocol: {}}
    server.create_application(protocol, {"type": "websocket"})
    await asyncio.sleep(0)
    (send,) = given
    operated = Socket({"type": "websocket"}, None, send)
    wrapped = InstanceSessionWrapper({"type": "websocket", "cookies": {}}, operated.send)
    assert adapters.daphne_websocket(send) is protocol
    assert adapters.daphne_websocket(wrapped.send) is protocol
    assert adapters.daphne_websocket(_send) is None
    for name in ("STATE_OPEN", "SEND_STATE_GROUND"):
        assert hasattr(WebSocketProtocol, name)


def test_what_a_transport_has_not_written_yet_is_counted() -> None:
    from twisted.internet.abstract import FileDescriptor

    class Transport(FileDescriptor):
        def startWriting(self) -> None:  # no reactor here: the bytes stay buffered
            pass

    transport = Transport()
    transport.connected = True
    transport.write(b"abc")
    transport.write(b"defg")

    class Protocol:
        pass

    protocol = Protocol()
    protocol.transport = transport  # type: ignore[attr-defined]
    assert adapters.unsent_bytes(protocol) == 7


def test_twisted_tcp_writes_some_data_at_once_and_says_how_much() -> None:
    import inspect

    from twisted.internet.tcp import Connection

    assert list(inspect.signature(Connection.writeSomeData).parameters) == ["self", "data"]
    assert {"connected", "disconnecting"} <= set(dir(Connection))


def test_an_http_channel_produces_for_its_transport_until_released_and_pauses_nothing_while_handling() -> None:
    """operations.upgrade lets an upgraded connection's channel go: Twisted registered it as the
    transport's producer, and a channel still handling its request (as an upgraded one always is)
    pauses nothing when the transport's buffer fills: unregistering it changes nothing in how the
    socket flows."""
    from twisted.internet.testing import StringTransport
    from twisted.web.http import HTTPChannel, Request

    class Pending(Request):
        def process(self) -> None:  # never answered, as daphne leaves the request it upgraded
            pass

    channel = HTTPChannel()
    channel.timeOut = None  # no idle timer in the reactor
    channel.requestFactory = Pending
    transport = StringTransport()
    channel.makeConnection(transport)
    assert transport.producer is channel
    channel.dataReceived(b"GET /ws/ HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n\r\n")
    assert len(channel.requests) == 1 and transport.producerState == "producing"
    channel.pauseProducing()  # what the transport does when its buffer fills
    assert transport.producerState == "producing"
    adapters.release_upgraded_channel(channel)
    assert transport.producer is None


def test_channels_session_wrapper_acts_on_http_answers_only() -> None:
    """web.sockets.resolved gives a socket the send beneath the wrapper: the wrapper saves the session
    and sets its cookie with an HTTP answer only, so a socket's messages passed it unchanged."""
    from channels.sessions import InstanceSessionWrapper

    assert InstanceSessionWrapper.save_message_types == ["http.response.start"]
    assert InstanceSessionWrapper.cookie_response_message_types == ["http.response.start"]
