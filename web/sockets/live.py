"""Sockets fed by channel-layer groups through one channel per process (`LocalGroups`), which hands
each group message to its sockets (`LiveConsumer.deliver`): no channel and task per socket (the cost
of a push to thousands of watchers), and a socket opens and serves while the layer (Redis) is away.
A probe through the layer every second tells the sockets `live.paused`, then `live.resumed` once the
groups are joined again (what was sent meanwhile was not heard: the consumer sends a fresh state).
The layer counts as away when it fails (Redis refuses) or stays silent for two probes running; a slow
answer alone is a busy server, not an outage, and pauses nobody.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Coroutine
from typing import Any, TypeVar

from channels.exceptions import StopConsumer
from channels.layers import get_channel_layer

from web.sockets.consumer import JsonConsumer

log = logging.getLogger(__name__)
R = TypeVar("R")

PROBE_SECONDS = 1.0  # how often a process checks that the layer carries its messages
ANSWER_SECONDS = 3.0  # how long a probe may take before it counts as silent
SILENT_PROBES = 2  # silent probes running before the layer counts as away


class LiveConsumer(JsonConsumer):
    """A consumer that follows groups (`join`) through its process's channel."""

    followed: list[str]  # its groups (Channels' own `groups` are joined with a channel of the socket's own)
    in_order: asyncio.Lock  # a message delivered waits for the socket's first state, and for the ones before it

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        # AsyncConsumer.__call__ without a channel of its own: the client's messages, awaited directly.
        self.scope = scope
        self.base_send = send
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        self.followed = []
        self.in_order = asyncio.Lock()
        try:
            while True:
                await self.dispatch(await receive())
        except StopConsumer:
            pass
        finally:
            if self.channel_layer is not None:
                for group in self.followed:
                    local_groups(self.channel_layer).leave(group, self)

    async def join(self, group: str) -> bool:
        """Follow `group` from now on; False while the layer is away (`live.resumed` comes once it is back)."""
        self.followed.append(group)
        if self.channel_layer is None:
            return True
        return await local_groups(self.channel_layer).join(group, self)

    async def deliver(self, message: dict[str, Any]) -> None:
        """A message of one of its groups, in the process's turn (no I/O here): handled in a task, in order."""
        spawn(self._handle(message))

    async def _handle(self, message: dict[str, Any]) -> None:
        async with self.in_order:
            await self.dispatch(message)

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        async with self.in_order:
            await super().websocket_connect(message)

    async def live_paused(self, event: dict[str, Any]) -> None:
        pass

    async def live_resumed(self, event: dict[str, Any]) -> None:
        pass


