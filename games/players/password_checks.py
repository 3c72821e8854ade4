"""Password checks: at most PASSWORD_CHECKS_AT_ONCE at a time in a process, on threads of their own
that yield the CPU to everything else.

A password check is costly in CPU by design (the figure: bench/README.md). A burst of log-ins
beyond what the cores can hash would queue behind each other while holding the pool's
connections and the other players' CPU.
Past the cap a log-in is refused at once with 429 and Retry-After, before it touches the
database; within it the hash runs on a thread of lowest priority (nice 19, Linux sets it per
thread), so the scheduler serves the other players' requests first. Hashing releases the GIL,
so the hash thread does not hold them up there either.
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


@contextmanager
def slot() -> Iterator[Callable[[Callable[[], T]], T]]:
    """A place among the checks at once, or RateLimited; gives the function that runs a hash on
    the low-priority threads and waits for it."""
    semaphore, executor = _pool()
    if not semaphore.acquire(blocking=False):
        busy = gettext("Too many log-ins at once.")
        wait = ngettext("Try again in %(n)s second.", "Try again in %(n)s seconds.", RETRY_AFTER) % {"n": RETRY_AFTER}
        raise RateLimited(f"{busy} {wait}", retry_after=RETRY_AFTER)

    def run(work: Callable[[], T]) -> T:
        return executor.submit(work).result()

    try:
        yield run
    finally:
        semaphore.release()
