"""Every verified result is stored by one write and announced once through games.results.announcements, inside
the transaction that stored it: a session won, given up or closed at its daily's publication, a
batch submission; a secret race's results held back, then revealed when the race ends."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
from django.db import connection
from django.utils import timezone

from games import services
from games.models import Player, Result
from games.results import announcements, submissions
from games.rooms import rooms
from leaderboard.models import BoardEntry, PlayerStats
from tests.conftest import make_player
from tests.daily_helpers import store_unsettled_dailies
from tests.games.play_helpers import winning_log

NOON = dt.datetime(2020, 3, 1, 12, 0, tzinfo=dt.UTC)
PUBLISHED = dt.datetime(2020, 3, 2, 1, 0, tzinfo=dt.UTC)
CODE = "RU1-C-MFXTMVO"

Heard = tuple[str, str, bool, bool]  # kind, source, held back, inside a transaction


@pytest.fixture
def heard(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Heard]]:
    events: list[Heard] = []

    def listen(event: announcements.Event) -> None:
        events.append((event.kind, event.result.source, event.held_back, connection.in_atomic_block))

    monkeypatch.setattr(announcements, "_listeners", [*announcements._listeners, listen])
    yield events


@pytest.mark.django_db
def test_every_path_announces_each_result_once_inside_its_transaction(
    heard: list[Heard], unlimited_actions: None
) -> None:
    store_unsettled_dailies(NOON.date(), ["SP1-S1C"])
    player = make_player("announced")
    won, _ = services.start_session(player=player, code=CODE)
    for token in winning_log(CODE):
        services.apply_action(player=player, session_id=won.pk, token=token)
    given_up, _ = services.start_session(player=player, code="SP1-S1C-AAAAAAB")
    services.finish_session(player=player, session_id=given_up.pk)
    daily, _ = services.start_session(player=player, daily="SP1-S1C", now=NOON)
    assert services.close_expired_dailies(now=PUBLISHED) == 1
    status, _ = submissions.submit_log(player=player, code=CODE, log=winning_log(CODE)[:10])
    assert status == 201
    assert heard == [
        ("verified", "session", False, True),
        ("verified", "session", False, True),
        ("verified", "session", False, True),
        ("verified", "submission", False, True),
    ]
    assert Result.objects.filter(player=player).count() == 4
    assert sum(PlayerStats.objects.filter(player=player).values_list("games", flat=True)) == 4


@pytest.mark.django_db(transaction=True)  # the write's own transaction is the outermost, as when served
def test_a_listener_that_fails_takes_the_result_with_it(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(event: announcements.Event) -> None:
        raise RuntimeError("the board could not be written")

    monkeypatch.setattr(announcements, "_listeners", [*announcements._listeners, refuse])
    player = make_player("unlucky")
    with pytest.raises(RuntimeError):
        submissions.submit_log(player=player, code=CODE, log=winning_log(CODE)[:10])
    assert not Result.objects.exists() and not BoardEntry.objects.exists() and not PlayerStats.objects.exists()


@pytest.mark.django_db
def test_a_secret_races_results_are_held_back_then_revealed_and_counted_once(heard: list[Heard]) -> None:
    host, racer = make_player("host"), make_player("racer")
    room = rooms.create_room(host=host, variant="SP1-S1C")
    rooms.join_room(room_id=room.pk, player=racer)
    rooms.start_room(room_id=room.pk, player=host, now=timezone.now() - dt.timedelta(seconds=5))
    sessions = {m.player_id: m.session_id for m in room.members.all()}
    services.finish_session(player=racer, session_id=sessions[racer.pk])
    assert heard == [("verified", "session", True, True)]
    assert not BoardEntry.objects.exists()  # the code is secret: no board may answer about it yet
    rooms.end_room(room_id=room.pk, player=host)
    assert heard[1:] == [
        ("verified", "session", True, True),  # the host's game, ended by the end of the race
        ("revealed", "session", False, True),
        ("revealed", "session", False, True),
    ]
    assert BoardEntry.objects.filter(board=f"code:{room.code}").count() == 2
    stats = PlayerStats.objects.filter(player__in=[host, racer]).values_list("games", flat=True)
    assert sorted(stats) == [1, 1]


def test_subscribing_twice_hears_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def listen(event: announcements.Event) -> None:
        calls.append(event.kind)

    monkeypatch.setattr(announcements, "_listeners", [])
    announcements.subscribe(listen)
    announcements.subscribe(listen)
    announcements.announce(announcements.Event(kind="revealed", result=Result(player=Player(username="x"))))
    assert calls == ["revealed"]
