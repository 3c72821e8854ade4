"""Channel-layer group names, and sending to them, in one place (Tabbycat style).

Board ids are `code:SP1-S4C-AAAAAAD` / `daily:2026-11-30:SP1-S4C`: group names
allow no ':' so it becomes '.'.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

from channels.layers import InMemoryChannelLayer, get_channel_layer

from operations import metrics
from web.sockets.live import layer_answers

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
    Sync code calls it through asgiref's async_to_sync. Skipped while this event loop finds the layer
    away (web.sockets.live): each action's push would fail the same way."""
    layer = get_channel_layer()
    if layer is None or not layer_answers():
        return
    try:
        await layer.group_send(group, metrics.push_sent({**message, "group": group}))
    except Exception:  # noqa: BLE001 - the commit already happened; watchers resync on reconnect
        log.exception("could not push to %s", group)


def watched(group: str) -> bool:
    """False only when no socket listens to `group`: then a push to it (and on the embedded default
    the query for the rank it would carry) can be skipped. No I/O: sync and async code call it alike.

    Only the embedded default's layer, which holds every member of this one process, can tell.
    On Redis a push is one message whoever listens (the pub/sub layer): it is always sent.
    """
    layer = get_channel_layer()
    if layer is None:
        return False
    if isinstance(layer, InMemoryChannelLayer):
        return bool(layer.groups.get(group))
    return True
