"""Watchers for the tests: a stand-in member of a board group, and what a client does with a board's messages."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import redis
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer


@contextmanager
def watching(group: str) -> Iterator[None]:
    """While inside, `group` has a member: a stand-in channel nobody reads."""
    layer = get_channel_layer()
    if not isinstance(layer, RedisChannelLayer):
        async_to_sync(layer.group_add)(group, "watcher.stand-in")
        try:
            yield
        finally:
            async_to_sync(layer.group_discard)(group, "watcher.stand-in")
        return
    client = redis.Redis.from_url(layer.hosts[0]["address"])
    key = layer._group_key(group)
    client.zadd(key, {f"{layer.prefix}.watcher!stand-in": time.time()})
    try:
        yield
    finally:
        client.delete(key)
        client.close()


def apply_message(entries: list[dict[str, Any]], message: dict[str, Any]) -> list[dict[str, Any]]:
    """What a client does with a board message: take a snapshot whole, or move one player to their rank."""
    if message["type"] == "snapshot":
        return list(message["entries"])
    entry = message["entry"]
    rest = [e for e in entries if e["player"] != entry["player"]]
    rest.insert(entry["rank"] - 1, entry)
    return [{**e, "rank": i + 1} for i, e in enumerate(rest)]
