"""Quick match: races formed by rating, widened by wait; cancel; the refusals; nobody placed twice."""

from __future__ import annotations

import datetime as dt
import random
import threading
import time
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import GameSession, Player, Room, RoomMember
from races import matching
from races.matcher import Matcher
from races.matching import Waiting, allowance, form_races
from races.models import MatchedRace, QueueEntry, Rating
from tests.conftest import make_player

VARIANT = "SD1-S1"
T0 = dt.datetime(2026, 12, 6, 12, 0, tzinfo=dt.UTC)


class _Woken:
    """The matcher's stand-in: the variants it was woken for (these tests run their passes themselves)."""

    def __init__(self) -> None:
        self.variants: list[str] = []

    def wake(self, variant: str) -> None:
        self.variants.append(variant)


@pytest.fixture(autouse=True)
def woken(monkeypatch: pytest.MonkeyPatch) -> _Woken:
    stand_in = _Woken()
    monkeypatch.setattr(matching, "matcher", stand_in)
    return stand_in


def _as(player: Player) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=player)[0].key}")
    return client


_ask = async_to_sync(matching.ask)  # as sync code asks: through the one path


def _rated(name: str, mu: float | None = None) -> Player:
    player = make_player(name)
    if mu is not None:
        Rating.objects.create(player=player, game="SD", mu=mu, sigma=3.0, races=5, updated_at=T0)
    return player


def _at(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=seconds)


# ------------------------------------------------------------------ the schedule, without a database


def test_the_allowed_distance_widens_with_the_wait() -> None:
    assert [allowance(s) for s in (0, 4.9, 5, 10, 29.9)] == [3.0, 3.0, 6.0, 9.0, 18.0]
    assert allowance(30) == float("inf")


def test_six_close_players_race_at_once_and_far_ones_wait() -> None:
    close = [Waiting(i, 25.0 + i / 10, T0) for i in range(6)]
    far = [Waiting(100, 40.0, T0)]
    races = form_races(close + far, _at(0.5))
    assert [sorted(w.player_id for w in race) for race in races] == [list(range(6))]


def test_two_players_wait_for_more_until_the_fill_time_then_race() -> None:
    pair = [Waiting(1, 25.0, T0), Waiting(2, 26.0, T0)]
    assert form_races(pair, _at(matching.FILL_SECONDS - 1)) == []
    assert len(form_races(pair, _at(matching.FILL_SECONDS))) == 1


def test_a_race_leaves_no_single_player_of_its_window_alone() -> None:
    seven = [Waiting(i, 25.0, T0) for i in range(7)]
    races = form_races(seven, _at(matching.FILL_SECONDS))
    assert sorted(len(race) for race in races) == [2, 5]


def test_an_outlier_races_with_its_neighbours_rather_than_being_left_alone() -> None:
    # Around the longest waiter (25), the five others in its range make six and leave the outlier
    # at 18.5, beyond that range, alone for good; its own neighbours have it in range.
    longest = Waiting(1, 25.0, T0 - dt.timedelta(seconds=1))
    others = [Waiting(i, mu, T0) for i, mu in enumerate((21.0, 22.0, 23.0, 24.0, 26.0), start=2)]
    outlier = Waiting(9, 18.5, T0)
    races = form_races([longest, *others, outlier], _at(6))
    assert sorted(w.player_id for race in races for w in race) == [1, 2, 3, 4, 5, 6, 9]
    assert all(_keeps_the_rules(race, _at(6)) for race in races)


def test_a_lone_player_out_of_everyones_range_keeps_the_nearest_racer_waiting_with_them() -> None:
    lone = Waiting(1, 18.0, T0 + dt.timedelta(seconds=1))
    nearest, *rest = [Waiting(2, 24.5, T0), Waiting(3, 25.0, T0), Waiting(4, 26.0, T0)]
    races = form_races([lone, nearest, *rest], _at(6))
    assert [sorted(w.player_id for w in race) for race in races] == [[3, 4]]
    (later,) = form_races([lone, nearest], _at(10))  # the wait has widened the range to 9
    assert sorted(w.player_id for w in later) == [1, 2]


