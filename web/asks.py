"""Storage work written once for both ways of serving it: on a request's thread and on the event loop.

A read (or write) that needs storage is a generator: it yields what it needs (an ask: a query, a
Redis pipeline) and is sent the answer, until it returns its result. `run` answers the asks on the
calling thread with blocking clients; `run_on_loop` awaits async ones (web/loop_http.py). So the
logic (what to ask, in which order, what the answers mean) has one home whichever way it runs.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Generator
from typing import Any, TypeVar

Ask = TypeVar("Ask")
T = TypeVar("T")


def run(work: Generator[Ask, Any, T], answer: Callable[[Ask], Any]) -> T:
    """`work`'s result, each of its asks answered by `answer` (on this thread)."""
    try:
        ask = next(work)
        while True:
            ask = work.send(answer(ask))
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]  # the generator's return type


def run_on_loop(work: Generator[Ask, Any, T], answer: Callable[[Ask], Awaitable[Any]]) -> Awaitable[T]:
    """`work`'s result, each of its asks answered by awaiting `answer`. The first ask is asked before
    this returns: an `answer` that sends at once (a Redis pipeline, web/redis_clients.py) has it on
    its way while the caller does something else before awaiting the result."""
    try:
        first = answer(next(work))
    except StopIteration as done:
        return _done(done.value)
    return _rest(work, first, answer)


async def _rest(work: Generator[Ask, Any, T], first: Awaitable[Any], answer: Callable[[Ask], Awaitable[Any]]) -> T:
    try:
        ask = work.send(await first)
        while True:
            ask = work.send(await answer(ask))
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]  # the generator's return type


async def _done(value: T) -> T:
    return value
