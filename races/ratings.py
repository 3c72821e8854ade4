"""Ratings from finished races (docs/races.md): openskill's Plackett-Luce model, per game.

A finished race is rated once, from its final table's order (games.rooms.table_of, the order the
table shows), when it was a fair race: on a hidden fresh deal (a chosen code may have been
practised), run to its end (all finished, or its time limit reached; not called off by its host
while someone else still played), among two or more racers with a name (a guest has no page, so no
rating), no two of whom came from the same device or address (the linked-accounts signal of the
dailies, games.dailies.fair_play). Every racer's rating and history row is written in one
transaction, or none; the decision is kept (RaceVerdict), so a repeated end event rates nothing
twice.
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from openskill.models import PlackettLuce

from games.dailies.fair_play import Origin
from games.engine import GameCode
from games.models import Room, RoomMember
from games.rooms import race_events, rooms
from races.models import RacerOrigin, RaceVerdict, Rating, RatingChange

MODEL = PlackettLuce()  # its defaults: a new player at mu 25, sigma 25/3 (MODEL.mu, MODEL.sigma)
# A rating's first races move it most and say least: shown "provisional" until this many. Five
# races bring a new player's sigma down by about a fifth, and most newcomers' place in the field is
# plain by then.
PROVISIONAL_RACES = 5
# Shown as 60 points a unit of mu: a new player reads 1500 ± 1000, an Elo-like range players know.
POINTS = 60
GAMES = ("SP", "SD", "RU")


def game_of(variant: str) -> str:
    """The game ("SP", "SD", "RU") a variant is of: ratings are kept per game."""
    return GameCode.from_variant(variant, 0).game


@dataclass(frozen=True)
class Shown:
    """A rating as players read it: points and the uncertainty (two sigmas, in points)."""

    rating: int
    uncertainty: int
    races: int

    @property
    def provisional(self) -> bool:
        return self.races < PROVISIONAL_RACES

    def document(self) -> dict[str, Any]:
        return {
            "rating": self.rating,
            "uncertainty": self.uncertainty,
            "races": self.races,
            "provisional": self.provisional,
        }


def shown(mu: float, sigma: float, races: int) -> Shown:
    return Shown(rating=round(mu * POINTS), uncertainty=round(2 * sigma * POINTS), races=races)


# ------------------------------------------------------------------ hearing of races


def on_race_event(event: race_events.Event) -> None:
    """The races' listener (races.apps): keep where racers come from; rate a race that ended."""
    if isinstance(event, race_events.Joined):
        if event.origin is not None:
            record_origins([(event.room_id, event.player_id, event.origin)])
    elif isinstance(event, race_events.Ended):
        rate_race(room_id=event.room_id, called_off=event.called_off)


def record_origins(origins: list[tuple[uuid.UUID, int, Origin]]) -> None:
    """Keep where each (room, player) came from (a join heard from the rooms, or the rooms the races
    app forms itself: a quick match, an accepted challenge), in one insert; one with nothing known is
    not kept, nor a second for the same room and player."""
    RacerOrigin.objects.bulk_create(
        [
            RacerOrigin(room_id=room_id, player_id=player_id, device=origin.device, address=origin.address)
            for room_id, player_id, origin in origins
            if origin.device or origin.address
        ],
        ignore_conflicts=True,
    )


# ------------------------------------------------------------------ rating a race


def rate_race(*, room_id: uuid.UUID, called_off: bool, now: dt.datetime | None = None) -> RaceVerdict | None:
    """Rate a finished race once; the verdict kept (a second call answers the first's). None while
    the race is not over."""
    now = now or timezone.now()
    with transaction.atomic():
        # The room's lock makes a repeated end event wait for the first, then find its verdict.
        room = Room.objects.select_for_update().filter(pk=room_id).first()
        if room is None or room.state != Room.State.FINISHED:
            return None
        kept = RaceVerdict.objects.filter(room=room).first()
        if kept is not None:
            return kept
        table = [(member, row) for member, row in rooms.table_of(room) if not member.player.is_guest]
        reason = _reason(room, [member for member, _ in table], called_off=called_off)
        verdict = RaceVerdict.objects.create(room=room, reason=reason, decided_at=now)
        if verdict.rated:
            _rate(room, table, now)
    return verdict


def _reason(room: Room, racers: list[RoomMember], *, called_off: bool) -> str:
    if called_off:
        return RaceVerdict.Reason.CALLED_OFF
    if not room.code_secret:
        return RaceVerdict.Reason.KNOWN_CODE
    if len(racers) < 2:
        return RaceVerdict.Reason.TOO_FEW
    if linked(room, [member.player_id for member in racers]):
        return RaceVerdict.Reason.LINKED
    return RaceVerdict.Reason.RATED


def linked(room: Room, player_ids: list[int]) -> bool:
    """Whether two of the racers came into the room from one device, or one address (when the
    dailies link addresses too: settings.FAIR_PLAY_LINK_ADDRESSES)."""
    origins = list(RacerOrigin.objects.filter(room=room, player_id__in=player_ids))
    kinds = ["device", "address"] if settings.FAIR_PLAY_LINK_ADDRESSES else ["device"]
    for kind in kinds:
        values = [getattr(origin, kind) for origin in origins if getattr(origin, kind)]
        if len(values) != len(set(values)):
            return True
    return False


def places(table: list[tuple[RoomMember, dict[str, Any]]]) -> list[int]:
    """Each racer's place, 1 first, in the table's order; one whose game has no verified result
    (left, or never played) or who ran out of time (its result is only where they stood) shares the
    last place with the others like them (the table lists them last)."""
    finished = [row["result"] is not None and not row["out_of_time"] for _, row in table]
    last = sum(finished) + 1
    return [index + 1 if done else last for index, done in enumerate(finished)]


def _rate(room: Room, table: list[tuple[RoomMember, dict[str, Any]]], now: dt.datetime) -> None:
    game = game_of(room.variant)
    players = [member.player_id for member, _ in table]
    ratings = {r.player_id: r for r in Rating.objects.select_for_update().filter(game=game, player_id__in=players)}
    before = [ratings.get(pk) for pk in players]
    teams = [
        [MODEL.rating() if rating is None else MODEL.rating(mu=rating.mu, sigma=rating.sigma)] for rating in before
    ]
    ranks = places(table)
    after = MODEL.rate(teams, ranks=[float(place) for place in ranks])
    changes = []
    for player_id, old, (new,), (prior,), place in zip(players, before, after, teams, ranks, strict=True):
        if old is None:
            old = Rating(player_id=player_id, game=game, mu=prior.mu, sigma=prior.sigma, races=0)
        old.mu, old.sigma, old.races, old.updated_at = new.mu, new.sigma, old.races + 1, now
        old.save()
        changes.append(
            RatingChange(
                player_id=player_id,
                room=room,
                game=game,
                place=place,
                racers=len(players),
                mu_before=prior.mu,
                sigma_before=prior.sigma,
                mu_after=new.mu,
                sigma_after=new.sigma,
                at=now,
            )
        )
    RatingChange.objects.bulk_create(changes)


def describe(room: Room) -> dict[str, Any]:
    """A finished race's verdict for its document: "rated", or why not; None until decided."""
    if room.state != Room.State.FINISHED:
        return {}
    return {"rated": RaceVerdict.objects.filter(room=room).values_list("reason", flat=True).first()}