def test_a_race_of_two_waits_with_a_lone_player_rather_than_leave_them_alone() -> None:
    far = Waiting(1, 33.5, T0)
    pair = [Waiting(2, 26.8, T0 + dt.timedelta(seconds=1)), Waiting(3, 27.0, T0 + dt.timedelta(seconds=1))]
    assert form_races([far, *pair], _at(6)) == []  # 6.5 apart: beyond the range of 6
    (race,) = form_races([far, *pair], _at(10))
    assert sorted(w.player_id for w in race) == [1, 2, 3]


@pytest.mark.parametrize("seed", range(40))
def test_once_everyone_may_race_anyone_every_player_is_placed_in_races_of_two_to_six(seed: int) -> None:
    draw = random.Random(seed)
    count = draw.randint(2, 60)
    waiting = [Waiting(i, draw.gauss(25.0, 8.0), T0 - dt.timedelta(seconds=draw.uniform(0, 60))) for i in range(count)]
    now = T0 + dt.timedelta(seconds=matching.ANY_RATING_AFTER_SECONDS)
    races = form_races(waiting, now)
    placed = [w.player_id for race in races for w in race]
    assert sorted(placed) == list(range(count))
    assert all(matching.RACE_MIN <= len(race) <= matching.RACE_MAX for race in races)


@pytest.mark.parametrize("seed", range(40))
def test_at_any_moment_each_race_keeps_the_rules_and_nobody_is_placed_twice(seed: int) -> None:
    draw = random.Random(1000 + seed)
    waiting = [Waiting(i, draw.gauss(25.0, 4.0), _at(draw.uniform(0, 20))) for i in range(draw.randint(1, 80))]
    now = _at(draw.uniform(20, 40))
    races = form_races(waiting, now)
    placed = [w.player_id for race in races for w in race]
    assert len(placed) == len(set(placed))
    assert all(_keeps_the_rules(race, now) for race in races)


def _keeps_the_rules(race: list[Waiting], now: dt.datetime) -> bool:
    longest = min(race, key=lambda w: (w.joined_at, w.player_id))
    waited = (now - longest.joined_at).total_seconds()
    in_range = all(abs(w.mu - longest.mu) <= allowance(waited) for w in race)
    full_or_filled = len(race) == matching.RACE_MAX or waited >= matching.FILL_SECONDS
    return matching.RACE_MIN <= len(race) <= matching.RACE_MAX and in_range and full_or_filled


# ------------------------------------------------------------------ through the service and the API


@pytest.mark.django_db
def test_players_far_apart_race_once_their_wait_has_widened_the_range() -> None:
    low, high = _rated("low", 25.0), _rated("high", 33.0)  # 8 apart: the range reaches 9 after 10 s
    _ask(player=low, variant=VARIANT, now=T0)
    _ask(player=high, variant=VARIANT, now=T0)
    for seconds in (1, 6):
        QueueEntry.objects.update(seen_at=_at(seconds))
        assert matching.run_pass(VARIANT, now=_at(seconds)) == []
    QueueEntry.objects.update(seen_at=_at(10))
    (room,) = matching.run_pass(VARIANT, now=_at(10))
    assert room.state == Room.State.RACING and room.code_secret
    assert set(room.members.values_list("player__username", flat=True)) == {"low", "high"}
    assert MatchedRace.objects.get(room=room).how == "quick"
    assert GameSession.objects.filter(room_member__room=room, code_secret=True).count() == 2
    for player in (low, high):
        answer = _as(player).get("/api/match")
        assert answer.status_code == 200
        assert (answer.json()["state"], answer.json()["room"]) == ("placed", str(room.pk))


@pytest.mark.django_db
def test_an_unrated_player_waits_at_the_default_rating() -> None:
    player = _rated("fresh")
    _ask(player=player, variant=VARIANT, now=T0)
    assert QueueEntry.objects.get(player=player).mu == 25.0


@pytest.mark.django_db
def test_the_waiting_player_sees_how_many_wait_and_can_cancel(woken: _Woken) -> None:
    first, second = _rated("first", 10.0), _rated("second", 40.0)
    answer = _as(first).post("/api/match", {"variant": VARIANT}, format="json")
    assert answer.status_code == 202 and answer.json()["state"] == "waiting" and answer.json()["waiting"] == 1
    assert woken.variants == [VARIANT]  # the ask only wakes the passes: it runs none
    assert QueueEntry.objects.get(player=first).mu == 10.0  # the rating the ask read in its one insert
    assert _as(second).post("/api/match", {"variant": "sd1-s1 "}, format="json").json()["waiting"] == 2
    assert _as(first).delete("/api/match").status_code == 204
    assert _as(first).get("/api/match").status_code == 404
    assert _as(first).delete("/api/match").status_code == 404
    assert _as(second).get("/api/match").json()["waiting"] == 1


