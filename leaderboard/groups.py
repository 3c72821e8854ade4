"""Channel-layer group names, and sending to them, in one place (Tabbycat style).

Board ids are `code:SP1-S4C-AAAAAAD` / `daily:2026-11-30:SP1-S4C`: group names
allow no ':' so it becomes '.'.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)


def board_group(board: str) -> str:
    return "board." + board.replace(":", ".")


def room_group(room_id: uuid.UUID | str) -> str:
    return f"room.{room_id}"


def send(group: str, message: dict[str, Any]) -> None:
    """Tell a group's sockets; a channel-layer failure loses the push, never the write behind it."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        # The group rides along: each process's hub routes it to its local sockets (leaderboard.hub).
        async_to_sync(layer.group_send)(group, {**message, "group": group})
    except Exception:  # noqa: BLE001 - the commit already happened; watchers resync on reconnect
        log.exception("could not push to %s", group)
