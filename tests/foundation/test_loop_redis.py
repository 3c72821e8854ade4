"""The event loop's own Redis client (web/redis_clients.LoopRedis): replies as redis-py's, errors as
redis-py's exceptions, its database selected, and a connection that went away or hangs replaced;
callers asking while an exchange is under way share the next one, each with its own replies and
errors; commands are on their way before their replies are awaited."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
import redis
from django.conf import settings

from tests.loopback import free_port
from web.redis_clients import LoopRedis, _Connection, on_this_loop

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


async def test_callers_asking_during_an_exchange_share_the_next_each_with_its_own_replies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    client = LoopRedis(settings.REDIS_URL, decode=True)
    sizes: list[int] = []
    real = _Connection._send

    def counted(self: _Connection, batch: list[Any]) -> None:
        sizes.append(len(batch))
        real(self, batch)

    monkeypatch.setattr(_Connection, "_send", counted)
    await client.execute("DEL", "loop-redis:shared", "loop-redis:text")
    await client.execute("SET", "loop-redis:text", "words")
    sizes.clear()
    asks: list[Any] = [client.execute("INCR", "loop-redis:shared") for _ in range(20)]
    asks.insert(7, client.pipeline([("INCR", "loop-redis:text"), ("GET", "loop-redis:text")]))  # an error of its own
    answers = await asyncio.gather(*asks, return_exceptions=True)
    assert isinstance(answers.pop(7), redis.ResponseError)
    assert answers == list(range(1, 21))  # in the order asked, none lost to the error beside it
    assert sizes == [1, 20]  # the first alone (nothing was waiting yet), then the rest together
    assert await client.execute("DEL", "loop-redis:shared", "loop-redis:text") == 2
    await client.close()


async def test_commands_are_sent_before_their_replies_are_awaited() -> None:
    client = LoopRedis(settings.REDIS_URL, decode=True)
    await client.execute("DEL", "loop-redis:early")
    replies = client.pipeline([("SET", "loop-redis:early", "sent")])  # not awaited yet
    elsewhere = redis.Redis.from_url(settings.REDIS_URL)
    deadline = time.monotonic() + 2
    while elsewhere.get("loop-redis:early") is None and time.monotonic() < deadline:
        time.sleep(0.005)  # blocks this loop: only a write made already can arrive
    assert elsewhere.get("loop-redis:early") == b"sent"
    assert await replies == ["OK"]
    assert await client.execute("DEL", "loop-redis:early") == 1
    await client.close()


async def test_every_caller_of_a_failed_exchange_gets_the_error_and_the_next_connects_again() -> None:
    client = LoopRedis(settings.REDIS_URL, decode=True)
    own_id = await client.execute("CLIENT", "ID")
    waiting = asyncio.ensure_future(client.execute("BLPOP", "loop-redis:never", 5))  # an exchange under way
    await asyncio.sleep(0)
    pings = asyncio.gather(*(client.execute("PING") for _ in range(3)), return_exceptions=True)
    await asyncio.sleep(0.05)  # the three queue up behind it
    redis.Redis.from_url(settings.REDIS_URL).execute_command("CLIENT", "KILL", "ID", own_id)
    answers = [*(await pings), *(await asyncio.gather(waiting, return_exceptions=True))]
    assert all(isinstance(answer, redis.ConnectionError) for answer in answers), answers
    assert len({id(answer) for answer in answers}) == 4  # each raises an exception of its own
    assert await asyncio.gather(*(client.execute("PING") for _ in range(3))) == ["PONG"] * 3
    await client.close()


async def test_a_reply_that_does_not_come_in_time_is_a_timeout_and_the_next_connects_again() -> None:
    client = LoopRedis(settings.REDIS_URL, decode=True)
    with pytest.raises(redis.TimeoutError):
        await client.execute("BLPOP", "loop-redis:never", 3)  # past the client's 1 s
    assert await client.execute("PING") == "PONG"
    await client.close()


async def test_a_caller_cancelled_while_waiting_leaves_the_others_their_replies() -> None:
    client = LoopRedis(settings.REDIS_URL, decode=True)
    await client.execute("DEL", "loop-redis:cancelled")
    waiting = asyncio.ensure_future(client.execute("BLPOP", "loop-redis:never", 0.2))
    await asyncio.sleep(0)
    first = asyncio.ensure_future(client.execute("INCR", "loop-redis:cancelled"))
    second = asyncio.ensure_future(client.execute("INCR", "loop-redis:cancelled"))
    await asyncio.sleep(0.01)
    first.cancel()
    assert await second == 2  # the cancelled caller's command was sent all the same, with the next
    assert await waiting is None and first.cancelled()
    assert await client.execute("GET", "loop-redis:cancelled") == "2"
    assert await client.execute("DEL", "loop-redis:cancelled") == 1
    await client.close()


async def test_a_reply_that_cannot_be_read_as_asked_fails_its_callers_and_the_next_connects_again() -> None:
    redis.Redis.from_url(settings.REDIS_URL).set("loop-redis:bytes", b"\xff\xfe")  # not UTF-8
    client = LoopRedis(settings.REDIS_URL, decode=True)
    with pytest.raises(redis.ConnectionError):
        await client.execute("GET", "loop-redis:bytes")
    assert await client.execute("DEL", "loop-redis:bytes") == 1
    await client.close()
