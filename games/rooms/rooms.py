"""Race rooms: everyone plays the same deal as refereed sessions; progress is pushed to the room.

A room on a variant gets a fresh random deal whose code stays secret (room
documents and the sessions' documents) until the race ends.

Limits: opening a room counts against RATE_ROOMS (per host) and RATE_ROOMS_PER_ADDRESS; each game
a race's start makes counts against its racer's RATE_SESSION_STARTS, as a game started on its own
does. The host over that limit cannot start (429, nothing changes); any other racer over it is
left out of the race and watches it (docs/decisions.md): one racer cannot hold a room hostage.

A race ends when every racer has finished, when its host ends it (not a race that would be rated
while another racer plays), or RACE_LIMIT_MINUTES after its go (the closer's round): a racer still
playing then ran out of time and places last.
"""

from __future__ import annotations

import datetime as dt
import logging
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from asgiref.sync import async_to_sync
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from games import groups
from games.dailies.fair_play import Origin
from games.deals import secret_codes
from games.deals.codes import fresh_code, parse_code, parse_variant_or_refuse
from games.deals.variants import goal_of
from games.engine import Game
from games.models import GameSession, Player, Result, Room, RoomMember, StoredCode
from games.players.guests import count_new_game, count_new_games, over_new_games
from games.ranking.keys import RankKey
from games.results import announcements
from games.rooms import progress as room_progress
from games.rooms import race_events
from games.sessions.live import race_ends_at, race_limit
from games.sessions.starts import new_sessions
from web import ratelimit
from web.errors import BadRequest, Conflict, Forbidden, NotFound, RateLimited

log = logging.getLogger(__name__)

MAX_PLAYERS = 12
ROOMS_WINDOW_SECONDS = 3600
TOO_MANY_ROOMS = gettext_noop("You have opened too many race rooms.")
TOO_MANY_ROOMS_FROM_ADDRESS = gettext_noop("Too many new race rooms from this address.")
RATED_RACE_ENDS_ITSELF = gettext_noop(
    "A rated race cannot be ended early: it ends when everyone has finished, or %(minutes)s minutes after its start."
)
HOST_TOO_MANY_GAMES = gettext_noop(
    "You have started too many games in the last minute: the race can start once you may start another."
)


def room_for(room_id: object, *, lock: bool = False) -> Room:
    try:
        key = uuid.UUID(str(room_id))
    except ValueError:
        raise NotFound(gettext("No such race room.")) from None
    rooms = Room.objects.select_related("host")
    if lock:
        rooms = rooms.select_for_update(of=("self",))
    room = rooms.filter(id=key).first()
    if room is None:
        raise NotFound(gettext("No such race room."))
    return room


def create_room(
    *,
    host: Player,
    variant: object = None,
    code: object = None,
    address: str | None = None,
    origin: Origin | None = None,
) -> Room:
    """A room on a chosen code (shown to all), or on a fresh deal of a variant (secret until the end).

    Counted, once the request is known to be valid, against the rooms of the requesting `address`
    (when given: a request's) and of the host; RateLimited past either. `origin`: where the host
    opened it from, told to the race listeners (games.rooms.race_events)."""
    if (variant is None) == (code is None):
        raise BadRequest(gettext('Give exactly one of "variant" or "code".'))
    if code is not None:
        game_code, secret = parse_code(code), False
        secret_codes.refuse_if_secret(game_code, now=timezone.now())
    else:
        # A long code: nobody can find it from the cards the racers are shown (docs/codes.md).
        game_code, secret = fresh_code(parse_variant_or_refuse(variant), long=True), True
    _count_new_room(host=host, address=address)
    with transaction.atomic():
        room = Room.objects.create(host=host, variant=game_code.variant, code=str(game_code), code_secret=secret)
        RoomMember.objects.create(room=room, player=host)
        race_events.tell_now(race_events.Joined(room_id=room.pk, player_id=host.pk, origin=origin))
    return room


