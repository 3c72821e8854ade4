"""Quick match: a signed-in player asks for a rated race of a variant; the server forms races of 2 to
6 players of close rating and starts each on a fresh hidden deal (docs/races.md, "Quick match").

The queue is in the database (`QueueEntry`), so any worker may take a player's request, form
races or answer a look. A first ask is one cheap insert: it never waits for a pass. The passes
run in a thread of each worker (races.matcher), woken by the asks, one pass over a
variant at a time across the workers (an advisory lock of the database, tried, never waited for).
A pass starts its races in batches, each in one transaction that first locks its players' rows
(`select_for_update(skip_locked=True)`) and writes every room, session and placement in bulk: a
worker that dies mid-pass leaves that batch's players waiting (the transaction rolls back), and a
player is placed only from a row still unplaced and held, so nobody is placed twice (SQLite runs
one writer at a time).

A waiting player's page asks again every 2 s: the ask is the sign that they are still there (a
player gone quiet is dropped, not placed in a race they will never see), and it wakes the worker it
reaches, so that the passes go on whichever workers live. Once placed, asking again for the same
variant answers the race. Reading where one stands (`status`, the GET) writes nothing.
"""

from __future__ import annotations

import bisect
import contextlib
import datetime as dt
import logging
import math
import threading
import time
import uuid
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.db import DatabaseError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from games.dailies.fair_play import Origin
from games.deals.codes import parse_variant_or_refuse
from games.models import GameSession, Player, Room, RoomMember
from games.rooms import rooms
from races import ratings, selectors
from races.matcher import Matcher
from races.models import MatchedRace, QueueEntry, Rating
from races.player_socket import tell_each_on_commit
from web import storage
from web.errors import Conflict, Forbidden, NotFound

log = logging.getLogger(__name__)

