"""A rematch of a finished race: the same racers on a new hidden deal of its variant, one tap each.

The first racer to ask opens the rematch room (its host) and the race keeps it; each other racer's
tap joins that room. The race's document names the rematch room and who is in it (through the
room's describer, games.rooms.race_events), pushed live on the race's socket at each tap.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.dailies.fair_play import Origin
from games.models import Player, Room
from games.rooms import rooms
from races.models import Rematch
from web.errors import Conflict, Forbidden


def rematch(
    *,
    race_id: object,
    player: Player,
    address: str | None = None,
    origin: Origin | None = None,
    now: dt.datetime | None = None,
) -> Room:
    """The rematch room `player` is in after their tap: opened by the first tap, joined by the rest."""
    now = now or timezone.now()
    with transaction.atomic():
        race = rooms.room_for(race_id, lock=True)  # two first taps at once: the second waits, then joins
        if race.state != Room.State.FINISHED:
            raise Conflict(gettext("A rematch can be asked for once the race is over."))
        if not race.members.filter(player=player, session__isnull=False).exists():
            raise Forbidden(gettext("Only the players of this race can ask for its rematch."))
        kept = Rematch.objects.filter(race=race).first()
        if kept is None:
            room = rooms.create_room(host=player, variant=race.variant, address=address, origin=origin)
            Rematch.objects.create(race=race, room=room, created_at=now)
        else:
            room = rooms.join_room(room_id=kept.room_id, player=player, origin=origin)
        rooms.announce_on_commit(race)
    return room


def describe(room: Room) -> dict[str, Any]:
    """The race's rematch for its document: the room and who has joined it (None before a tap)."""
    if room.state != Room.State.FINISHED:
        return {}
    kept = Rematch.objects.filter(race=room).select_related("room").first()
    if kept is None:
        return {"rematch": None}
    members = kept.room.members.select_related("player").order_by("joined_at", "pk")
    return {
        "rematch": {
            "room": str(kept.room_id),
            "state": kept.room.state,
            "players": [member.player.display_name for member in members],
        }
    }