def _count_new_room(*, host: Player, address: str | None) -> None:
    if address is not None:
        ratelimit.hit(
            "rooms-address",
            address,
            limit=settings.RATE_ROOMS_PER_ADDRESS,
            seconds=ROOMS_WINDOW_SECONDS,
            message=TOO_MANY_ROOMS_FROM_ADDRESS,
        )
    ratelimit.hit(
        "rooms", str(host.pk), limit=settings.RATE_ROOMS, seconds=ROOMS_WINDOW_SECONDS, message=TOO_MANY_ROOMS
    )


def join_room(*, room_id: object, player: Player, origin: Origin | None = None) -> Room:
    with transaction.atomic():
        room = room_for(room_id, lock=True)
        if room.members.filter(player=player).exists():
            return room
        if room.state != Room.State.LOBBY:
            raise Conflict(gettext("This race has already started: you can watch it, but not join."))
        if room.members.count() >= MAX_PLAYERS:
            raise Conflict(gettext("This room is full: a race has at most %(limit)s players.") % {"limit": MAX_PLAYERS})
        RoomMember.objects.create(room=room, player=player)
        race_events.tell_now(race_events.Joined(room_id=room.pk, player_id=player.pk, origin=origin))
        announce_on_commit(room)
    return room


def start_room(*, room_id: object, player: Player, now: dt.datetime | None = None) -> Room:
    """The host starts the race: a refereed session on the room's deal for every member.

    Each session counts as a new game of its racer. The host's is counted first: over their limit,
    RateLimited and nothing changes. A member over theirs is left out: no longer a member, they
    watch the race (docs/decisions.md)."""
    from games.services import start_session  # games.services imports this module's callers

    now = now or timezone.now()
    # From the host's start to the go everyone's cards stay face down and nobody may act.
    go = now + dt.timedelta(seconds=settings.RACE_COUNTDOWN_SECONDS)
    with transaction.atomic():
        room = room_for(room_id, lock=True)
        if room.host_id != player.pk:
            raise Forbidden(gettext("Only the host can start the race."))
        if room.state != Room.State.LOBBY:
            raise Conflict(gettext("This race has already started."))
        count_new_game(player, HOST_TOO_MANY_GAMES)
        for member in room.members.select_related("player").order_by("pk"):
            if member.player_id != player.pk and not _may_start_a_game(member.player):
                log.info("race room %s: %s left out, over the new-games limit", room.pk, member.player_id)
                member.delete()
                continue
            member.session, _ = start_session(
                player=member.player, code=room.code, code_secret=room.code_secret, in_room=True, starts_at=go, now=now
            )
            member.save(update_fields=["session"])
        room.state, room.started_at = Room.State.RACING, go
        room.save(update_fields=["state", "started_at"])
        announce_on_commit(room)
    return room


@dataclass(frozen=True)
class Started:
    room: Room
    racers: list[Player]


@dataclass(frozen=True)
class NotStarted:
    """A line-up too few of whom may start a game now: each racer over the new-games limit, with
    the seconds until their window lets them start one."""

    over: list[tuple[Player, float]]


