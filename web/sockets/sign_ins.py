"""A socket's verdict that its player is signed in, kept between messages (web.sockets.auth asks the
database once) while nothing can have changed it: until its token or session expires, and only while
this process hears the revocations (accounts/token_auth.py), which name the player. A
revocation is published before its change commits: for SETTLE_SECONDS after its player was named, a
socket asks on every message and keeps nothing.
"""

from __future__ import annotations

import datetime as dt
import threading
import time
import weakref

from django.conf import settings
from django.utils import timezone

SETTLE_SECONDS = 10.0  # far longer than a change takes to commit after its publication

_lock = threading.Lock()
_watches: dict[str, weakref.WeakSet[SignIn]] = {}
_live: set[str] = set()  # the Redis addresses whose revocations this process hears now
_epoch = 0  # moves on whenever revocations may have gone unheard: every kept verdict lapses
_recent: dict[str, float] = {}  # when each name was last heard: a socket opened just after waits too
_RECENT_MAX = 10_000


def player_name(player_pk: object) -> str:
    """The name a revocation publishes for the player's sockets."""
    return f"player:{player_pk}"


def heard(names: list[str]) -> None:
    """A revocation named these: their sockets ask the database again."""
    now = time.monotonic()
    with _lock:
        if len(_recent) >= _RECENT_MAX:
            for name, at in list(_recent.items()):
                if now - at >= SETTLE_SECONDS:
                    del _recent[name]
        for name in names:
            _recent[name] = now
            for watch in list(_watches.get(name, ())):
                watch.heard += 1
                watch.heard_at = now
                watch.until = None


def listening(source: str, up: bool) -> None:
    """The revocations' subscription on `source` came up or went down: no kept verdict can be trusted."""
    global _epoch
    with _lock:
        if (source in _live) == up:
            return  # no news: a subscription that keeps failing says so every second
        if up:
            _live.add(source)
        else:
            _live.discard(source)
        _epoch += 1


def is_listening() -> bool:
    """Whether this process hears the revocations published on the configured Redis."""
    url = settings.REDIS_URL
    return bool(url) and url in _live


Arming = tuple[int, int]


class SignIn:
    """One socket's kept verdict. `holds()` on the event loop; the database is asked elsewhere."""

    def __init__(self, player_pk: object) -> None:
        self.name = player_name(player_pk)
        self.until: dt.datetime | None = None
        self.epoch = -1
        self.heard = 0
        with _lock:
            self.heard_at = _recent.get(self.name, -SETTLE_SECONDS)
            _watches.setdefault(self.name, weakref.WeakSet()).add(self)

    def holds(self) -> bool:
        """Signed in as far as this process can tell without asking: False means ask the database."""
        until = self.until
        return until is not None and self.epoch == _epoch and is_listening() and timezone.now() < until

    def arming(self) -> Arming:
        """Taken before the database is asked, so that a revocation heard meanwhile is not lost."""
        return _epoch, self.heard

    def arm(self, arming: Arming, until: dt.datetime) -> None:
        """Keep the database's answer (signed in until `until`), unless a revocation came meanwhile."""
        with _lock:  # not between a revocation's count and its lapse (heard)
            settled = time.monotonic() - self.heard_at >= SETTLE_SECONDS
            if settled and arming == (_epoch, self.heard) and is_listening():
                self.epoch, self.until = arming[0], until

    def close(self) -> None:
        with _lock:
            kept = _watches.get(self.name)
            if kept is not None:
                kept.discard(self)
                if not kept:
                    del _watches[self.name]
