"""The one way a password is checked, for the API's log-in and the admin's alike.

The name is canonicalised once (`names.login_name`) and that one form keys both the failure limit
and the lookup. The attempt is counted before the password is checked, atomically, so concurrent
guesses cannot all slip under the limit; a log-in that succeeds is uncounted. Checks are capped per
process, and run on threads of lowest priority (`password_checks`).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import hashers
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.db.models.functions import Lower
from django.http import HttpRequest
from django.utils.translation import gettext_noop

from games.models import Player
from games.players import names, password_checks
from web import ratelimit

PATH = "games.players.auth_backend.LimitedModelBackend"
FAILURE_WINDOW = 300  # seconds
TOO_MANY_FAILURES = gettext_noop("Too many failed log-ins for this name.")


class LimitedModelBackend(ModelBackend):
    def authenticate(
        self, request: HttpRequest | None, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Player | None:
        """The player, or PermissionDenied: that ends `django.contrib.auth.authenticate` here, so no
        backend listed after this one (which are there only for sessions made before) checks a
        password without the limits."""
        player = self._authenticate(username, password, **kwargs)
        if player is None:
            raise PermissionDenied
        return player

    def _authenticate(self, username: str | None, password: str | None, **kwargs: Any) -> Player | None:
        if username is None:
            username = kwargs.get(Player.USERNAME_FIELD)
        if not isinstance(username, str) or not isinstance(password, str):
            return None
        name = names.login_name(username)
        if name is None:
            return None
        with password_checks.slot() as run:
            attempt = ratelimit.take(
                "login", name, limit=settings.RATE_LOGIN_FAILURES, seconds=FAILURE_WINDOW, message=TOO_MANY_FAILURES
            )
            player = Player.objects.annotate(canonical=Lower("username")).filter(canonical=name).first()
            if getattr(connection, "pool", None) is not None and not connection.in_atomic_block:
                connection.close()  # back to the pool while the password is hashed
            if player is None:
                run(lambda: hashers.make_password(password))  # as long as a real check: no telling which names exist
                return None
            outdated: list[bool] = []
            encoded = player.password
            right = run(lambda: hashers.check_password(password, encoded, lambda _: outdated.append(True)))
            if not right or player.is_guest or not self.user_can_authenticate(player):
                return None
        ratelimit.give_back(attempt)
        if outdated:  # the hasher or its iterations changed since the hash was made: store a new one
            player.set_password(password)
            player.save(update_fields=["password"])
        return player
