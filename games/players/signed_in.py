"""Who is asking: the one test of "a signed-in player" that pages, the API and sockets share."""

from __future__ import annotations

from games.models import Player


def signed_in_player(user: object) -> Player | None:
    """`user` (a request's or a socket scope's) if it is a signed-in player, guests included; else None."""
    return user if isinstance(user, Player) and user.is_authenticated else None
