"""The browser's player: a guest is made on the first visit and kept in the session."""

from __future__ import annotations

from django.contrib.auth import login
from django.http import HttpRequest

from leaderboard import auth_backend
from leaderboard.models import Player
from leaderboard.players import create_guest


def ensure_player(request: HttpRequest) -> Player:
    user = request.user
    if isinstance(user, Player) and user.is_authenticated:
        return user
    guest = create_guest()
    login(request, guest, backend=auth_backend.PATH)
    return guest