@pytest.mark.django_db
def test_a_placed_player_cannot_cancel_is_answered_the_race_and_cannot_queue_while_racing() -> None:
    players = [_rated(f"r{i}", 25.0) for i in range(6)]
    for player in players:
        _ask(player=player, variant=VARIANT)
    matching.run_pass(VARIANT)  # six close players race at once
    assert Room.objects.count() == 1
    refused = _as(players[0]).delete("/api/match")
    assert refused.status_code == 409 and "race has been found" in refused.json()["error"]["message"]
    room = Room.objects.get()
    again = _as(players[0]).post("/api/match", {"variant": VARIANT}, format="json")  # the page's next ask
    assert again.status_code == 200 and (again.json()["state"], again.json()["room"]) == ("placed", str(room.pk))
    other = _as(players[0]).post("/api/match", {"variant": "SP1-S1C"}, format="json")
    assert other.status_code == 409 and "in a race already" in other.json()["error"]["message"]
    assert QueueEntry.objects.filter(room=room).count() == 6


@pytest.mark.django_db
def test_a_second_queue_is_refused_in_words_and_asking_again_changes_nothing() -> None:
    player = _rated("twice", 25.0)
    assert _as(player).post("/api/match", {"variant": VARIANT}, format="json").status_code == 202
    assert _as(player).post("/api/match", {"variant": VARIANT}, format="json").status_code == 202
    other = _as(player).post("/api/match", {"variant": "SP1-S1C"}, format="json")
    assert other.status_code == 409
    assert other.json()["error"]["message"].startswith("You are already waiting for a race of SD1-S1")
    assert list(QueueEntry.objects.values_list("variant", flat=True)) == [VARIANT]


@pytest.mark.django_db
def test_asking_again_while_waiting_keeps_the_place_and_says_how_long_it_was_waited() -> None:
    player = _rated("again", 25.0)
    _ask(player=player, variant=VARIANT, now=T0)
    answer = _ask(player=player, variant=VARIANT, now=_at(7))
    assert (answer["state"], answer["waited_ms"], answer["waiting"]) == ("waiting", 7000, 1)
    entry = QueueEntry.objects.get(player=player)
    assert (entry.joined_at, entry.seen_at) == (T0, _at(7))


@pytest.mark.django_db
def test_a_placed_player_asks_again_once_their_race_is_over() -> None:
    players = [_rated(f"o{i}", 25.0) for i in range(6)]
    for player in players:
        _ask(player=player, variant=VARIANT, now=T0)
    (room,) = matching.run_pass(VARIANT, now=_at(1))
    GameSession.objects.filter(room_member__room=room).update(finished_at=_at(60))
    Room.objects.filter(pk=room.pk).update(state=Room.State.FINISHED)
    answer = _ask(player=players[0], variant="SP1-S1C", now=_at(61))
    assert (answer["state"], answer["variant"], answer["waited_ms"], answer["room"]) == ("waiting", "SP1-S1C", 0, None)
    entry = QueueEntry.objects.get(player=players[0])
    assert (entry.variant, entry.room_id, entry.joined_at, entry.game) == ("SP1-S1C", None, _at(61), "SP")
    assert QueueEntry.objects.filter(room=room).count() == 5  # the others' placements stay as they were


@pytest.mark.django_db
def test_refusals_in_the_players_language_and_nothing_written() -> None:
    guest = Player.objects.create(username="~guest", is_guest=True)
    refused = _as(guest).post("/api/match", {"variant": VARIANT}, format="json", HTTP_ACCEPT_LANGUAGE="fi")
    assert refused.status_code == 403 and "vieraa" in refused.json()["error"]["message"]
    player = _rated("words")
    assert _as(player).post("/api/match", {"variant": "XX9"}, format="json").status_code in (400, 422)
    assert APIClient().post("/api/match", {"variant": VARIANT}, format="json").status_code == 401
    assert _as(player).get("/api/match").status_code == 404
    assert not QueueEntry.objects.exists()


