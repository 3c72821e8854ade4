"""The leaderboard tests share one Redis DB with nothing else: its rank keys start empty."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import pytest
import redis
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from django.conf import settings
from django.db import connections

from config.ws import release_database_threads
from leaderboard.hub import close_hub


@pytest.fixture(autouse=True)
def _empty_rank_index() -> Iterator[None]:
    if settings.REDIS_URL:
        client = redis.Redis.from_url(settings.REDIS_URL)
        keys = list(client.scan_iter("lb:rank*"))
        if keys:
            client.delete(*keys)
        client.close()
    yield


@pytest.fixture
async def socket_cleanup() -> AsyncIterator[None]:
    """After a socket test: close the sync worker thread's database connection, and drop the
    channel layer, whose receive lock belongs to this test's event loop and would trip the next."""
    yield
    await close_hub()
    await database_sync_to_async(connections.close_all)()
    await asyncio.to_thread(release_database_threads)  # the snapshot reads' kept connections
    channel_layers.backends.clear()
