"""A race's time limit on the real services: a closer round ends a race still on RACE_LIMIT_MINUTES
after its go; a racer still playing (one who closed the tab) ran out of time, places last and the
race is rated as any race run to its end; a second round changes nothing."""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone

from games import services as games
from games.models import GameSession, Room, RoomMember
from games.rooms import rooms
from games.sessions import live
from races.models import RaceVerdict, RatingChange
from tests.races.race_helpers import on_commit, open_race, play, session_of, walk
from web.errors import Conflict

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.usefixtures("unlimited_actions"),
]
Capture = Callable[..., Any]


def _closer_round(capture: Capture) -> str:
    """One round of the real closer (its races' ends heard as the server hears them: on commit)."""
    out = io.StringIO()
    with capture(execute=True):
        call_command("close_dailies", "--no-prepare", stdout=out)
    return out.getvalue()


def _started(room: Room, minutes_ago: float) -> None:
    Room.objects.filter(pk=room.pk).update(started_at=timezone.now() - dt.timedelta(minutes=minutes_ago))


def test_a_closer_round_ends_an_overdue_race_placing_who_still_plays_last_and_rates_it(
    django_capture_on_commit_callbacks: Capture, settings: Any
) -> None:
    capture = django_capture_on_commit_callbacks
    room, (host, rival, leaver) = open_race(3)
    tokens = walk(room, 6)
    on_commit(capture, lambda: play(room, host, tokens[:2]))
    on_commit(capture, lambda: play(room, rival, tokens))
    # The leaver closed the tab at once: no move, so by the board's key their game stands best.

    _started(room, settings.RACE_LIMIT_MINUTES - 1)
    assert "races ended" not in _closer_round(capture)  # not yet due
    assert Room.objects.get(pk=room.pk).state == Room.State.RACING

    _started(room, settings.RACE_LIMIT_MINUTES + 1)
    said = _closer_round(capture)
    assert "races ended at their time limit: 1" in said
    ended = Room.objects.get(pk=room.pk)
    assert ended.state == Room.State.FINISHED and session_of(room, leaver).finished
    table = rooms.room_document(ended)
    rows = {row["player"]: row for row in table["players"]}
    assert [row["player"] for row in table["players"]][-1] == leaver.display_name
    assert rows[leaver.display_name]["score"] > max(rows[p.display_name]["score"] for p in (host, rival))
    assert {name: row["out_of_time"] for name, row in rows.items()} == {
        host.display_name: False,
        rival.display_name: False,
        leaver.display_name: True,
    }
    assert table["rated"] == "rated" and table["code"] == ended.code and table["host_may_end"] is False
    places = dict(RatingChange.objects.filter(room=room).values_list("player_id", "place"))
    assert places[leaver.pk] == 3 and sorted(places.values()) == [1, 2, 3]
    leaver_change = RatingChange.objects.get(room=room, player=leaver)
    assert leaver_change.mu_after < leaver_change.mu_before

    assert "races ended" not in _closer_round(capture)  # a second round changes nothing
    assert Room.objects.get(pk=room.pk).ended_at == ended.ended_at
    assert RaceVerdict.objects.filter(room=room).count() == 1 and RatingChange.objects.filter(room=room).count() == 3
    assert list(RoomMember.objects.filter(room=room, ran_out_of_time=True).values_list("player_id", flat=True)) == [
        leaver.pk
    ]


def test_racers_still_playing_at_the_limit_tie_for_last(django_capture_on_commit_callbacks: Capture) -> None:
    capture = django_capture_on_commit_callbacks
    room, (host, rival, third) = open_race(3)
    tokens = walk(room, 4)
    on_commit(capture, lambda: play(room, third, tokens))
    on_commit(capture, lambda: play(room, host, tokens[:1], finish=False))
    on_commit(capture, lambda: play(room, rival, tokens[:3], finish=False))
    _started(room, 31)
    with capture(execute=True):
        assert rooms.end_overdue_races() == 1
    assert dict(RatingChange.objects.filter(room=room).values_list("player_id", "place")) == {
        third.pk: 1,
        host.pk: 2,
        rival.pk: 2,
    }
    assert RaceVerdict.objects.get(room=room).reason == "rated"


def test_past_the_limit_a_game_takes_no_action_and_giving_up_runs_out_of_time(
    django_capture_on_commit_callbacks: Capture, settings: Any
) -> None:
    """Between the limit and the closer's next round nothing played counts: an action is refused in
    words, and a racer who gives up then ran out of time like one the closer finds still playing."""
    capture = django_capture_on_commit_callbacks
    room, (host, rival) = open_race(2)
    tokens = walk(room, 4)
    on_commit(capture, lambda: play(room, host, tokens[:2], finish=False))
    on_commit(capture, lambda: play(room, rival, tokens[:1], finish=False))
    went = timezone.now() - dt.timedelta(minutes=settings.RACE_LIMIT_MINUTES, seconds=1)
    _started(room, settings.RACE_LIMIT_MINUTES + 1 / 60)
    for racer in (host, rival):
        session = session_of(room, racer)
        GameSession.objects.filter(pk=session.pk).update(started_at=went)
        live.forget(session.pk)  # the cached copy carries the go time too

    with pytest.raises(Conflict, match="The race's time is up"):
        games.apply_action(player=host, session_id=session_of(room, host).pk, token=tokens[2])
    assert session_of(room, host).action_count == 2  # nothing stored

    on_commit(capture, lambda: games.finish_session(player=host, session_id=session_of(room, host).pk))
    assert RoomMember.objects.get(room=room, player=host).ran_out_of_time
    with capture(execute=True):
        assert rooms.end_overdue_races() == 1
    assert RoomMember.objects.get(room=room, player=rival).ran_out_of_time
    assert dict(RatingChange.objects.filter(room=room).values_list("player_id", "place")) == {host.pk: 1, rival.pk: 1}


def test_the_room_says_how_long_is_left_until_the_limit(
    django_capture_on_commit_callbacks: Capture, settings: Any
) -> None:
    limit_ms = settings.RACE_LIMIT_MINUTES * 60_000
    room, _ = open_race(2)
    countdown_ms = max(0, (room.started_at - timezone.now()).total_seconds() * 1000)  # the go may be ahead
    assert limit_ms - 5_000 < rooms.room_document(room)["ends_in_ms"] <= limit_ms + countdown_ms
    _started(room, 10)
    left = rooms.room_document(Room.objects.get(pk=room.pk))["ends_in_ms"]
    assert limit_ms - 10 * 60_000 - 5_000 < left <= limit_ms - 10 * 60_000
    _started(room, settings.RACE_LIMIT_MINUTES + 1)
    with django_capture_on_commit_callbacks(execute=True):
        assert rooms.end_overdue_races() == 1
    assert rooms.room_document(Room.objects.get(pk=room.pk))["ends_in_ms"] == 0  # over