RACE_MIN, RACE_MAX = 2, 6
FILL_SECONDS = 5  # a race of fewer than RACE_MAX forms once its longest waiter has waited this long
STALE_SECONDS = 20  # a waiting player not heard from for this long is dropped from the queue
PASS_SECONDS = 0.5  # a worker's passes over a variant this often while anyone waits (races.matcher)
PASS_BUDGET_SECONDS = 2.0  # a pass starts no batch after this long (the next pass goes on)
BATCH_RACES = 50  # races started in one transaction
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
    """Races out of `waiting`, longest waiters' first: runs of neighbours in rating order, each of
    RACE_MIN to RACE_MAX players within its longest waiter's allowance, of fewer than RACE_MAX only
    once that player has waited FILL_SECONDS. Of the ways to cut the queue so: the one that places
    the most; then the one that leaves the fewest players alone, both their neighbours in rating
    placed (one left beside another can race them later; one left alone, at an edge of the ratings,
    might wait for ever); then the one that places the longest waiters; then the largest races."""
    by_mu = sorted(waiting, key=lambda w: (w.mu, w.joined_at, w.player_id))
    waited = [(now - w.joined_at) // dt.timedelta(microseconds=1) for w in by_mu]
    # The best cut of each prefix of `by_mu` for each way its last player stands (_PLACED, _ALONE:
    # left and the one before placed, _BESIDE: left next to another left), with the prefix and way
    # it grew from (a race when it grew by more than one player). A score: placed, minus those left
    # alone, microseconds waited by the placed, the sum of the squared race sizes.
    count = len(by_mu)
    best: list[list[_Score | None]] = [[None] * 3 for _ in range(count + 1)]
    came: list[list[tuple[int, int]]] = [[(0, 0)] * 3 for _ in range(count + 1)]
    best[0][_PLACED] = (0, 0, 0, 0)
    for first in range(count):
        sizes = _race_sizes_from(by_mu, first, now)
        for state, score in enumerate(best[first]):
            if score is None:
                continue
            placed, alone, wait, squares = score
            if state == _ALONE:
                alone -= 1  # a race follows (or nothing): the one left before stays alone
            moves = [
                (first + n, _PLACED, (placed + n, alone, wait + sum(waited[first : first + n]), squares + n * n))
                for n in sizes
            ]
            moves.append((first + 1, _ALONE if state == _PLACED else _BESIDE, score))
            for at, after, reached in moves:
                held = best[at][after]
                if held is None or reached > held:
                    best[at][after], came[at][after] = reached, (first, state)
    last = [
        (score[0], score[1] - (state == _ALONE), *score[2:]) if score else None
        for state, score in enumerate(best[count])
    ]
    state = max((state for state in range(3) if last[state] is not None), key=lambda state: last[state] or ())
    spans: list[tuple[int, int]] = []  # each race's first and past-last places in `by_mu`
    at = count
    while at > 0:
        first, before = came[at][state]
        if at - first >= RACE_MIN:
            spans.append((first, at))
        at, state = first, before
    races = [by_mu[first:end] for first, end in _keep_company(by_mu, spans[::-1], now)]
    return sorted(races, key=lambda race: min((w.joined_at, w.player_id) for w in race))


_Score = tuple[int, int, int, int]
_PLACED, _ALONE, _BESIDE = 0, 1, 2


def _keep_company(by_mu: list[Waiting], spans: list[tuple[int, int]], now: dt.datetime) -> list[tuple[int, int]]:
    """`spans` (the races' first and past-last places in `by_mu`, in order), unless they leave one
    player alone in the queue (nobody else may come): then the race next to them in rating leaves
    them its member nearest them, if the rest still make a race; else that race waits with them,
    unless it is of RACE_MAX (six in range start at once)."""
    placed = [False] * len(by_mu)
    for first, end in spans:
        placed[first:end] = [True] * (end - first)
    if placed.count(False) != 1 or len(by_mu) < RACE_MIN:
        return spans
    lone = placed.index(False)
    after = bisect.bisect([first for first, _ in spans], lone)  # the races below `lone`
    sides = []
    if after > 0:
        sides.append((by_mu[lone].mu - by_mu[lone - 1].mu, after - 1))
    if after < len(spans):
        sides.append((by_mu[lone + 1].mu - by_mu[lone].mu, after))
    _, nearest = min(sides)
    first, end = spans[nearest]
    full = end - first == RACE_MAX
    first, end = (first, end - 1) if nearest < after else (first + 1, end)
    if end - first in _race_sizes_from(by_mu, first, now):
        return [*spans[:nearest], (first, end), *spans[nearest + 1 :]]
    return spans if full else spans[:nearest] + spans[nearest + 1 :]


def _race_sizes_from(by_mu: list[Waiting], first: int, now: dt.datetime) -> list[int]:
    """The sizes of the races `by_mu[first:]` may start with: within their longest waiter's
    allowance, of RACE_MAX, or fewer once that player has waited FILL_SECONDS."""
    sizes = []
    anchor = by_mu[first]
    for last in range(first + 1, min(first + RACE_MAX, len(by_mu))):
        anchor = min(anchor, by_mu[last], key=lambda w: (w.joined_at, w.player_id))
        waited = (now - anchor.joined_at).total_seconds()
        reach = allowance(waited)
        low, high = by_mu[first].mu, by_mu[last].mu
        size = last - first + 1
        if low >= anchor.mu - reach and high <= anchor.mu + reach and (size == RACE_MAX or waited >= FILL_SECONDS):
            sizes.append(size)
    return sizes


async def ask(
    *, player: Player, variant: object, origin: Origin | None = None, now: dt.datetime | None = None
) -> dict[str, Any]:
    """Put `player` in the queue for `variant` (again: nothing changes but that they are seen; once
    placed: the race formed for them) and wake the passes; where they stand. The one way in, on the
    event loop: sync code asks through asgiref's async_to_sync. A first ask is one insert that reads
    the player's rating and checks they are not racing (with the count of those waiting), committed
    with the loop's other writes (web.storage). Any other ask takes one more round trip: an entry
    whose race is over makes way and the insert is tried again; a waiting entry of this variant is
    marked seen; an entry placed in a race still on answers it; else refused."""
    now = now or timezone.now()
    if player.is_guest:
        raise Forbidden(gettext(GUESTS_UNRATED))
    chosen = parse_variant_or_refuse(variant)
    values = _values(player, chosen, origin or Origin(), now)
    asked, waiting = await storage.commit_each([(_FIRST_ASK, values), (_WAITING, values)])
    joined_at, entry = now, None
    if asked is None:  # asked before (again, after a race, for another variant), or racing
        _, asked, _, entry, waiting = await storage.commit_each(
            [(_CLEAR_PLACED, values), (_FIRST_ASK, values), (_SEEN, values), (_ENTRY, values), (_WAITING, values)]
        )
    assert waiting is not None  # a count always gives a row
    if asked is None:
        assert entry is not None  # a left join of one row always gives it
        placed = _placed(entry, chosen)
        if placed is not None:
            since = storage.stored_datetime(entry[2])
            return _answer(variant=chosen, waiting=waiting[0], joined_at=since, room=placed, now=now)
        joined_at = _waiting_since(entry, chosen)
    matcher.wake(chosen)
    return _answer(variant=chosen, waiting=waiting[0], joined_at=joined_at, room=None, now=now)


def _answer(
    *, variant: str, waiting: int, joined_at: dt.datetime, room: str | None, now: dt.datetime
) -> dict[str, Any]:
    """Where a player's quick match stands, as an ask and a look answer it."""
    return {
        "state": "placed" if room else "waiting",
        "variant": variant,
        "waiting": waiting,
        "waited_ms": int(max(0.0, (now - joined_at).total_seconds()) * 1000),
        "room": room,
    }


def _values(player: Player, variant: str, origin: Origin, now: dt.datetime) -> dict[str, Any]:
    """The parameters of the ask's statements. Each string at most once a statement: PostgreSQL
    deduces one type a parameter (text here, varchar there)."""
    adapt = storage.values_database().ops.adapt_datetimefield_value
    game = ratings.game_of(variant)
    return {
        "player": player.pk,
        "game": game,
        "rated_in": game,
        "variant": variant,
        "now": adapt(now),
        "since": adapt(_seen_since(now)),
        "device": origin.device,
        "address": origin.address,
        "default_mu": selectors.DEFAULT_MU,
        "racing": Room.State.RACING.value,
    }


def _placed(entry: storage.Row, chosen: str) -> str | None:
    """The room of the race formed for this ask's variant, while the player races in it."""
    variant, room_id, _, racing = entry
    placed = room_id is not None and racing and variant == chosen
    return str(uuid.UUID(str(room_id))) if placed else None  # SQLite gives the id as bare hex


def _waiting_since(entry: storage.Row, chosen: str) -> dt.datetime:
    """When the player's entry joined the queue for `chosen`, as the ask's second round trip left
    it; else the refusal that says why they cannot wait for it."""
    variant, room_id, joined_at, racing = entry
    if variant is not None and room_id is None and variant != chosen:
        raise Conflict(
            gettext("You are already waiting for a race of %(variant)s: cancel it before you ask for another.")
            % {"variant": variant}
        )
    if racing:
        raise Conflict(gettext("You are in a race already: finish it before you ask for another."))
    if variant is None or room_id is not None:  # crossed by another request of the player's (a cancel)
        raise Conflict(gettext(ALREADY_WAITING))
    return storage.stored_datetime(joined_at)


_RACING = f"""EXISTS (
  SELECT 1 FROM {RoomMember._meta.db_table} m
  JOIN {Room._meta.db_table} r ON r.id = m.room_id
  JOIN {GameSession._meta.db_table} s ON s.id = m.session_id
  WHERE m.player_id = %(player)s AND r.state = %(racing)s AND s.finished_at IS NULL
)"""
_FIRST_ASK = f"""INSERT INTO {QueueEntry._meta.db_table} (
  player_id, game, variant, mu, joined_at, seen_at, room_id, device, address
)
SELECT %(player)s, %(game)s, %(variant)s,
  COALESCE(
    (SELECT mu FROM {Rating._meta.db_table} WHERE player_id = %(player)s AND game = %(rated_in)s), %(default_mu)s
  ),
  %(now)s, %(now)s, NULL, %(device)s, %(address)s
WHERE NOT {_RACING}
ON CONFLICT (player_id) DO NOTHING
RETURNING player_id"""
_WAITING = f"""SELECT count(*) FROM {QueueEntry._meta.db_table}
WHERE variant = %(variant)s AND room_id IS NULL AND seen_at >= %(since)s"""
# A placed entry makes way for a new ask once its race is over for the player.
_CLEAR_PLACED = f"""DELETE FROM {QueueEntry._meta.db_table}
WHERE player_id = %(player)s AND room_id IS NOT NULL AND NOT {_RACING}"""
# A waiting entry of the variant asked for is seen. A pass placing it holds its row: this waits for
# that pass, then finds the entry placed (and the player racing).
_SEEN = f"""UPDATE {QueueEntry._meta.db_table} SET seen_at = %(now)s
WHERE player_id = %(player)s AND room_id IS NULL AND variant = %(variant)s AND seen_at < %(now)s"""
_ENTRY = f"""SELECT q.variant, q.room_id, q.joined_at, {_RACING}
FROM (SELECT 1 AS one) AS asked LEFT JOIN {QueueEntry._meta.db_table} q ON q.player_id = %(player)s"""


def status(*, player: Player, now: dt.datetime | None = None) -> dict[str, Any]:
    """Where the player's quick match stands; writes nothing (asking again is the sign of life)."""
    now = now or timezone.now()
    entry = QueueEntry.objects.filter(player=player).first()
    if entry is None:
        raise NotFound(gettext(NOT_WAITING))
    return _answer(
        variant=entry.variant,
        waiting=selectors.waiting_for(entry.variant, since=_seen_since(now)),
        joined_at=entry.joined_at,
        room=str(entry.room_id) if entry.room_id else None,
        now=now,
    )


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


def run_pass(variant: str, *, now: dt.datetime | None = None) -> list[Room]:
    """Form the races the queue of `variant` allows now and start them, in batches of BATCH_RACES
    races a transaction, unless another pass over `variant` is running (in any worker: an advisory
    lock of the database, tried, never waited for). A batch locks its players' rows first, without
    waiting: a race whose players a request holds (a cancel) is left to the next pass. Starts no
    batch after PASS_BUDGET_SECONDS; the next pass goes on. The rooms started."""
    with only_pass(variant) as mine:
        return _pass(variant, now or timezone.now()) if mine else []


def still_waiting(variant: str, *, now: dt.datetime) -> bool:
    """Whether anyone seen lately waits for a race of `variant`: the passes go on while so."""
    return selectors.waiting(variant, since=_seen_since(now)).exists()


@contextlib.contextmanager
def only_pass(variant: str) -> Iterator[bool]:
    """Whether this is the one pass over `variant` now: one a process (a lock of its threads) and,
    on PostgreSQL, one across the workers (a session advisory lock, let go at the end and by a
    connection that dies with its worker)."""
    guard = _passes.setdefault(variant, threading.Lock())
    if not guard.acquire(blocking=False):
        yield False
        return
    try:
        if connection.vendor != "postgresql":
            yield True
            return
        key = zlib.crc32(variant.encode()) - 2**31  # the lock's two int4 keys: the app's, the variant's
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [ADVISORY_KEY, key])
            (held,) = cursor.fetchone()
        try:
            yield bool(held)
        finally:
            if held:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [ADVISORY_KEY, key])
    finally:
        guard.release()


