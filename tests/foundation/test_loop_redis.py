"""The event loop's own Redis client (web/redis_clients.LoopRedis): replies as redis-py's, errors as
redis-py's exceptions, its database selected, and a connection that went away replaced."""

from __future__ import annotations

import pytest
import redis
from django.conf import settings

from tests.loopback import free_port
from web.redis_clients import LoopRedis, on_this_loop

pytestmark = [pytest.mark.redis, pytest.mark.usefixtures("socket_cleanup")]


async def test_replies_in_order_decoded_and_in_its_database() -> None:
    client = on_this_loop(settings.REDIS_URL, decode=True)
    replies = await client.pipeline(
        [("SET", "loop-redis:x", "é"), ("GET", "loop-redis:x"), ("INCR", "loop-redis:n"), ("GET", "loop-redis:none")]
    )
    assert replies == ["OK", "é", 1, None]
    assert redis.Redis.from_url(settings.REDIS_URL).get("loop-redis:x") == "é".encode()  # the same database
    assert await on_this_loop(settings.REDIS_URL).execute("GET", "loop-redis:x") == "é".encode()
    with pytest.raises(redis.ResponseError):
        await client.execute("INCR", "loop-redis:x")  # not a number
    assert await client.execute("DEL", "loop-redis:x", "loop-redis:n") == 2  # and the connection goes on


async def test_a_connection_that_went_away_fails_its_call_and_the_next_connects_again() -> None:
    client = on_this_loop(settings.REDIS_URL, decode=True)
    own_id = await client.execute("CLIENT", "ID")
    redis.Redis.from_url(settings.REDIS_URL).execute_command("CLIENT", "KILL", "ID", own_id)
    with pytest.raises(redis.ConnectionError):
        await client.execute("PING")
    assert await client.execute("PING") == "PONG"


async def test_no_server_is_a_connection_error() -> None:
    with pytest.raises(redis.ConnectionError):
        await LoopRedis(f"redis://127.0.0.1:{free_port()}/0", decode=True).execute("PING")
