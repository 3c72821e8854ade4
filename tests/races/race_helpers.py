"""Races for the rated-race tests, run through the referee's own services: open, join, start, play
real moves and finish, with the end heard as the server hears it (on commit)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games import services as games
from games.dailies.fair_play import Origin, keyed_hash
from games.models import GameSession, Player, Room
from games.rooms import rooms
from tests.leaderboard.factories import legal_walk, named


def origin(device: str, address: str = "") -> Origin:
    return Origin(
        device=keyed_hash("device", device) if device else "",
        address=keyed_hash("address", address) if address else "",
    )


def open_race(
    count: int, *, variant: str = "SD1-S1", code: str | None = None, origins: list[Origin] | None = None
) -> tuple[Room, list[Player]]:
    """A started race of `count` named racers on a hidden fresh deal (dealt `code` instead, if given:
    a deal the test knows), each from a device and an address of their own unless `origins` says."""
    racers = [named() for _ in range(count)]
    where = origins or [origin(f"device-{racer.pk}", f"10.0.0.{racer.pk % 250}") for racer in racers]
    room = rooms.create_room(host=racers[0], variant=variant, origin=where[0])
    if code is not None:
        Room.objects.filter(pk=room.pk).update(code=code)
    for racer, place in zip(racers[1:], where[1:], strict=True):
        rooms.join_room(room_id=room.pk, player=racer, origin=place)
    rooms.start_room(room_id=room.pk, player=racers[0])
    room.refresh_from_db()
    return room, racers


def session_of(room: Room, player: Player) -> GameSession:
    return GameSession.objects.get(player=player, room_member__room=room)


def play(room: Room, player: Player, tokens: list[str], *, finish: bool = True) -> None:
    """Play `tokens` in `player`'s game of the race, then give up unless it is won (or told not to)."""
    session = session_of(room, player)
    for token in tokens:
        games.apply_action(player=player, session_id=session.id, token=token)
    session.refresh_from_db()
    if finish and not session.finished:
        games.finish_session(player=player, session_id=session.id)


def walk(room: Room, steps: int) -> list[str]:
    return legal_walk(room.code, steps)


def on_commit(capture: Any, call: Callable[[], Any]) -> Any:
    """Run `call` with what it leaves for the commit run too (a room's end, its listeners)."""
    with capture(execute=True):
        return call()
