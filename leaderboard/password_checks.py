"""At most PASSWORD_CHECKS_AT_ONCE password checks at a time in a process.

A password check is ~0.3 s of CPU by design. A burst of log-ins beyond what the cores can hash
would queue behind each other while holding the pool's connections and the other players' CPU;
past the cap a log-in is refused at once with 429 and Retry-After, before it touches the database.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.utils.translation import gettext, ngettext

from config.errors import RateLimited

RETRY_AFTER = 1  # seconds: a check takes well under one

_lock = threading.Lock()
_slots: tuple[int, threading.BoundedSemaphore] | None = None


def _semaphore() -> threading.BoundedSemaphore:
    global _slots
    size = max(1, int(settings.PASSWORD_CHECKS_AT_ONCE))
    with _lock:
        if _slots is None or _slots[0] != size:  # the setting changed (tests set it)
            _slots = (size, threading.BoundedSemaphore(size))
        return _slots[1]


@contextmanager
def slot() -> Iterator[None]:
    semaphore = _semaphore()
    if not semaphore.acquire(blocking=False):
        busy = gettext("Too many log-ins at once.")
        wait = ngettext("Try again in %(n)s second.", "Try again in %(n)s seconds.", RETRY_AFTER) % {
            "n": RETRY_AFTER
        }
        raise RateLimited(f"{busy} {wait}", retry_after=RETRY_AFTER)
    try:
        yield
    finally:
        semaphore.release()
