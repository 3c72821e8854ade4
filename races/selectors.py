"""Reads of the races app: ratings as the matching sees them, the queue's size, open challenges."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Q, QuerySet

from games.models import Player
from races.models import Challenge, QueueEntry
from races.ratings import MODEL

DEFAULT_MU = MODEL.mu  # a player who has no rated race yet


def waiting(variant: str, *, since: dt.datetime) -> QuerySet[QueueEntry]:
    """The players waiting for a race of `variant`, not placed yet, seen since `since`."""
    return QueueEntry.objects.filter(variant=variant, room=None, seen_at__gte=since)


def waiting_for(variant: str, *, since: dt.datetime) -> int:
    """How many players wait for a race of `variant` and were seen after `since`."""
    return waiting(variant, since=since).count()


def open_challenges(player: Player, *, now: dt.datetime) -> list[Challenge]:
    """The challenges `player` sent or was sent that can still be answered, oldest first."""
    mine = Q(invitee=player) | Q(challenger=player)
    return list(
        Challenge.objects.filter(mine, state=Challenge.State.PENDING, expires_at__gt=now)
        .select_related("challenger", "invitee")
        .order_by("created_at")
    )


def challenge_document(challenge: Challenge, *, now: dt.datetime) -> dict[str, Any]:
    """A challenge as both its players see it."""
    expired = challenge.state == Challenge.State.PENDING and challenge.expires_at <= now
    return {
        "id": str(challenge.pk),
        "challenger": challenge.challenger.username,
        "invitee": challenge.invitee.username,
        "variant": challenge.variant,
        "state": "expired" if expired else challenge.state,
        "created_at": challenge.created_at.isoformat(),
        "expires_at": challenge.expires_at.isoformat(),
        "expires_in_ms": max(0, int((challenge.expires_at - now).total_seconds() * 1000)),
        "room": str(challenge.room_id) if challenge.room_id else None,
    }
