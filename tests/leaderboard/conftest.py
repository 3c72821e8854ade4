"""The leaderboard tests share one Redis DB with nothing else: its rank keys start empty."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis
from django.conf import settings


@pytest.fixture(autouse=True)
def _empty_rank_index() -> Iterator[None]:
    if settings.REDIS_URL:
        client = redis.Redis.from_url(settings.REDIS_URL)
        keys = list(client.scan_iter("lb:rank*"))
        if keys:
            client.delete(*keys)
        client.close()
    yield
