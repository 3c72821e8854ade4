"""Quick match: a signed-in player asks for a rated race of a variant; the server forms races of 2 to
6 players of close rating and starts each on a fresh hidden deal (docs/races.md, "Quick match").

The queue is in the database (`QueueEntry`), so any worker may take a player's request, form a race
or answer a poll. Each race is started in one transaction that first locks its players' rows with
`select_for_update(skip_locked=True)`: two workers start races side by side from disjoint players,
a race whose players another holds is left to the next pass, a worker that dies mid-way leaves its
players waiting (its transaction rolls back), and the placing update checks that each player is
still unplaced, so nobody is placed twice even where rows cannot be locked (SQLite runs one writer
at a time).

Who forms races: the requests of the waiting players themselves. Their page polls every 2 s (the
poll is also the sign that they are still there: a player gone quiet is dropped, not placed in a
race they will never see), and each enqueue and poll runs a pass over its variant, one at a time in
each worker and not within PASS_SECONDS of its last. The widening below depends on the time only,
so a pass every second or two while anyone waits is all it needs; the closer runs a loop a minute,
far too rarely to place anyone in time, and no player waits without polling.
"""

from __future__ import annotations

import bisect
import datetime as dt
import heapq
import logging
import math
import random
import threading
import time
from dataclasses import dataclass
from typing import Any

from django.db import DatabaseError, IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from games.deals.codes import fresh_code, parse_variant_or_refuse
from games.engine import GameCode
from games.models import Player, Room, RoomMember
from games.rooms import rooms
from races import selectors
from races.models import MatchedRace, QueueEntry
from races.player_socket import tell_on_commit
from web.errors import Conflict, Forbidden, NotFound, RateLimited

log = logging.getLogger(__name__)

RACE_MIN, RACE_MAX = 2, 6
FILL_SECONDS = 5  # a race of fewer than RACE_MAX forms once its longest waiter has waited this long
STALE_SECONDS = 20  # a waiting player not heard from for this long is dropped from the queue
SEEN_EVERY_SECONDS = 5  # a poll refreshes its player's `seen_at` when older than this
PASS_SECONDS = 0.5  # at most one pass a variant this often in each worker
PASS_BUDGET_SECONDS = 2.0  # a pass starts no race after this long (the next pass goes on)
WIDEN_EVERY_SECONDS = 5
WIDEN_STEP = 3.0  # the rating distance allowed around a race's longest waiter grows by this each WIDEN_EVERY_SECONDS
ANY_RATING_AFTER_SECONDS = 30

GUESTS_UNRATED = gettext_noop("Sign up to play rated races: a guest has no rating.")
NOT_WAITING = gettext_noop("You are not waiting for a race.")
ALREADY_WAITING = gettext_noop("You are already waiting for a race: cancel it before you ask for another.")


