"""One channel-layer subscription per process and group, fanned out in memory to the process's sockets.

channels_redis delivers a group message as one list entry per member channel, and a process
pops them one BRPOP at a time: 500 watchers of a board in one process cost 500 Redis round
trips per change, one after another. Here a process joins each group once, with one channel
of its own, and hands each message to every local socket of that group: one round trip per
process per change.

Every socket of a group is handed the same message dict: a board's change is encoded once per
process and its bytes written to each watcher (leaderboard.consumers, web.sockets.frames). It lives
in games, beside the group names (games.groups), since the play sockets (games.consumers) use it too.

It also keeps the sockets open while the layer (Redis) is away: joining then fails, or the
receive loop breaks; the sockets are told `live.paused`, the hub retries every second, and
when the layer answers again it rejoins every group and tells them `live.resumed` (they send
a fresh snapshot: what happened meanwhile was not pushed).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Any, Protocol

from operations import metrics

log = logging.getLogger(__name__)

RETRY_SECONDS = 1.0
# channels_redis forgets a group member after a day (group_expiry): rejoin well before.
REJOIN_SECONDS = 3600.0


class Member(Protocol):
    """A socket of the process: takes a group message at once (it must not wait on I/O)."""

    async def deliver(self, message: dict[str, Any]) -> None: ...


class Hub:
    def __init__(self, layer: Any) -> None:
        self.layer = layer
        self.channel = ""
        self.members: dict[str, set[Member]] = {}
        self.joined: dict[str, float] = {}  # group -> loop time it was last added
        self.lock = asyncio.Lock()  # group_add / group_discard one at a time
        self.paused = False
        self.task: asyncio.Task[None] | None = None

    async def join(self, group: str, member: Member) -> bool:
        """Deliver the group's messages to `member` from now on; False while the layer is away."""
        self.members.setdefault(group, set()).add(member)
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run())
        if self.paused:
            return False
        return await self._add(group)

    def leave(self, group: str, member: Member) -> None:
        members = self.members.get(group)
        if members is None:
            return
        members.discard(member)
        if not members:
            del self.members[group]
            asyncio.get_running_loop().create_task(self._discard(group))

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)

    async def _add(self, group: str) -> bool:
        loop = asyncio.get_running_loop()
        async with self.lock:
            if loop.time() - self.joined.get(group, -REJOIN_SECONDS) < REJOIN_SECONDS:
                return True
            try:
                if not self.channel:
                    self.channel = await self.layer.new_channel()
                await self.layer.group_add(group, self.channel)
            except Exception as error:  # noqa: BLE001 - any layer failure: Redis is away
                log.warning("live updates paused: cannot join %s (%s)", group, error)
                return False
            self.joined[group] = loop.time()
            return True

    async def _discard(self, group: str) -> None:
        async with self.lock:
            if group in self.members or group not in self.joined:
                return  # someone joined again meanwhile
            del self.joined[group]
            try:
                await self.layer.group_discard(group, self.channel)
            except Exception:  # noqa: BLE001 - it expires by itself; messages for it are dropped here
                pass

    async def _run(self) -> None:
        while True:
            if not self.channel:
                await self._recover()
                continue
            try:
                message = await self.layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # noqa: BLE001 - the layer is away
                log.warning("live updates paused: the channel layer failed (%s)", error)
                await self._recover()
                continue
            await self._deliver(list(self.members.get(message.get("group", ""), ())), message)

    async def _recover(self) -> None:
        """Tell every socket, then rejoin every group once the layer answers, and tell them again."""
        self.paused = True
        await self._tell_all({"type": "live.paused"})
        self.joined.clear()
        while True:
            await asyncio.sleep(RETRY_SECONDS)
            groups = list(self.members)
            if all([await self._add(group) for group in groups]) and self.channel:
                break
        self.paused = False
        await self._tell_all({"type": "live.resumed"})

    async def _tell_all(self, message: dict[str, Any]) -> None:
        await self._deliver([m for members in self.members.values() for m in members], message)

    @staticmethod
    async def _deliver(members: list[Member], message: dict[str, Any]) -> None:
        # In this task, one after another: no task or queue per socket (that was most of the cost).
        metrics.push_arrived(message, len(members))
        for member in members:
            try:
                await member.deliver(message)
            except Exception:  # noqa: BLE001 - one broken socket must not starve the others
                log.exception("could not deliver %s", message.get("type"))


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def hub_for(layer: Any) -> Hub:
    """This event loop's hub on `layer` (a test that swaps the layer gets a new one)."""
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None or hub.layer is not layer:
        if hub is not None and hub.task is not None:
            hub.task.cancel()
        hub = _hubs[loop] = Hub(layer)
    return hub


def members_here(group: str) -> int:
    """How many of this event loop's sockets are in `group`."""
    hub = _hubs.get(asyncio.get_running_loop())
    return 0 if hub is None else len(hub.members.get(group, ()))


def live_here() -> bool:
    """False while this event loop's hub finds the layer away: a push from here would fail too."""
    hub = _hubs.get(asyncio.get_running_loop())
    return hub is None or not hub.paused


async def close_hub() -> None:
    """Stop this event loop's hub (tests, between event loops)."""
    hub = _hubs.pop(asyncio.get_running_loop(), None)
    if hub is not None:
        await hub.close()
