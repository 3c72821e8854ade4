"""Sockets fed by channel-layer groups that stay open while the layer (Redis) is away.

Channels' consumer asks the layer for its channel before it serves a socket, so with Redis away
no socket could open, not even to play. A LiveConsumer serves its client at once and runs
Channels' own loop (`await_many_dispatch`) over two sources: the client, and its channel once it
has joined a group (`join`). A join that fails leaves the socket serving its client, told
nothing by the layer; its consumer says so to its client.

One watch per event loop (`LayerWatch`) sends itself a message through the layer every second.
When that fails, every live socket of the process is handed `live.paused`; when it comes through
again, each one joins its groups again and is handed `live.resumed` (what was sent meanwhile was
not heard: the consumer sends a fresh state).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Coroutine
from typing import Any, TypeVar

from channels.exceptions import StopConsumer
from channels.layers import get_channel_layer
from channels.utils import await_many_dispatch

from web.sockets.consumer import JsonConsumer

log = logging.getLogger(__name__)
R = TypeVar("R")

PROBE_SECONDS = 1.0  # how often a process checks that the layer carries its messages
ANSWER_SECONDS = 2.0  # how long a join or a probe may take before the layer counts as away


class LiveConsumer(JsonConsumer):
    """A consumer whose groups are joined by `join`; `live_paused` and `live_resumed` are its own to define."""

    channel_name = ""
    live = True  # False while its groups are not joined because the layer was away
    changing: asyncio.Task[None] | None = None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        # What AsyncConsumer.__call__ does, but the channel is asked for when a group is joined.
        self.scope = scope
        self.base_send = send
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        self.joined: list[str] = []
        self.reading: asyncio.Future[None] = asyncio.get_running_loop().create_future()  # done once it has a channel
        try:
            await await_many_dispatch([receive, self.from_layer], self.dispatch)
        except StopConsumer:
            pass
        finally:
            await self.leave()

    async def from_layer(self) -> dict[str, Any]:
        await self.reading
        message: dict[str, Any] = await self.channel_layer.receive(self.channel_name)
        return message

    async def join(self, group: str) -> bool:
        """Follow `group` from now on; False (and paused) while the layer is away."""
        if group not in self.joined:
            self.joined.append(group)
        if self.channel_layer is None:
            return True
        watch = watch_for(self.channel_layer)
        watch.sockets.add(self)
        self.live = await self.join_all()
        if self.live:
            watch.joined()
        else:
            watch.away(but=self)
        return self.live

    async def join_all(self) -> bool:
        try:
            await bounded(self._join_all())
        except Exception as error:  # noqa: BLE001 - any failure of the layer: Redis is away
            log.warning("live updates paused: cannot join %s (%s)", self.joined, error)
            return False
        return True

    async def _join_all(self) -> None:
        if not self.channel_name:
            self.channel_name = await self.channel_layer.new_channel()
        for group in self.joined:
            await self.channel_layer.group_add(group, self.channel_name)
        if not self.reading.done():
            self.reading.set_result(None)

    async def leave(self) -> None:
        if self.channel_layer is None or not self.channel_name:
            return
        for group in self.joined:
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except Exception:  # noqa: BLE001, PERF203 - the layer forgets it by itself; nothing is sent to it
                pass

    def layer_changed(self, up: bool) -> None:
        """From the watch: the layer went away (`up` False) or came back."""
        if up == self.live:
            return
        self.live = up
        self.changing = asyncio.get_running_loop().create_task(self._changed(up))

    async def _changed(self, up: bool) -> None:
        if up and not await self.join_all():
            self.live = False  # away again: the watch tries again
            watch_for(self.channel_layer).away(but=self)
            return
        await self.dispatch({"type": "live.resumed" if up else "live.paused"})

    async def live_paused(self, event: dict[str, Any]) -> None:
        pass

    async def live_resumed(self, event: dict[str, Any]) -> None:
        pass


class LayerWatch:
    """Whether this event loop's channel layer carries messages, told to its live sockets as it changes.

    A probe is a message to the watch's own channel, which one task reads for as long as the watch
    lives. That channel is asked for only just after a socket has joined (the layer answers then);
    until it has one, a probe is a message to a group nobody is in. So a probe never subscribes
    while the layer is reconnecting: channels_redis's pub/sub layer reconnects its one subscribing
    connection from its reading task, and a subscription asked for at the same moment (every
    second, as the probe would) makes both fail, over and over."""

    def __init__(self, layer: Any) -> None:
        self.layer = layer
        self.up = True
        self.sockets: weakref.WeakSet[LiveConsumer] = weakref.WeakSet()
        self.channel = ""
        self.sent = 0
        self.heard: asyncio.Future[int] | None = None
        self.reader: asyncio.Task[None] | None = None
        self.task = asyncio.get_running_loop().create_task(self.run())

    def away(self, *, but: LiveConsumer | None = None) -> None:
        """A socket found the layer away: the others are told at once, not at the next probe."""
        self.up = False
        for socket in list(self.sockets):
            if socket is not but:
                socket.layer_changed(False)

    def joined(self) -> None:
        """A socket has just joined its groups: the layer answers, and the watch can have a channel."""
        if self.reader is None or self.reader.done():
            self.reader = asyncio.get_running_loop().create_task(self.read())

    async def run(self) -> None:
        try:
            while True:
                await asyncio.sleep(PROBE_SECONDS)
                up = await self.answers()
                if up == self.up and up:
                    continue
                if not up and self.up:
                    log.warning("live updates paused: the channel layer does not answer")
                self.up = up
                for socket in list(self.sockets):
                    socket.layer_changed(up)
        finally:
            if self.reader is not None:
                self.reader.cancel()

    async def read(self) -> None:
        if not self.channel:
            self.channel = await self.layer.new_channel()
        while True:
            message = await self.layer.receive(self.channel)
            if self.heard is not None and not self.heard.done() and message.get("probe") == self.sent:
                self.heard.set_result(self.sent)

    async def answers(self) -> bool:
        """A message to this watch's own channel comes back through the layer (or, before it has
        one, a message to a group nobody is in is taken)."""
        self.sent += 1
        probe = {"type": "live.probe", "probe": self.sent}
        reading = self.reader is not None and not self.reader.done() and bool(self.channel)
        self.heard = asyncio.get_running_loop().create_future()
        try:
            if not reading:
                await bounded(self.layer.group_send("live.probe", probe))
                return True
            await bounded(self.layer.send(self.channel, probe))
            async with asyncio.timeout(ANSWER_SECONDS):
                await self.heard
        except Exception:  # noqa: BLE001 - any failure of the layer: Redis is away
            return False
        return True


_pending: set[asyncio.Task[Any]] = set()  # layer calls that outlived their wait (bounded)


async def bounded(call: Coroutine[Any, Any, R]) -> R:
    """`call`, waited for at most ANSWER_SECONDS (TimeoutError then). It is never cancelled: a
    call into the layer cut off halfway could leave its Redis connection half made."""
    task = asyncio.get_running_loop().create_task(call)
    _pending.add(task)
    task.add_done_callback(_pending.discard)
    return await asyncio.wait_for(asyncio.shield(task), ANSWER_SECONDS)


_watches: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, LayerWatch] = weakref.WeakKeyDictionary()


def watch_for(layer: Any) -> LayerWatch:
    """This event loop's watch on `layer` (a test that swaps the layer gets a new one)."""
    loop = asyncio.get_running_loop()
    watch = _watches.get(loop)
    if watch is None or watch.layer is not layer:
        if watch is not None:
            watch.task.cancel()
        watch = _watches[loop] = LayerWatch(layer)
    return watch


def layer_answers() -> bool:
    """False while this event loop's watch finds the layer away."""
    watch = _watches.get(asyncio.get_running_loop())
    return watch is None or watch.up


async def close_watch() -> None:
    """Stop this event loop's watch (tests, between event loops)."""
    watch = _watches.pop(asyncio.get_running_loop(), None)
    if watch is not None:
        watch.task.cancel()
        await asyncio.gather(watch.task, return_exceptions=True)
