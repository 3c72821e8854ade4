"""What the loop's batchers (web.database.group_commit's writes, web.database.loop_connection's
reads) do with a batch that shared one round trip: each member's answer to its own future, and the
same policy when it fails.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol, TypeVar

import psycopg

log = logging.getLogger(__name__)


class Member(Protocol):
    """One caller's part of a batch: its answer goes to `future`."""

    @property
    def future(self) -> asyncio.Future[Any]: ...


M = TypeVar("M", bound=Member)


async def answer_each(batch: list[M], run: Callable[[list[M]], Awaitable[Sequence[Any]]], *, what: str) -> None:
    """Run `batch` (`run` gives each member's answer, in order) and answer every member.

    A broken connection fails them all (`run` replaces it). Another database error took the whole
    round trip back, so each member runs again alone and an error reaches only the member it belongs
    to, and `what` (with %s for the batch's size) is logged. A member whose caller went away is
    skipped."""
    try:
        answers = await run(batch)
    except (psycopg.OperationalError, psycopg.InterfaceError) as broken:
        fail(batch, broken)
        return
    except psycopg.Error as error:
        if len(batch) == 1:
            fail(batch, error)
            return
        log.warning(f"{what} failed (%s): each again alone", len(batch), error)
        for member in batch:
            await answer_each([member], run, what=what)
        return
    for member, answer in zip(batch, answers, strict=True):
        if not member.future.done():
            member.future.set_result(answer)


def fail(batch: Sequence[Member], error: BaseException) -> None:
    for member in batch:
        if not member.future.done():
            member.future.set_exception(error)