def _seen_since(now: dt.datetime) -> dt.datetime:
    """Players not heard from since then are gone from the queue (STALE_SECONDS)."""
    return now - dt.timedelta(seconds=STALE_SECONDS)


def _round(variant: str) -> bool:
    run_pass(variant)
    return still_waiting(variant, now=timezone.now())


_passes: dict[str, threading.Lock] = {}
matcher = Matcher(_round, PASS_SECONDS)
ADVISORY_KEY = 43  # the quick match's own space of advisory locks


def _pass(variant: str, now: dt.datetime) -> list[Room]:
    stale_before = _seen_since(now)
    _drop_stale(variant, stale_before)
    entries = selectors.waiting(variant, since=stale_before)
    waiting = [Waiting(*row) for row in entries.values_list("player_id", "mu", "joined_at")]
    races = form_races(waiting, now)
    started: list[Room] = []
    deadline = time.monotonic() + PASS_BUDGET_SECONDS
    for at in range(0, len(races), BATCH_RACES):
        if time.monotonic() > deadline:
            break
        try:
            with transaction.atomic():
                started += _start_batch(races[at : at + BATCH_RACES], variant, now)
        except DatabaseError as error:
            log.warning("quick match: a batch of races of %s rolled back: %s", variant, error)
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


def _start_batch(races: list[list[Waiting]], variant: str, now: dt.datetime) -> list[Room]:
    """Start `races` at once (games.rooms.start_races), each hosted by its longest waiter, with the
    players still waiting and not held by another transaction; their entries name their rooms. A
    racer start_races left out (over the new-games limit) keeps waiting."""
    ids = [w.player_id for race in races for w in race]
    entries = {entry.pk: entry for entry in _lockable(QueueEntry.objects.filter(player_id__in=ids, room=None))}
    ready = [race for race in races if all(w.player_id in entries for w in race)]
    if not ready:
        return []
    players = Player.objects.in_bulk([w.player_id for race in ready for w in race])
    lineups = [[players[w.player_id] for w in sorted(race, key=lambda w: (w.joined_at, w.player_id))] for race in ready]
    outcomes = rooms.start_races(lineups, variant, min_racers=RACE_MIN, now=now)
    started = [each for each in outcomes if isinstance(each, rooms.Started)]
    MatchedRace.objects.bulk_create([MatchedRace(room=each.room, how=MatchedRace.How.QUICK) for each in started])
    placed = []
    for each in started:
        for racer in each.racers:
            entry = entries[racer.pk]
            entry.room = each.room
            placed.append(entry)
    QueueEntry.objects.bulk_update(placed, ["room"])
    ratings.record_origins([(e.room_id, e.player_id, Origin(e.device, e.address)) for e in placed])
    tell_each_on_commit(
        [
            (
                [racer.pk for racer in each.racers],
                {"type": "player.placed", "room": str(each.room.pk), "variant": variant},
            )
            for each in started
        ]
    )
    return [each.room for each in started]
