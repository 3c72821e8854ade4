"""Socket tests here run the whole ASGI application in process."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from django.db import connections


@pytest.fixture
async def socket_cleanup() -> AsyncIterator[None]:
    """Close the sync worker thread's database connection, and drop the channel layer,
    whose receive lock belongs to this test's event loop and would trip the next test."""
    yield
    await database_sync_to_async(connections.close_all)()
    channel_layers.backends.clear()
