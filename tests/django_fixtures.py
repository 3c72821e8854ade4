"""The fixtures of the tests that run on Django, a plugin the root conftest loads when pytest-django
runs (tests/conftest.py): without it (`pytest tests/engine -p no:django`) nothing imports Django."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from django.conf import settings
from django.db import connections
from rest_framework.test import APIClient

from games.models import Player
from tests.conftest import make_player
from web import storage
from web.sockets.consumer import release_database_threads
from web.sockets.live import close_local_groups


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix: None, tmp_path_factory: Any) -> None:
    """On SQLite the test database is a file in a temporary directory: never the user's
    db.sqlite3, and, unlike pytest-django's shared in-memory one, locked the way `make run`'s file
    is (a writer waits for another instead of failing with "table is locked"), and open to the
    daphne processes some tests start."""
    default = settings.DATABASES["default"]
    if default["ENGINE"] == "django.db.backends.sqlite3":
        default["TEST"]["NAME"] = str(tmp_path_factory.mktemp("sqlite") / "test.sqlite3")


@pytest.fixture(autouse=True)
def _races_start_at_once(settings: Any) -> None:
    """A race's countdown would make every room test wait; the countdown's own tests set one."""
    settings.RACE_COUNTDOWN_SECONDS = 0


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    """Rate-limit counters and cached state must not leak from one test to the next."""
    from django.core.cache import cache

    from games.rooms import progress as room_progress
    from web import ratelimit

    cache.clear()
    ratelimit.clear_in_process()
    room_progress.pushes.clear()  # a room's push still due from the last test would read this one's
    yield


class StillClock:
    """The limiter's clock, standing still: a window it opened cannot close mid-test."""

    now = 1_000.25

    def monotonic(self) -> float:
        return self.now


@pytest.fixture
def still_clock(monkeypatch: pytest.MonkeyPatch) -> StillClock:
    """For the one-second limits, where a slow run could outlast the window it counts in."""
    from web import ratelimit

    clock = StillClock()
    monkeypatch.setattr(ratelimit, "time", clock)
    return clock


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.fixture
def player(db: None) -> Player:
    return make_player()


@pytest.fixture
def player_api(player: Player) -> APIClient:
    from rest_framework.authtoken.models import Token

    client = APIClient()
    token, _ = Token.objects.get_or_create(user=player)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def uses_redis() -> bool:
    return bool(settings.REDIS_URL)


@pytest.fixture
def unlimited_actions(settings: Any) -> None:
    """Tests that play whole games act faster than a person may: lift the per-session limit."""
    settings.RATE_ACTIONS = 1_000_000


@pytest.fixture(autouse=True, scope="session")
def _close_socket_thread_connections(django_db_setup: None) -> Iterator[None]:
    """The play sockets' database threads and asgiref's thread keep their connections; let go of them
    before the test database is dropped."""
    yield
    release_database_threads()
    # The thread that runs async code's sync calls (asgiref's sync_to_async outside a request) keeps its own.
    asyncio.run(sync_to_async(connections.close_all)())
    for connection in connections.all():
        if getattr(connection, "pool", None) is not None:
            connection.close_pool()  # pooled connections would also keep the test database in use


@pytest.fixture
async def socket_cleanup() -> AsyncIterator[None]:
    """After a test that runs the ASGI application in process: stop this event loop's channel reader,
    close the connections of the sync worker thread and of the sockets' database threads, and drop
    the channel layer, whose receive lock belongs to this test's event loop and would trip the next."""
    yield
    await close_local_groups()
    await storage.close()
    await database_sync_to_async(connections.close_all)()
    await asyncio.to_thread(release_database_threads)
    channel_layers.backends.clear()


@pytest.fixture
def prepared_dailies(request: pytest.FixtureRequest) -> list[Any]:
    """Today's seven dailies stored as the preparer stores them (not certified; tests/daily_helpers.py)."""
    from django.utils import timezone

    from games.dailies.schedule import utc_today
    from tests.daily_helpers import store_unsettled_dailies

    marker = request.node.get_closest_marker("django_db")
    request.getfixturevalue("transactional_db" if marker and marker.kwargs.get("transaction") else "db")
    return store_unsettled_dailies(utc_today(timezone.now()))


@pytest.fixture
def private_redis() -> Iterator[Any]:
    """A Redis server of the test's own, as the channel layer: a test may stop and start it."""
    from django.test import override_settings

    from tests.reliability.procs import PrivateRedis

    server = PrivateRedis()
    server.start()
    layers = {"default": {**settings.CHANNEL_LAYERS["default"], "CONFIG": {"hosts": [server.url]}}}
    if "Redis" not in layers["default"]["BACKEND"]:
        layers["default"]["BACKEND"] = "channels_redis.pubsub.RedisPubSubChannelLayer"
    try:
        with override_settings(REDIS_URL=server.url, CHANNEL_LAYERS=layers):
            channel_layers.backends.clear()
            yield server
    finally:
        channel_layers.backends.clear()
        server.close()
