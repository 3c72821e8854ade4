"""Password checks: at most PASSWORD_CHECKS_AT_ONCE at a time in a process, one at a time per address,
on threads of their own that yield the CPU to everything else.

A password check is costly in CPU by design (the figure: bench/README.md). A burst of log-ins
beyond what the cores can hash would queue behind each other while holding the pool's
connections and the other players' CPU.
A log-in waits up to PASSWORD_CHECK_WAIT_SECONDS for a free place (in the order they came), then
is refused with 429 and Retry-After, before it touches the database. An address has one place
at a time: a second log-in from it while one is waiting or checked is refused at once, so that
one client, however fast it sends, holds at most one place in the line and everyone else's turn
comes after at most one of its checks. Within its place the hash runs on a thread of lowest
priority (nice 19, Linux sets it per thread), so the scheduler serves the other players'
requests first. Hashing releases the GIL, so the hash thread does not hold them up there either.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import TypeVar

from django.conf import settings
from django.utils.translation import gettext, ngettext

from web.errors import RateLimited

log = logging.getLogger(__name__)
T = TypeVar("T")
RETRY_AFTER = 1  # seconds: a check takes well under one
LOWEST_PRIORITY = 19

_lock = threading.Lock()
_slots: tuple[int, threading.BoundedSemaphore, ThreadPoolExecutor] | None = None
_addresses_in_line: set[str] = set()  # addresses with a log-in waiting for a place or in one


def _lowest_priority() -> None:
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), LOWEST_PRIORITY)
    except (AttributeError, OSError) as error:  # not Linux, or not allowed: hash at normal priority
        log.info("password checks run at normal priority: %s", error)


def _pool() -> tuple[threading.BoundedSemaphore, ThreadPoolExecutor]:
    global _slots
    size = max(1, int(settings.PASSWORD_CHECKS_AT_ONCE))
    with _lock:
        if _slots is None or _slots[0] != size:  # the setting changed (tests set it)
            if _slots is not None:
                _slots[2].shutdown(wait=False)
            executor = ThreadPoolExecutor(size, thread_name_prefix="password-check", initializer=_lowest_priority)
            _slots = (size, threading.BoundedSemaphore(size), executor)
        return _slots[1], _slots[2]


def _refusal(busy: str) -> RateLimited:
    wait = ngettext("Try again in %(n)s second.", "Try again in %(n)s seconds.", RETRY_AFTER) % {"n": RETRY_AFTER}
    return RateLimited(f"{busy} {wait}", retry_after=RETRY_AFTER)


@contextmanager
def _one_at_a_time(address: str) -> Iterator[None]:
    with _lock:
        if address in _addresses_in_line:
            raise _refusal(gettext("Too many log-ins at once from this address."))
        _addresses_in_line.add(address)
    try:
        yield
    finally:
        with _lock:
            _addresses_in_line.discard(address)


@contextmanager
def slot(address: str) -> Iterator[Callable[[Callable[[], T]], T]]:
    """A place among the checks at once for a log-in from `address`, or RateLimited; gives the
    function that runs a hash on the low-priority threads and waits for it."""
    semaphore, executor = _pool()
    wait = float(settings.PASSWORD_CHECK_WAIT_SECONDS)
    with _one_at_a_time(address):
        if not (semaphore.acquire(timeout=wait) if wait > 0 else semaphore.acquire(blocking=False)):
            raise _refusal(gettext("Too many log-ins at once."))

        def run(work: Callable[[], T]) -> T:
            return executor.submit(work).result()

        try:
            yield run
        finally:
            semaphore.release()
