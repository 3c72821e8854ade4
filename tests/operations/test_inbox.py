"""A connection's input queue (operations.inbox): what daphne's asyncio.Queue did for it."""

from __future__ import annotations

import asyncio
import gc
import weakref
from typing import Any

from operations.inbox import Inbox


class Message(dict[str, Any]):
    """A message that a weak reference can watch (a plain dict cannot be one's referent)."""


async def test_messages_come_out_in_the_order_they_were_put_and_a_get_waits_for_the_next() -> None:
    inbox = Inbox()
    for n in range(3):
        inbox.put_nowait({"n": n})
    assert [(await inbox.get())["n"] for _ in range(3)] == [0, 1, 2]
    waiting = asyncio.ensure_future(inbox.get())
    await asyncio.sleep(0)
    assert not waiting.done()
    inbox.put_nowait({"n": 3})
    inbox.put_nowait({"n": 4})
    assert (await asyncio.wait_for(waiting, 1))["n"] == 3
    assert (await inbox.get())["n"] == 4


async def test_each_message_wakes_one_getter_and_goes_to_the_first_that_waited() -> None:
    inbox = Inbox()
    first, second = asyncio.ensure_future(inbox.get()), asyncio.ensure_future(inbox.get())
    await asyncio.sleep(0)
    inbox.put_nowait({"n": 0})
    assert (await asyncio.wait_for(first, 1))["n"] == 0
    assert not second.done()
    inbox.put_nowait({"n": 1})
    assert (await asyncio.wait_for(second, 1))["n"] == 1


async def test_a_getter_cancelled_once_woken_leaves_its_message_to_the_next() -> None:
    """Channels cancels the receive it no longer needs (await_many_dispatch): what woke it is not lost."""
    inbox = Inbox()
    first, second = asyncio.ensure_future(inbox.get()), asyncio.ensure_future(inbox.get())
    await asyncio.sleep(0)
    inbox.put_nowait({"n": 0})  # wakes the first...
    first.cancel()  # ...which is cancelled before it runs
    assert (await asyncio.wait_for(second, 1))["n"] == 0
    assert first.cancelled()


async def test_a_message_handed_out_is_not_kept() -> None:
    inbox = Inbox()
    messages = [Message(n=n) for n in range(5)]
    watched = [weakref.ref(message) for message in messages]
    for message in messages:
        inbox.put_nowait(message)
    del messages, message
    for n in range(4):
        assert (await inbox.get())["n"] == n
    gc.collect()
    assert [ref() is None for ref in watched] == [True, True, True, True, False]  # the last still waits
    assert (await inbox.get())["n"] == 4
