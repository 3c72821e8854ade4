"""Watchers for the tests: a stand-in member of a board group, and what a client does with a board's messages."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer


@contextmanager
def watching(group: str) -> Iterator[None]:
    """While inside, `group` has a member: a stand-in channel nobody reads. On Redis every group
    counts as watched (a push is one PUBLISH whoever listens, games.groups.watched)."""
    layer = get_channel_layer()
    if not isinstance(layer, InMemoryChannelLayer):
        yield
        return
    async_to_sync(layer.group_add)(group, "watcher.stand-in")
    try:
        yield
    finally:
        async_to_sync(layer.group_discard)(group, "watcher.stand-in")


def apply_message(entries: list[dict[str, Any]], message: dict[str, Any]) -> list[dict[str, Any]]:
    """What a client does with a board message: take a snapshot whole, or move one player to their rank."""
    if message["type"] == "snapshot":
        return list(message["entries"])
    entry = message["entry"]
    rest = [e for e in entries if e["player"] != entry["player"]]
    rest.insert(entry["rank"] - 1, entry)
    return [{**e, "rank": i + 1} for i, e in enumerate(rest)]
