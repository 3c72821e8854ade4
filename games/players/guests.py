"""Who plays: the requesting player, or for a browser with none, a guest made by its first game.

A page view makes no player (a crawler or a cookieless client made one row per request): the
first request that plays (a new game, a new or joined race room) makes the guest, only with the
page's CSRF token, and at most RATE_GUESTS from one address an hour. The guest is made in the
same transaction as what it plays, so a refused request leaves no guest behind, and the browser's
session becomes the guest's only once it succeeded.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import TypeVar

from django.conf import settings
from django.contrib.auth import login
from django.db import transaction
from django.utils.translation import gettext, gettext_noop
from rest_framework.authentication import SessionAuthentication
from rest_framework.request import Request

from games.models import GUEST_PREFIX, Player
from games.players.signed_in import signed_in_player
from web import ratelimit
from web.errors import NotAuthenticated

T = TypeVar("T")


NEEDS_A_PLAYER = gettext_noop("Sign in or start a guest game first: this needs a player.")


def create_guest() -> Player:
    player = Player(username=f"{GUEST_PREFIX}{secrets.token_hex(8)}", is_guest=True)
    player.set_unusable_password()
    player.save()
    return player


def viewer(request: Request) -> Player | None:
    """The requesting player, if there is one (no guest is made)."""
    return signed_in_player(request.user)


def player(request: Request) -> Player:
    found = viewer(request)
    if found is None:
        raise NotAuthenticated(gettext(NEEDS_A_PLAYER))
    return found


def client_address(request: Request) -> str:
    return str(request.META.get("REMOTE_ADDR") or "unknown")


def play_as(request: Request, play: Callable[[Player], T]) -> T:
    """`play(player)` for the requesting player, or for a new guest if the browser has none."""
    player = viewer(request)
    if player is not None:
        return play(player)
    if request.auth is not None or getattr(request, "session", None) is None:
        raise NotAuthenticated(gettext(NEEDS_A_PLAYER))
    SessionAuthentication().enforce_csrf(request)  # a page on another site cannot make a guest
    ratelimit.hit(
        "guests",
        client_address(request),
        limit=settings.RATE_GUESTS,
        seconds=3600,
        message=gettext_noop("Too many new guests from this address: sign up, or play as the guest you are."),
    )
    with transaction.atomic():
        guest = create_guest()
        played = play(guest)
    # The backend that checks passwords, listed first (config/settings.py): a session names the backend
    # that signed it in. DRF passes the session and the user to Django's request.
    login(request, guest, backend=settings.AUTHENTICATION_BACKENDS[0])
    return played


def limit_starts(request: Request) -> None:
    """New games per address and per player (a new guest is counted by its address)."""
    ratelimit.hit(
        "starts-address",
        client_address(request),
        limit=settings.RATE_SESSION_STARTS_PER_ADDRESS,
        seconds=60,
        message=gettext_noop("Too many new games from this address."),
    )
    player = viewer(request)
    if player is not None:
        count_new_game(player, gettext_noop("Too many new games."))


def count_new_game(player: Player, message: str) -> None:
    """One new game for `player` in the per-player counter of new games: a game started on its own,
    or a race's game made for a racer when the room starts (games.rooms.rooms)."""
    ratelimit.hit("starts", str(player.pk), limit=settings.RATE_SESSION_STARTS, seconds=60, message=message)


def count_new_games(players: Sequence[Player]) -> list[ratelimit.Attempt]:
    """`count_new_game` for each of `players` at once, in one round trip, for the caller to judge
    (`over_new_games`) and to give back the games it does not start (ratelimit.give_back)."""
    return ratelimit.count_attempts([("starts", str(player.pk)) for player in players], seconds=60)


def over_new_games(attempt: ratelimit.Attempt) -> bool:
    return attempt.count > settings.RATE_SESSION_STARTS