class LocalGroups:
    """This event loop's one channel on the layer, its groups, and whether the layer carries messages now.

    The channel is asked for only when the layer answers: channels_redis's pub/sub layer reconnects
    from its reading task, and a subscription asked for at the same moment makes both fail, over and over."""

    def __init__(self, layer: Any) -> None:
        self.layer = layer
        self.up = True
        self.members: dict[str, set[LiveConsumer]] = {}
        self.joined: set[str] = set()
        self.channel = ""
        self.sent = 0
        self.heard: asyncio.Future[int] | None = None
        self.reader: asyncio.Task[None] | None = None
        self.lock = asyncio.Lock()  # one group_add or group_discard at a time
        self.task = asyncio.get_running_loop().create_task(self.run())

    async def join(self, group: str, socket: LiveConsumer) -> bool:
        self.members.setdefault(group, set()).add(socket)
        if group in self.joined:
            return self.up
        if not self.up:
            return False  # joined when the layer is back (run)
        if not await self.add([group]):
            self.tell(False, but=socket)  # which says so itself, after its first state
            return False
        return True

    def leave(self, group: str, socket: LiveConsumer) -> None:
        members = self.members.get(group)
        if members is not None:
            members.discard(socket)
            if not members:
                del self.members[group]
                spawn(self.discard(group))

    async def add(self, groups: list[str]) -> bool:
        """Join `groups`: waited for while the probe finds the layer up, never cancelled (that could
        leave a connection half made); False once the layer fails or the probe finds it away."""
        adding = spawn(self._add(groups))
        while True:
            try:
                await asyncio.wait_for(asyncio.shield(adding), ANSWER_SECONDS)
                return True
            except TimeoutError:
                if self.up:
                    continue  # slow, not away: the probe decides that
                log.warning("live updates paused: cannot join %s (the layer does not answer)", groups)
            except Exception as error:  # noqa: BLE001 - any failure of the layer: Redis is away
                log.warning("live updates paused: cannot join %s (%s)", groups, error)
            return False

    async def _add(self, groups: list[str]) -> None:
        async with self.lock:
            if not self.channel:
                self.channel = await self.layer.new_channel()
            for group in groups:
                await self.layer.group_add(group, self.channel)
                self.joined.add(group)
            if self.reader is None or self.reader.done():
                self.reader = asyncio.get_running_loop().create_task(self.read())

    async def discard(self, group: str) -> None:
        async with self.lock:
            if group in self.members or group not in self.joined:
                return  # joined again meanwhile
            self.joined.discard(group)
            try:
                await self.layer.group_discard(group, self.channel)
            except Exception:  # noqa: BLE001 - messages for it are dropped here; the layer forgets it in time
                pass

    async def read(self) -> None:
        while True:
            message = await self.layer.receive(self.channel)
            if message.get("type") == "live.probe":
                if self.heard is not None and not self.heard.done() and message.get("probe") == self.sent:
                    self.heard.set_result(self.sent)
                continue
            for socket in list(self.members.get(message.get("group", ""), ())):
                try:
                    await socket.deliver(message)
                except Exception:  # noqa: BLE001 - one broken socket must not starve the others
                    log.exception("could not deliver %s", message.get("type"))

    async def run(self) -> None:
        silent = 0
        try:
            while True:
                await asyncio.sleep(PROBE_SECONDS)
                try:
                    await self.probe()
                    up, silent = True, 0
                except TimeoutError:
                    silent += 1
                    up = self.up and silent < SILENT_PROBES
                except Exception:  # noqa: BLE001 - any failure of the layer: Redis is away
                    up = False
                if up and not self.up:
                    up = await self.add(list(self.members))  # the layer may have forgotten them all
                if up != self.up:
                    if not up:
                        log.warning("live updates paused: the channel layer does not answer")
                    self.tell(up)
        finally:
            if self.reader is not None:
                self.reader.cancel()

    def tell(self, up: bool, *, but: LiveConsumer | None = None) -> None:
        if up == self.up:
            return
        self.up = up
        notice = {"type": "live.resumed" if up else "live.paused"}
        for members in list(self.members.values()):
            for socket in list(members):
                if socket is not but:
                    spawn(socket.deliver(notice))

    async def probe(self) -> None:
        """A message to this process's channel comes back (before it has one: a group send is taken);
        TimeoutError when it does not within ANSWER_SECONDS, the layer's error when it fails."""
        self.sent += 1
        probe = {"type": "live.probe", "probe": self.sent}
        reading = self.reader is not None and not self.reader.done()
        self.heard = asyncio.get_running_loop().create_future()
        if not reading:
            await bounded(self.layer.group_send("live.probe", probe))
            return
        await bounded(self.layer.send(self.channel, probe))
        async with asyncio.timeout(ANSWER_SECONDS):
            await self.heard


_pending: set[asyncio.Task[Any]] = set()  # tasks kept until done


def spawn(call: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
    task = asyncio.get_running_loop().create_task(call)
    _pending.add(task)
    task.add_done_callback(_pending.discard)
    return task


async def bounded(call: Coroutine[Any, Any, R]) -> R:
    """`call`, waited for at most ANSWER_SECONDS, never cancelled (it could leave a connection half made)."""
    return await asyncio.wait_for(asyncio.shield(spawn(call)), ANSWER_SECONDS)


_by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, LocalGroups] = weakref.WeakKeyDictionary()


def local_groups(layer: Any) -> LocalGroups:
    """This event loop's groups on `layer` (a test that swaps the layer gets new ones)."""
    loop = asyncio.get_running_loop()
    found = _by_loop.get(loop)
    if found is None or found.layer is not layer:
        if found is not None:
            found.task.cancel()
        found = _by_loop[loop] = LocalGroups(layer)
    return found


def layer_answers() -> bool:
    """False while this event loop finds the layer away."""
    found = _by_loop.get(asyncio.get_running_loop())
    return found is None or found.up


async def close_local_groups() -> None:
    """Stop this event loop's reader and probe (tests, between event loops)."""
    found = _by_loop.pop(asyncio.get_running_loop(), None)
    if found is not None:
        found.task.cancel()
        await asyncio.gather(found.task, return_exceptions=True)