def start_races(
    lineups: Sequence[Sequence[Player]], variant: str, *, min_racers: int, now: dt.datetime | None = None
) -> list[Started | NotStarted]:
    """Open and start at once a room for each line-up (its host first) on a fresh hidden deal of
    `variant`, in bulk and in the caller's transaction: the races a service forms (races.matching,
    races.challenges).

    As at start_room, each racer's game counts against their new games (all in one round trip);
    one over the limit is left out (the next in line hosts), and a line-up left with fewer than
    `min_racers` is not started (its counted games given back). Nothing is pushed: no socket watches
    a room nobody has been told of yet. Each line-up's outcome, in their order."""
    now = now or timezone.now()
    go = now + dt.timedelta(seconds=settings.RACE_COUNTDOWN_SECONDS)
    attempts = iter(count_new_games([racer for lineup in lineups for racer in lineup]))
    kept: list[list[Player] | NotStarted] = []
    for lineup in lineups:
        counted = [(racer, next(attempts)) for racer in lineup]
        allowed = [(racer, attempt) for racer, attempt in counted if not over_new_games(attempt)]
        if len(allowed) < min_racers:
            for _, attempt in allowed:
                ratelimit.give_back(attempt)
            kept.append(
                NotStarted([(racer, attempt.seconds_left) for racer, attempt in counted if over_new_games(attempt)])
            )
        else:
            kept.append([racer for racer, _ in allowed])
    to_start = [(racers, fresh_code(variant, long=True)) for racers in kept if isinstance(racers, list)]
    stored = StoredCode.objects.bulk_create(
        [StoredCode(code=str(code), game=code.game, variant=code.variant) for _, code in to_start],
        update_conflicts=True,  # a code drawn twice (as good as never) is the one row
        unique_fields=["code"],
        update_fields=["code"],
    )
    opened = Room.objects.bulk_create(
        [
            Room(
                host=racers[0],
                variant=variant,
                code=str(code),
                code_secret=True,
                state=Room.State.RACING,
                started_at=go,
            )
            for racers, code in to_start
        ]
    )
    sessions: list[GameSession] = []
    members: list[RoomMember] = []
    for (racers, code), stored_code, room in zip(to_start, stored, opened, strict=True):
        dealt = Game.from_code(code)
        made = new_sessions(racers, game=dealt, stored_code=stored_code, code_secret=True, in_room=True, started_at=go)
        sessions += made
        members += [
            RoomMember(room=room, player=racer, session=session) for racer, session in zip(racers, made, strict=True)
        ]
    GameSession.objects.bulk_create(sessions)
    RoomMember.objects.bulk_create(members)
    rooms = iter(opened)
    return [Started(room=next(rooms), racers=racers) if isinstance(racers, list) else racers for racers in kept]


def _may_start_a_game(racer: Player) -> bool:
    try:
        count_new_game(racer, gettext_noop("Too many new games."))
    except RateLimited:
        return False
    return True


def end_room(*, room_id: object, player: Player, now: dt.datetime | None = None) -> Room:
    """The host calls the race over: games still open end as they stand, so the table is final.

    Not while another racer still plays a race that would be rated (Conflict, nothing changes):
    that race ends when all have finished, or at its time limit (end_overdue_races), so a host who
    is behind cannot void it, nor push those still playing below them."""
    now = now or timezone.now()
    with transaction.atomic():
        room = room_for(room_id, lock=True)
        if room.host_id != player.pk:
            raise Forbidden(gettext("Only the host can end the race."))
        if room.state == Room.State.FINISHED:
            return room
        members = list(room.members.select_related("player", "session"))
        if not _host_may_end(room, members):
            raise Conflict(gettext(RATED_RACE_ENDS_ITSELF) % {"minutes": settings.RACE_LIMIT_MINUTES})
        called_off = _others_playing(room, members) or room.state == Room.State.LOBBY
        _end_open_games(_still_playing(members), now)
        _finish(room, now, called_off=called_off)
        announce_on_commit(room)
    return room


def end_overdue_races(*, now: dt.datetime | None = None) -> int:
    """The closer's step each round: end every race still on RACE_LIMIT_MINUTES after its go. How
    many it ended."""
    now = now or timezone.now()
    since = now - race_limit()
    overdue = list(Room.objects.filter(state=Room.State.RACING, started_at__lte=since).values_list("pk", flat=True))
    ended = 0
    for room_id in overdue:
        try:
            ended += _end_by_time(room_id, now)
        except Exception:  # noqa: BLE001 - one race that fails to end keeps no other waiting; the next round tries again
            log.exception("race room %s: its end by time failed", room_id)
    return ended


def _end_by_time(room_id: uuid.UUID, now: dt.datetime) -> bool:
    """End one race past its time limit, once: the games still open end as they stand and their
    players ran out of time (placed last, tied). A race run to its end, so rated like any other."""
    with transaction.atomic():
        room = room_for(room_id, lock=True)
        if room.state != Room.State.RACING or room.started_at is None or race_ends_at(room.started_at) > now:
            return False  # ended meanwhile (its last finish, another closer's round)
        members = list(room.members.select_related("player", "session"))
        out_of_time = _end_open_games(_still_playing(members), now)
        RoomMember.objects.filter(pk__in=[m.pk for m in out_of_time]).update(ran_out_of_time=True)
        _finish(room, now, called_off=False)
        announce_on_commit(room)
    return True


