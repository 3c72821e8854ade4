"""The hooks by which the rest of the service hears of races, and adds to what a room shows.

The referee runs rooms and announces; whoever keeps something made of races (the ratings)
subscribes from its AppConfig.ready, as the listeners of games.results.announcements do. The referee does not know
who listens.

- `Joined`: a player came into a room (its host on opening it), with where from (fair-play
  hashes, games.dailies.fair_play.Origin); heard inside the join's transaction, so what a listener writes
  commits with the membership.
- `Ending`: a race is ending, heard inside the transaction that ends it, so what a listener writes
  (a review to make) commits with the end, and a listener's error rolls the end back with it.
- `Ended`: a race is over, heard once its transaction has committed; `called_off` when the host
  ended it while another racer was still playing (or before it started). A race ended by its time
  limit is not called off: it ran to its end.
- A describer adds keys of its own to the room's document (games.rooms.room_document), so that
  what it keeps about a room (a rematch) reaches the room's socket with the table.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import transaction

if TYPE_CHECKING:
    from games.dailies.fair_play import Origin
    from games.models import Room

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Joined:
    room_id: uuid.UUID
    player_id: int
    origin: Origin | None


@dataclass(frozen=True)
class Ending:
    room_id: uuid.UUID


@dataclass(frozen=True)
class Ended:
    room_id: uuid.UUID
    called_off: bool


Event = Joined | Ending | Ended
Listener = Callable[[Event], None]
Describer = Callable[["Room"], dict[str, Any]]

_listeners: list[Listener] = []
_describers: list[Describer] = []


def subscribe(listener: Listener) -> None:
    """Hear of every race event from now on (subscribing twice changes nothing)."""
    if listener not in _listeners:
        _listeners.append(listener)


def describe(describer: Describer) -> None:
    """Add `describer`'s keys to every room document from now on (twice changes nothing)."""
    if describer not in _describers:
        _describers.append(describer)


def tell_now(event: Joined | Ending) -> None:
    """Inside the transaction of the join or the end: a listener's error rolls it back with it."""
    for listener in tuple(_listeners):
        listener(event)


def ended_on_commit(event: Ended) -> None:
    """Once the race's end has committed, tell every listener, each on its own: one's failure is
    logged, and loses only what it would have done (the race stays over)."""

    def tell() -> None:
        for listener in tuple(_listeners):
            try:
                listener(event)
            except Exception:  # noqa: BLE001 - the race is over either way; a listener can catch up
                log.exception("a listener failed on the end of race %s", event.room_id)

    transaction.on_commit(tell, robust=True)


def described(room: Room) -> dict[str, Any]:
    """The describers' keys for `room`'s document."""
    extra: dict[str, Any] = {}
    for describer in tuple(_describers):
        extra.update(describer(room))
    return extra
