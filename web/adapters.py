"""The service's only reaches into libraries' internals, each where no public API does the job.

Each access is one small function here, saying why, and tests/foundation/test_adapters.py pins
the library behaviour it relies on: a release that changes it fails a test instead of the service.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from channels.exceptions import StopConsumer
from channels.utils import await_many_dispatch

if TYPE_CHECKING:
    from channels.consumer import AsyncConsumer
    from channels_redis.core import RedisChannelLayer
    from psycopg_pool import ConnectionPool

Receive = Callable[[], Awaitable[dict[str, Any]]]


# Channels. AsyncConsumer.__call__ asks the channel layer for a channel of the consumer's own and
# feeds every message through await_many_dispatch (a task and an asyncio.wait per message). A
# socket with no layer has one source, the client; a live board's socket is fed by its process's
# hub (games.hub), not by a channel. Channels has no hook for the receive loop, so such a
# consumer sets up what __call__ would and runs its own.


def start_consumer(consumer: AsyncConsumer, scope: dict[str, Any], send: Any, channel_layer: Any) -> None:
    """What AsyncConsumer.__call__ sets on an async consumer before its loop, without a channel."""
    consumer.scope = scope
    consumer.channel_layer = channel_layer
    consumer.base_send = send


async def consume(
    consumer: AsyncConsumer,
    scope: dict[str, Any],
    receive: Receive,
    send: Any,
    *,
    channel_layer: Any = None,
    also: Receive | None = None,
) -> None:
    """Serve a socket as AsyncConsumer.__call__ does, its messages from the client and `also`."""
    start_consumer(consumer, scope, send, channel_layer)
    try:
        if also is None:
            while True:  # the client alone: awaited directly, no task per message
                await consumer.dispatch(await receive())
        else:
            await await_many_dispatch([receive, also], consumer.dispatch)
    except StopConsumer:
        pass


# daphne, autobahn and Twisted. A push to a board's watchers is one text for thousands of sockets;
# the ASGI send would take each through daphne's reply hops and autobahn's framing, and ASGI has no
# way to see how much a socket still owes its client. daphne gives each application
# `partial(server.handle_reply, protocol)` as its send; the protocol is autobahn's, its transport
# Twisted's, whose write buffer holds what the kernel has not taken yet. Between the two stand
# sends that pass a socket's frames on unchanged: Channels' session wrapper (it acts on
# `http.response.start` only), whose `real_send` is the one it wraps, and operations.asgi.Socket,
# whose `server_send` is.


def under_session(send: Any) -> Any:
    """The send that Channels' session wrapper wraps, if `send` is the wrapper's. The wrapper acts on
    HTTP answers only (its save_message_types): a socket's messages pass it unchanged."""
    from channels.sessions import InstanceSessionWrapper

    owner = getattr(send, "__self__", None)
    return owner.real_send if isinstance(owner, InstanceSessionWrapper) else send


def server_send_owner(send: Any) -> Any | None:
    """The object whose method is the send under Channels' session wrapper (the worker's
    operations.asgi.Socket), or None if that send is no bound method."""
    return getattr(under_session(send), "__self__", None)


def daphne_websocket(send: Any) -> Any | None:
    """The daphne WebSocket protocol behind `send`; None under any other server (or a test's)."""
    from daphne.ws_protocol import WebSocketProtocol

    send = under_session(send)
    send = getattr(getattr(send, "__self__", None), "server_send", send)
    if isinstance(send, partial) and send.args and isinstance(send.args[0], WebSocketProtocol):
        return send.args[0]
    return None


def unsent_bytes(protocol: Any) -> int:
    """What the socket's transport holds that the kernel has not taken (Twisted's FileDescriptor)."""
    transport = protocol.transport
    return 0 if transport is None else _buffered(transport)


def _buffered(transport: Any) -> int:
    return int(len(transport.dataBuffer) - transport.offset + transport._tempDataLen)


def write_frame(protocol: Any, wire: bytes) -> bool:
    """Write a whole, ready-made server frame as autobahn's sendMessage would, when nothing it holds
    would be overtaken (no per-message compression, no frame begun, its own send queue empty);
    False, writing nothing, otherwise. A socket no longer open takes nothing, as with autobahn."""
    if protocol.state != protocol.STATE_OPEN:
        return True
    if protocol._perMessageCompress is not None or protocol.send_state != protocol.SEND_STATE_GROUND:
        return False
    if protocol.send_queue:
        return False
    _write_now(protocol.transport, wire)
    return True


def _write_now(transport: Any, data: bytes) -> None:
    """`transport.write(data)`, but into the socket at once when nothing waits before it: Twisted's
    write would register the socket for writing, wait for the next poll, write and unregister it
    (two more system calls and its dispatch, per watcher). What the kernel does not take, and any
    write to a transport other than plain TCP, is left to Twisted as usual."""
    from twisted.internet.tcp import Connection

    plain_tcp = isinstance(transport, Connection)  # (not narrowed: Twisted's write is untyped)
    if not plain_tcp or not transport.connected or transport.disconnecting:
        transport.write(data)
        return
    if _buffered(transport) > 0:
        transport.write(data)  # behind what is buffered
        return
    written = transport.writeSomeData(data)
    if not isinstance(written, int):
        transport.write(data)  # the connection is lost: Twisted's own write path finds it and closes
    elif written < len(data):
        transport.write(data[written:])


# Twisted. An HTTP channel registers itself as its transport's producer when its connection is made
# (HTTPChannel.connectionMade, through its private _networkProducer) and unregisters itself only when
# it closes the connection; a connection daphne upgraded to a WebSocket it never closes
# (operations.upgrade).


def release_upgraded_channel(channel: Any) -> None:
    """Unregister `channel` as the producer of the transport it registered itself with."""
    channel._networkProducer.unregisterProducer()


# channels_redis. Whether anyone listens to a group is one EXISTS on the key that holds its
# members (games.groups.watched); the layer names that key only in its private _group_key.


def redis_group_key(layer: RedisChannelLayer, group: str) -> tuple[str, bytes] | None:
    """The Redis address and key holding `group`'s members, on a layer of one plain address; None
    on any other (sharded, or hosts given with options), where the answer would be a guess."""
    if len(layer.hosts) != 1 or set(layer.hosts[0]) != {"address"}:
        return None
    return str(layer.hosts[0]["address"]), bytes(layer._group_key(group))


# psycopg_pool. Django builds the pool itself and, with CONN_HEALTH_CHECKS, passes it
# check=ConnectionPool.check_connection (a round trip per request). The pool OPTIONS cannot name
# another check (Django passes `check` itself, a second one is a TypeError) and the pool has no
# setter: its attribute is replaced (web.database.postgres).


def replace_pool_check(pool: ConnectionPool, check: Callable[[Any], None]) -> None:
    """Have `pool` check connections with `check` where Django gave it psycopg's round trip."""
    from psycopg_pool import ConnectionPool

    if pool._check is ConnectionPool.check_connection:
        pool._check = check
