"""Channel-layer group names, and sending to them, in one place (Tabbycat style).

Board ids are `code:SP1-S4C-AAAAAAD` / `daily:2026-11-30:SP1-S4C`: group names
allow no ':' so it becomes '.'.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

import redis
from channels.layers import InMemoryChannelLayer, get_channel_layer
from channels_redis.core import RedisChannelLayer
from django.conf import settings

from operations import metrics
from web import storage
from web.adapters import redis_group_key

log = logging.getLogger(__name__)


def board_group(board: str) -> str:
    return "board." + board.replace(":", ".")


def room_group(room_id: uuid.UUID | str) -> str:
    return f"room.{room_id}"


def session_group(session_id: uuid.UUID) -> str:
    """The play sockets of one session (all of them its player's own: games.consumers)."""
    return f"session.{session_id}"


async def send(group: str, message: dict[str, Any]) -> None:
    """Tell a group's sockets; a channel-layer failure loses the push, never the write behind it.
    Sync code calls it through asgiref's async_to_sync."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        await layer.group_send(group, metrics.push_sent({**message, "group": group}))
    except Exception:  # noqa: BLE001 - the commit already happened; watchers resync on reconnect
        log.exception("could not push to %s", group)


async def watched(group: str) -> bool:
    """False only when no process listens to `group`: then a push to it (and on the embedded
    default the query for the rank it would carry) can be skipped.

    A push is channels_redis's two round trips, for nobody, on most boards (a code's board has no
    watchers most of the time): one EXISTS on the group's key answers first. A watcher joins before
    it reads its snapshot (leaderboard.consumers), so one who joins after this answered reads a
    board that already has the change. Any doubt (another layer, sharded or unusual hosts, Redis
    failing) answers True: the push is tried as before.
    """
    asked = watch_key(group)
    if isinstance(asked, bool):
        return asked
    client = storage.redis_client()
    try:
        return bool(await client.exists(asked[1])) if client is not None else True
    except (redis.RedisError, OSError):
        return True


async def other_processes(group: str, *, here: bool) -> bool:
    """Whether a process other than this one is in `group` (`here`: this one is): each process's hub
    is one member of the group. Any doubt (another layer, Redis failing) answers True."""
    asked = watch_key(group)
    if isinstance(asked, bool):
        return asked and not isinstance(get_channel_layer(), InMemoryChannelLayer)  # in memory: one process
    client = storage.redis_client()
    try:
        return int(await client.zcard(asked[1])) > (1 if here else 0) if client is not None else True
    except (redis.RedisError, OSError):
        return True


def watch_key(group: str) -> bool | tuple[str, bytes]:
    """The Redis address (REDIS_URL's, the one the loop's client speaks to) and key whose existence
    says whether `group` has members, or the answer itself."""
    layer = get_channel_layer()
    if layer is None:
        return False
    if isinstance(layer, InMemoryChannelLayer):
        return bool(layer.groups.get(group))  # the embedded default: one process, whose members it holds
    found = redis_group_key(layer, group) if isinstance(layer, RedisChannelLayer) else None
    return True if found is None or found[0] != settings.REDIS_URL else found
