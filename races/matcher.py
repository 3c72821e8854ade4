"""The quick match's passes, off the request path: one thread a worker process runs them.

An ask (a player's first, or a waiting player's next every few seconds) only wakes the thread
(`wake`): no request waits for a pass or holds a database connection for one. Awake, the thread
runs a pass over each variant it was woken for, then again every PASS_SECONDS while anyone still
waits for that variant (the widening depends on the time only), and sleeps once nobody does. Each
worker's thread does so; the passes themselves take turns across the workers (races.matching
.only_pass), so a worker that dies leaves the others passing, and the asks of its players wake
whichever worker they reach.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from django.db import close_old_connections, connection

log = logging.getLogger(__name__)

# One round over a variant: whether its passes should go on.
Round = Callable[[str], bool]


class Matcher:
    def __init__(self, round_over: Round, every_seconds: float) -> None:
        self._round_over = round_over
        self._every = every_seconds
        self._wanted: set[str] = set()
        self._lock = threading.Lock()
        self._woken = threading.Event()
        self._thread: threading.Thread | None = None

    def wake(self, variant: str) -> None:
        with self._lock:
            self._wanted.add(variant)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="quick-match", daemon=True)
                self._thread.start()
        self._woken.set()

    def _run(self) -> None:
        active: set[str] = set()
        while True:
            if not active:
                self._woken.wait()
            self._woken.clear()
            with self._lock:
                active |= self._wanted
                self._wanted.clear()
            began = time.monotonic()
            for variant in sorted(active):
                if not self._one_round(variant):
                    active.discard(variant)
            time.sleep(max(0.0, began + self._every - time.monotonic()))

    def _one_round(self, variant: str) -> bool:
        close_old_connections()
        try:
            return self._round_over(variant)
        except Exception:  # noqa: BLE001 - the thread lives on: the next round tries again
            log.exception("quick match: a pass over %s failed", variant)
            return True
        finally:
            connection.close()  # back to the pool: no connection is held between passes