@pytest.mark.django_db
def test_a_player_gone_quiet_is_dropped_not_placed() -> None:
    quiet, polling = _rated("quiet", 25.0), _rated("polling", 25.0)
    _ask(player=quiet, variant=VARIANT, now=T0)
    _ask(player=polling, variant=VARIANT, now=_at(matching.STALE_SECONDS))
    assert matching.run_pass(VARIANT, now=_at(matching.STALE_SECONDS + 1)) == []
    assert list(QueueEntry.objects.values_list("player__username", flat=True)) == ["polling"]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_transactions_forming_races_at_once_place_everyone_once() -> None:
    players = [_rated(f"c{i}", 25.0 + (i % 3)) for i in range(24)]
    now = timezone.now()
    long_ago = now - dt.timedelta(seconds=matching.ANY_RATING_AFTER_SECONDS)  # any subset may race
    QueueEntry.objects.bulk_create(
        [
            QueueEntry(player=p, game="SD", variant=VARIANT, mu=25.0 + (i % 3), joined_at=long_ago, seen_at=now)
            for i, p in enumerate(players)
        ]
    )
    barrier = threading.Barrier(2)
    started: list[list[Room]] = []

    def one_pass() -> None:
        try:
            barrier.wait(timeout=10)
            started.append(matching.run_pass(VARIANT, now=timezone.now()))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=one_pass) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(started) == 2  # both passes ran to their end
    matching.run_pass(VARIANT)  # what one pass's share of the queue left races now
    members = list(RoomMember.objects.values_list("player_id", flat=True))
    assert len(members) == len(set(members))  # nobody in two races
    waiting = QueueEntry.objects.filter(room=None).count()
    assert len(members) + waiting == 24 and waiting <= 1  # a lone one, if any, waits for the next player
    assert all(2 <= room.members.count() <= 6 for room in Room.objects.all())
    placed = dict(QueueEntry.objects.values_list("player_id", "room_id"))
    by_room = dict(RoomMember.objects.values_list("player_id", "room_id"))
    assert placed == by_room


@pytest.mark.django_db
def test_a_pass_costs_the_same_queries_for_two_races_as_for_six(django_assert_num_queries: Any) -> None:
    def queue(count: int, prefix: str) -> None:
        players = [_rated(f"{prefix}{i}") for i in range(count)]
        QueueEntry.objects.bulk_create(
            [QueueEntry(player=p, game="SD", variant=VARIANT, mu=25.0, joined_at=T0, seen_at=T0) for p in players]
        )

    queue(12, "a")
    with CaptureQueriesContext(connection) as two:
        assert len(matching.run_pass(VARIANT, now=_at(1))) == 2
    queue(36, "b")
    with django_assert_num_queries(len(two.captured_queries)):
        started = matching.run_pass(VARIANT, now=_at(1))
    assert len(started) == 6 and all(room.members.count() == 6 for room in started)
    assert GameSession.objects.filter(in_room=True, code_secret=True).count() == 48


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_one_pass_over_a_variant_at_a_time_across_connections() -> None:
    held, tried = threading.Event(), threading.Event()
    answers: list[bool] = []

    def holder() -> None:
        try:
            with matching.only_pass(VARIANT) as mine:
                answers.append(mine)
                held.set()
                tried.wait(timeout=10)
        finally:
            connections.close_all()

    def other() -> None:  # another thread's connection stands for another worker's
        try:
            held.wait(timeout=10)
            matching._passes.pop(VARIANT, None)  # past this process's own guard: the database's lock decides
            with matching.only_pass(VARIANT) as mine:
                answers.append(mine)
            tried.set()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=holder), threading.Thread(target=other)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=20)
    assert answers == [True, False]
    with matching.only_pass(VARIANT) as mine:  # let go at the end of the holder's pass
        assert mine


def test_the_matcher_runs_rounds_while_they_say_someone_waits_then_sleeps() -> None:
    rounds: list[str] = []
    done = threading.Event()

    def one_round(variant: str) -> bool:
        rounds.append(variant)
        if len(rounds) == 3:
            done.set()
        return len(rounds) < 3

    thread_matcher = Matcher(one_round, every_seconds=0.01)
    thread_matcher.wake(VARIANT)
    assert done.wait(timeout=5)
    time.sleep(0.1)
    assert rounds == [VARIANT] * 3  # asleep once nobody waits
    thread_matcher.wake(VARIANT)
    deadline = time.monotonic() + 5
    while len(rounds) < 4 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(rounds) == 4  # woken again