def _still_playing(members: list[RoomMember]) -> list[RoomMember]:
    return [m for m in members if m.session is not None and m.session.finished_at is None]


def _would_be_rated(room: Room, members: list[RoomMember]) -> bool:
    """As far as the referee knows (races.ratings decides): a hidden fresh deal, two named racers."""
    return room.code_secret and sum(not m.player.is_guest for m in members) >= 2


def _host_may_end(room: Room, members: list[RoomMember]) -> bool:
    """Whether end_room would end the race now."""
    if room.state == Room.State.FINISHED:
        return False
    return not (_others_playing(room, members) and _would_be_rated(room, members))


def _others_playing(room: Room, members: list[RoomMember]) -> bool:
    """Whether a racer other than the host still plays."""
    return any(m.player_id != room.host_id for m in _still_playing(members))


def _end_open_games(members: list[RoomMember], now: dt.datetime) -> list[RoomMember]:
    """End the members' open games as they stand, under the room's lock. Those it ended: a game its
    player finished meanwhile (a finish in flight as the room was locked) stays theirs."""
    from games.services import finish_session  # games.services imports this module's callers

    # Locked before they are read: a finish in flight commits first, and its game is not open.
    sessions = GameSession.objects.select_for_update().filter(pk__in=[m.session_id for m in members], finished_at=None)
    still_open = set(sessions.values_list("pk", flat=True))
    ended = [member for member in members if member.session_id in still_open]
    for member in ended:
        finish_session(player=member.player, session_id=member.session_id, now=now)
    return ended


def session_progressed(*, session: GameSession) -> None:
    """After the transaction of an action or a finish has committed: tell its race room, if any."""
    if session.in_room:  # most games are in no room: no query for them
        member_progressed(session=session)


def member_progressed(*, session: GameSession) -> None:
    """After a member's action or finish commits: the room hears of it, and ends when all are done.

    An action ends no race: its progress is pushed on a throttle (games.rooms.progress), with no lock.
    A finish may end it: it is decided under the room's lock, so the race ends once, and pushed at once.
    """
    room_id = RoomMember.objects.filter(session_id=session.pk).values_list("room_id", flat=True).first()
    if room_id is None:
        return
    if not session.finished:
        room_progress.pushes.changed(room_id)
        return
    with transaction.atomic():
        room = room_for(room_id, lock=True)
        if room.state == Room.State.RACING and not room.members.filter(session__finished_at=None).exists():
            _finish(room, session.finished_at or timezone.now(), called_off=False)
        announce_on_commit(room)


def _finish(room: Room, now: dt.datetime, *, called_off: bool) -> None:
    """The race is over: its code is no longer secret, and its results rank on their boards now
    (announced as revealed: they were counted when they were verified). The race listeners hear of
    it now, inside this transaction, and again once it commits (`called_off`: the host ended it
    while another racer still played)."""
    room.state, room.ended_at = Room.State.FINISHED, now
    room.save(update_fields=["state", "ended_at"])
    # The update waits for a member's finish still in flight, so the read below sees its result.
    revealed = GameSession.objects.filter(room_member__room=room, code_secret=True).update(code_secret=False)
    if revealed:
        ranked = Result.objects.filter(session__room_member__room=room).select_related(
            "player", "stored_code", "session"
        )
        for result in ranked.order_by("pk"):
            assert result.session is not None
            result.session.code_secret = False
            announcements.announce(announcements.Event(kind="revealed", result=result))
    race_events.tell_now(race_events.Ending(room_id=room.pk))
    race_events.ended_on_commit(race_events.Ended(room_id=room.pk, called_off=called_off))


def announce_on_commit(room: Room) -> None:
    """Push the room's table to its sockets once the caller's transaction commits."""
    room_id = room.pk
    transaction.on_commit(lambda: room_progress.pushes.now(room_id), robust=True)


