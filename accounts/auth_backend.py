"""The one way a password is checked, for the API's log-in and the admin's alike.

The name is canonicalised once (`names.login_name`) and that one form keys the failure limits and
the lookup. Each attempt is counted before its password is checked, atomically, so concurrent
guesses cannot all slip under a limit; a log-in that succeeds, or that never got to its check, is
uncounted. Three counts, each in a window of FAILURE_WINDOW:

- per address (RATE_LOGIN_FAILURES_PER_ADDRESS): past it the address's log-ins are refused unchecked,
  so one client cannot spend the password checks on guesses across many names;
- per name (RATE_LOGIN_FAILURES): past it the name is guarded, not locked: a try from an address
  with no failure on the name is checked, and answered no sooner than LOGIN_SLOWDOWN_SECONDS after
  it began, right or wrong, so the answer's time says nothing before the delay ends; a try from an
  address that already failed on it is refused unchecked. Guessing wrong for a player's name thus
  no longer locks the player out;
- per name and address: the failures that tell those two apart.

A name that no player has is counted, waited for and hashed exactly as one that does, so neither
an answer nor its time tells which names exist. Checks are capped per process and per address,
and run on threads of lowest priority (`password_checks`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth import hashers
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.db.models.functions import Lower
from django.http import HttpRequest
from django.utils.translation import gettext_noop

from accounts import password_checks
from games.models import Player
from games.players import names
from web import ratelimit

PATH = "accounts.auth_backend.LimitedModelBackend"
FAILURE_WINDOW = 300  # seconds
TOO_MANY_FAILURES = gettext_noop("Too many failed log-ins for this name from this address.")
TOO_MANY_FROM_ADDRESS = gettext_noop("Too many failed log-ins from this address.")
UNKNOWN_ADDRESS = "unknown"


def _address_of(request: HttpRequest | None, given: Any) -> str:
    if isinstance(given, str) and given:
        return given
    address = request.META.get("REMOTE_ADDR") if request is not None else None
    return str(address or UNKNOWN_ADDRESS)


class LimitedModelBackend(ModelBackend):
    def authenticate(
        self, request: HttpRequest | None, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Player | None:
        """The player, or PermissionDenied: that ends `django.contrib.auth.authenticate` here, so no
        backend listed after this one (which are there only for sessions made before) checks a
        password without the limits. `address` (else the request's) is where the log-in came from."""
        address = _address_of(request, kwargs.pop("address", None))
        player = self._authenticate(username, password, address, **kwargs)
        if player is None:
            raise PermissionDenied
        return player

    def _authenticate(self, username: str | None, password: str | None, address: str, **kwargs: Any) -> Player | None:
        if username is None:
            username = kwargs.get(Player.USERNAME_FIELD)
        if not isinstance(username, str) or not isinstance(password, str):
            return None
        name = names.login_name(username)
        if name is None:
            return None
        began = time.monotonic()
        attempts: list[ratelimit.Attempt] = []
        guarded = _count(name, address, attempts)
        try:
            with password_checks.slot(address) as run:
                player, outdated = self._verify(name, password, run)
        except Exception:  # no place for the check, or the database away: the attempt was not made
            for attempt in attempts:
                ratelimit.give_back(attempt)
            raise
        if guarded:  # the answer, right or wrong, only once the delay is over
            time.sleep(max(0.0, began + float(settings.LOGIN_SLOWDOWN_SECONDS) - time.monotonic()))
        if player is None:
            return None
        for attempt in attempts:
            ratelimit.give_back(attempt)
        if outdated:  # the hasher or its iterations changed since the hash was made: store a new one
            player.set_password(password)
            player.save(update_fields=["password"])
        return player

    def _verify(self, name: str, password: str, run: Callable[[Callable[[], Any]], Any]) -> tuple[Player | None, bool]:
        """The player if the password is theirs (and whether its hash is outdated), else None; the
        hash is worked out whether or not the name is a player's."""
        player = Player.objects.annotate(canonical=Lower("username")).filter(canonical=name).first()
        if getattr(connection, "pool", None) is not None and not connection.in_atomic_block:
            connection.close()  # back to the pool while the password is hashed, and while the answer waits
        if player is None:
            run(lambda: hashers.make_password(password))  # as long as a real check: no telling which names exist
            return None, False
        outdated: list[bool] = []
        encoded = player.password
        right = run(lambda: hashers.check_password(password, encoded, lambda _: outdated.append(True)))
        if not right or player.is_guest or not self.user_can_authenticate(player):
            return None, False
        return player, bool(outdated)


def _count(name: str, address: str, attempts: list[ratelimit.Attempt]) -> bool:
    """Count the attempt per address, per name and per both (into `attempts`, for giving back);
    RateLimited if it may not be checked; whether the name is guarded (the answer is delayed)."""
    by_address = ratelimit.count_attempt("login-address", address, seconds=FAILURE_WINDOW)
    attempts.append(by_address)
    if by_address.count > settings.RATE_LOGIN_FAILURES_PER_ADDRESS:
        raise ratelimit.refusal(TOO_MANY_FROM_ADDRESS, by_address.seconds_left)
    # Counted together, so that attempts made at once see their two counts in one order. A name has
    # no space (names.LOGIN_RULE): the key is unambiguous whatever the address holds.
    by_name, by_both = ratelimit.count_attempts(
        [("login", name), ("login-here", f"{name} {address}")], seconds=FAILURE_WINDOW
    )
    attempts += [by_name, by_both]
    guarded = by_name.count > settings.RATE_LOGIN_FAILURES
    if guarded and by_both.count > 1:  # this address already failed on this name (or tries it at once)
        raise ratelimit.refusal(TOO_MANY_FAILURES, min(by_name.seconds_left, by_both.seconds_left))
    return guarded
