"""A stand-in watcher: a member in a board group's channel-layer set, as a process's hub adds one."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

import redis
from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer


@contextmanager
def watching(group: str) -> Iterator[None]:
    """While inside, `group` has a member (with the in-memory layer every group counts as watched)."""
    layer = get_channel_layer()
    if not isinstance(layer, RedisChannelLayer):
        yield
        return
    client = redis.Redis.from_url(layer.hosts[0]["address"])
    key = layer._group_key(group)
    client.zadd(key, {f"{layer.prefix}.watcher!stand-in": time.time()})
    try:
        yield
    finally:
        client.delete(key)
        client.close()