def push_room(room_id: uuid.UUID) -> None:
    """Send the room's table as it is now to its sockets (games.rooms.progress decides when)."""
    room = Room.objects.select_related("host").filter(id=room_id).first()
    if room is not None:  # a room deleted since has nobody to tell
        async_to_sync(groups.send)(groups.room_group(room_id), {"type": "room.update", "room": room_document(room)})


def room_document(room: Room) -> dict[str, Any]:
    """The room as everyone sees it: the table of progress, best first once the race is on, and
    what the race listeners add (games.rooms.race_events)."""
    table = table_of(room)
    players = [row for _, row in table]
    return {
        "id": str(room.pk),
        "host": room.host.display_name,
        "state": room.state,
        "variant": room.variant,
        "code": None if room.code_secret and room.state != Room.State.FINISHED else room.code,
        "created_at": room.created_at.isoformat(),
        "started_at": room.started_at.isoformat() if room.started_at else None,
        "starts_in_ms": _starts_in_ms(room),
        "ends_in_ms": _ends_in_ms(room),
        "ended_at": room.ended_at.isoformat() if room.ended_at else None,
        "players": players,
        "host_may_end": _host_may_end(room, [member for member, _ in table]),
        **race_events.described(room),
    }


def table_of(room: Room) -> list[tuple[RoomMember, dict[str, Any]]]:
    """Each member with their row of the table, in the table's order once the race is on (the
    final table's, once it is over): best first, as a board ranks (games.ranking.RankKey); those who
    ran out of time come last, whatever their game."""
    members = list(room.members.select_related("player", "session"))
    results = {
        r.session_id: r for r in Result.objects.filter(session_id__in=[m.session_id for m in members if m.session_id])
    }
    russian = goal_of(room.variant) == "cards_home"
    table = [(*_progress(m, results.get(m.session_id), russian), m) for m in members]
    if room.state != Room.State.LOBBY:
        table.sort(key=lambda keyed: (keyed[2].ran_out_of_time, keyed[0]))
    return [(member, row) for _, row, member in table]


def _starts_in_ms(room: Room) -> int:
    return _racing_ms_until(room, lambda go: go)


def _ends_in_ms(room: Room) -> int:
    """Until the race's time limit (its end by the closer, if anyone still plays then)."""
    return _racing_ms_until(room, race_ends_at)


def _racing_ms_until(room: Room, moment: Callable[[dt.datetime], dt.datetime]) -> int:
    """Milliseconds from now until `moment(go)` while the race is on; 0 otherwise or once past."""
    if room.started_at is None or room.state != Room.State.RACING:
        return 0
    return max(0, int((moment(room.started_at) - timezone.now()).total_seconds() * 1000))


def you_in(room: Room, player: Player | None) -> dict[str, Any]:
    """The viewer's own part: whether they are in the room, host, and their session to play."""
    member = room.members.filter(player=player).first() if player is not None and player.is_authenticated else None
    return {
        "member": member is not None,
        "host": player is not None and room.host_id == player.pk,
        "session": str(member.session_id) if member is not None and member.session_id else None,
    }


def _progress(member: RoomMember, result: Result | None, russian: bool) -> tuple[str, dict[str, Any]]:
    """A member's row, with the key that orders the table like a board (unfinished: no time yet)."""
    session = member.session
    # The final table shows the verified result; until then the session's live counters.
    source: Any = result or session
    progress = 0
    if result is not None:
        progress = (result.cards_home if russian else result.sequences) or 0
    elif session is not None:
        progress = session.progress
    row: dict[str, Any] = {
        "player": member.player.display_name,
        "moves": source.moves if source else 0,
        "score": source.score if source else 0,
        "sequences" if not russian else "cards_home": progress,
        "finished": bool(session and session.finished),
        "out_of_time": member.ran_out_of_time,
        "won": bool(source and source.won),
        "elapsed_ms": result.elapsed_ms if result else None,
        "undos": source.undos if source else 0,
        "result": result.pk if result else None,
    }
    key = RankKey.of(
        russian=russian,
        progress=progress,
        score=row["score"],
        moves=row["moves"],
        elapsed_ms=row["elapsed_ms"],
        finished_at=result.finished_at if result else member.joined_at,
        result_id=result.pk if result else 0,
    )
    return key.sort_key(), row