def allowance(waited_seconds: float) -> float:
    """How far from the longest waiter's rating (mu) a race may reach: 3 at first, 3 more every 5
    seconds of its wait, any rating from 30 seconds on."""
    if waited_seconds >= ANY_RATING_AFTER_SECONDS:
        return math.inf
    return WIDEN_STEP * (1 + int(waited_seconds // WIDEN_EVERY_SECONDS))


@dataclass(frozen=True)
class Waiting:
    player_id: int
    mu: float
    joined_at: dt.datetime


def form_races(waiting: list[Waiting], now: dt.datetime) -> list[list[Waiting]]:
    """Races out of `waiting`, longest waiters first: each with the players nearest its longest
    waiter's rating within that player's allowance, up to RACE_MAX; fewer (from RACE_MIN) once it
    has waited FILL_SECONDS. A race leaves no single player of its window behind when it can help it."""
    by_mu = sorted(waiting, key=lambda w: (w.mu, w.joined_at, w.player_id))
    mus = [w.mu for w in by_mu]
    races: list[list[Waiting]] = []
    placed: set[int] = set()
    for anchor in sorted(waiting, key=lambda w: (w.joined_at, w.player_id)):
        if anchor.player_id in placed:
            continue
        waited = (now - anchor.joined_at).total_seconds()
        reach = allowance(waited)
        low = bisect.bisect_left(mus, anchor.mu - reach)
        high = bisect.bisect_right(mus, anchor.mu + reach)
        pool = by_mu[low:high]
        if len(pool) < RACE_MAX and (len(pool) < RACE_MIN or waited < FILL_SECONDS):
            continue
        size = min(RACE_MAX, len(pool))
        if len(pool) - size == 1 and size > RACE_MIN:
            size -= 1  # two left over can race each other; one alone could not
        race = heapq.nsmallest(size, pool, key=lambda w: (abs(w.mu - anchor.mu), w.joined_at, w.player_id))
        races.append(race)
        placed.update(w.player_id for w in race)
        for w in race:  # the placed leave the window of the anchors after them
            at = by_mu.index(w, low)
            del by_mu[at], mus[at]
    return races


def _game_of(variant: str) -> str:
    return GameCode.from_variant(variant, 0).game


def enqueue(*, player: Player, variant: object, now: dt.datetime | None = None) -> dict[str, Any]:
    """Put `player` in the queue for `variant` (again: nothing changes) and run a pass; the status."""
    now = now or timezone.now()
    if player.is_guest:
        raise Forbidden(gettext(GUESTS_UNRATED))
    chosen = parse_variant_or_refuse(variant)
    with transaction.atomic():
        entry = QueueEntry.objects.select_for_update().filter(player=player).first()
        if entry is not None and entry.room_id is None and entry.variant != chosen:
            raise Conflict(
                gettext("You are already waiting for a race of %(variant)s: cancel it before you ask for another.")
                % {"variant": entry.variant}
            )
        if entry is not None and entry.room_id is not None:
            entry.delete()  # placed before: the new request replaces it, unless the race is still on (below)
            entry = None
        if _racing(player):
            raise Conflict(gettext("You are in a race already: finish it before you ask for another."))
        if entry is None:
            game = _game_of(chosen)
            mu = selectors.match_mu([player.pk], game)[player.pk]
            try:
                with transaction.atomic():
                    QueueEntry.objects.create(
                        player=player, game=game, variant=chosen, mu=mu, joined_at=now, seen_at=now
                    )
            except IntegrityError:  # the same player's other request got there first
                raise Conflict(gettext(ALREADY_WAITING)) from None
        else:
            entry.seen_at = now
            entry.save(update_fields=["seen_at"])
    maybe_run_pass(chosen, now=now)
    return status(player=player, now=now)


def _racing(player: Player) -> bool:
    return RoomMember.objects.filter(
        player=player, room__state=Room.State.RACING, session__isnull=False, session__finished_at=None
    ).exists()


def poll(*, player: Player, now: dt.datetime | None = None) -> dict[str, Any]:
    """A waiting player's poll: they are still there; a pass may run; where they stand."""
    now = now or timezone.now()
    entry = QueueEntry.objects.filter(player=player).first()
    if entry is None:
        raise NotFound(gettext(NOT_WAITING))
    if entry.room_id is None:
        if (now - entry.seen_at).total_seconds() >= SEEN_EVERY_SECONDS:
            _seen(player, now)
        maybe_run_pass(entry.variant, now=now)
    return status(player=player, now=now)


def _seen(player: Player, now: dt.datetime) -> None:
    """Refresh `seen_at` unless a pass holds the row: that pass is placing the player, or lets go soon."""
    with transaction.atomic():
        locked = _lockable(QueueEntry.objects.filter(player=player, room=None)).first()
        if locked is not None:
            locked.seen_at = now
            locked.save(update_fields=["seen_at"])


def status(*, player: Player, now: dt.datetime) -> dict[str, Any]:
    entry = QueueEntry.objects.filter(player=player).first()
    if entry is None:
        raise NotFound(gettext(NOT_WAITING))
    waited = max(0.0, (now - entry.joined_at).total_seconds())
    return {
        "state": "placed" if entry.room_id else "waiting",
        "variant": entry.variant,
        "waiting": selectors.waiting_for(entry.variant, since=now - dt.timedelta(seconds=STALE_SECONDS)),
        "waited_ms": int(waited * 1000),
        "room": str(entry.room_id) if entry.room_id else None,
    }


def cancel(*, player: Player) -> None:
    """Leave the queue; refused once a race was formed for the player (it waits for them)."""
    with transaction.atomic():
        entry = QueueEntry.objects.select_for_update().filter(player=player).first()  # waits for a pass placing it
        if entry is None:
            raise NotFound(gettext(NOT_WAITING))
        if entry.room_id is not None:
            raise Conflict(
                gettext("A race has been found for you already: it starts in room %(room)s.") % {"room": entry.room_id}
            )
        entry.delete()


def maybe_run_pass(variant: str, *, now: dt.datetime) -> list[Room]:
    """A pass over `variant`'s queue, unless this process is running one or ran one within
    PASS_SECONDS: each worker runs at most one at a time, and the workers' passes run side by side."""
    guard = _passes.setdefault(variant, threading.Lock())
    if time.monotonic() - _last_pass.get(variant, -math.inf) < PASS_SECONDS or not guard.acquire(blocking=False):
        return []
    try:
        _last_pass[variant] = time.monotonic()
        return run_pass(variant, now=now)
    finally:
        guard.release()


_passes: dict[str, threading.Lock] = {}
_last_pass: dict[str, float] = {}


def run_pass(variant: str, *, now: dt.datetime | None = None) -> list[Room]:
    """Form the races the queue of `variant` allows now and start them, each in a transaction of
    its own that locks its players' rows first: a race whose players another pass holds, placed or
    took out meanwhile is left to the next pass. Stops starting races after PASS_BUDGET_SECONDS, so
    that the request running it answers soon; the next pass goes on. The rooms started."""
    now = now or timezone.now()
    stale_before = now - dt.timedelta(seconds=STALE_SECONDS)
    _drop_stale(variant, stale_before)
    entries = QueueEntry.objects.filter(variant=variant, room=None, seen_at__gte=stale_before)
    waiting = [Waiting(*row) for row in entries.values_list("player_id", "mu", "joined_at")]
    races = form_races(waiting, now)
    if races:  # passes of other workers formed the same races from the same queue: start at another one
        turn = random.randrange(len(races))
        races = races[turn:] + races[:turn]
    started: list[Room] = []
    deadline = time.monotonic() + PASS_BUDGET_SECONDS
    for race in races:
        if time.monotonic() > deadline:
            break
        try:
            with transaction.atomic():
                ids = [w.player_id for w in race]
                if len(_lockable(QueueEntry.objects.filter(player_id__in=ids, room=None))) != len(ids):
                    continue
                room = _start(race, variant, now)
        except (DatabaseError, _PlacedElsewhere) as error:
            log.warning("quick match: a race of %s rolled back: %s", variant, error)
            continue
        if room is not None:
            started.append(room)
    return started


def _drop_stale(variant: str, stale_before: dt.datetime) -> None:
    with transaction.atomic():
        gone = _lockable(QueueEntry.objects.filter(variant=variant, room=None, seen_at__lt=stale_before))
        ids = [entry.pk for entry in gone]
        if ids:
            QueueEntry.objects.filter(pk__in=ids, room=None).delete()


def _lockable(entries: Any) -> Any:
    """`entries` locked for this transaction, without those another transaction holds (where the
    database can skip them; elsewhere one writer at a time holds the whole database)."""
    skip = connection.features.has_select_for_update_skip_locked
    return entries.select_for_update(skip_locked=skip)


class _PlacedElsewhere(Exception):
    """A player of a race was placed by another transaction: that race is rolled back."""


def _start(race: list[Waiting], variant: str, now: dt.datetime) -> Room | None:
    """Open the race's room on a fresh hidden deal with its players, and start it (the countdown).
    Hosted by its longest waiter; if that player may start no game now, by the next one."""
    ids = [w.player_id for w in sorted(race, key=lambda w: (w.joined_at, w.player_id))]
    players = Player.objects.in_bulk(ids)
    for host_id in ids:
        try:
            with transaction.atomic():
                opened = _open(players[host_id], [players[i] for i in ids], variant)
                room = rooms.start_room(room_id=opened.pk, player=players[host_id], now=now)
        except RateLimited:
            continue
        break
    else:
        return None
    racing = list(RoomMember.objects.filter(room=room).values_list("player_id", flat=True))
    # Each only if still unplaced: a player placed twice would be a bug of the locks, never a second race.
    if QueueEntry.objects.filter(player_id__in=racing, room=None).update(room=room) != len(racing):
        raise _PlacedElsewhere(f"room {room.pk}")
    # A racer start_room left out (over the new-games limit) keeps waiting.
    tell_on_commit(racing, {"type": "player.placed", "room": str(room.pk), "variant": variant})
    return room


def _open(host: Player, racers: list[Player], variant: str) -> Room:
    room = Room.objects.create(host=host, variant=variant, code=str(fresh_code(variant, long=True)), code_secret=True)
    RoomMember.objects.bulk_create([RoomMember(room=room, player=racer) for racer in racers])
    MatchedRace.objects.create(room=room, how=MatchedRace.How.QUICK)
    return room
