"""GET /api/daily/recap: my ranked attempt at a daily, its live ranks on the board and the clean twin,
the par only once published, the next dailies, and my streak calendar (docs/api.md)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Daily, Player
from leaderboard.recap import CALENDAR_WEEKS, calendar_start
from tests.leaderboard.factories import RUSSIAN_WIN, daily_of, make_result, named, vector_log

pytestmark = pytest.mark.django_db


def _today() -> dt.date:
    return timezone.now().astimezone(dt.UTC).date()


def _client(player: Player) -> APIClient:
    client = APIClient()
    client.force_authenticate(player)
    return client


def _veteran(name: str, days: int = 400) -> Player:
    player = named(name)
    player.date_joined = timezone.now() - dt.timedelta(days=days)
    player.save(update_fields=["date_joined"])
    return player


def test_a_won_clean_attempt_today_with_its_live_ranks_and_no_par_yet() -> None:
    today = _today()
    daily = daily_of(today, "RU1-C", RUSSIAN_WIN)
    Daily.objects.filter(pk=daily.pk).update(certified=True, par=80)  # stored, but secret until 01:00
    log = vector_log(RUSSIAN_WIN)
    me = _veteran("recapper")
    make_result(named("faster"), RUSSIAN_WIN, log, daily=daily, elapsed_ms=30_000)
    make_result(named("undoer"), RUSSIAN_WIN, [log[0], "U", *log], daily=daily, elapsed_ms=1_000, moves=99)
    make_result(me, RUSSIAN_WIN, log, daily=daily, elapsed_ms=45_000)

    response = _client(me).get("/api/daily/recap", {"variant": "ru1-c"})
    assert response.status_code == 200, response.content
    doc = response.json()
    assert doc["board"] == f"daily:{today.isoformat()}:RU1-C" and doc["clean_board"] == doc["board"] + ":clean"
    assert (doc["won"], doc["clean"], doc["undos"], doc["moves"], doc["cards_home"]) == (True, True, 0, 99, 52)
    assert doc["elapsed_ms"] == 45_000
    assert (doc["rank"], doc["clean_rank"]) == (3, 2)  # the undoer is faster on the board, not on its twin
    assert doc["published"] is False and doc["par"] is None
    tomorrow = today + dt.timedelta(days=1)
    assert doc["publishes_at"] == dt.datetime.combine(tomorrow, dt.time(1), tzinfo=dt.UTC).isoformat()
    assert doc["next_dailies_at"] == dt.datetime.combine(tomorrow, dt.time(0), tzinfo=dt.UTC).isoformat()
    assert RUSSIAN_WIN not in response.content.decode()
    assert doc["streak"]["days"][-1] == {"date": today.isoformat(), "status": "won"}
    assert doc["streak"]["current"] == 1


def test_a_published_daily_shows_its_par() -> None:
    past = dt.date(2021, 5, 4)
    daily = daily_of(past, "RU1-C", RUSSIAN_WIN)
    Daily.objects.filter(pk=daily.pk).update(certified=True, par=80)
    me = _veteran("historian", days=3000)
    make_result(me, RUSSIAN_WIN, vector_log(RUSSIAN_WIN)[:20], daily=daily)
    doc = _client(me).get("/api/daily/recap", {"variant": "RU1-C", "date": "2021-05-04"}).json()
    assert doc["published"] is True and doc["par"] == 80
    assert doc["won"] is False and doc["rank"] == 1


def test_the_calendar_marks_each_day_won_played_or_missed_in_a_fixed_number_of_queries() -> None:
    today = _today()
    me = _veteran("steady")
    log = vector_log(RUSSIAN_WIN)
    won_days = [today - dt.timedelta(days=n) for n in (1, 2, 3, 10)]
    lost_days = [today - dt.timedelta(days=n) for n in (4, 11)]
    for day in won_days + lost_days:
        daily = daily_of(day, "RU1-C", RUSSIAN_WIN)
        make_result(me, RUSSIAN_WIN, log if day in won_days else log[:5], daily=daily)
    practice = daily_of(today - dt.timedelta(days=5), "RU1-C", RUSSIAN_WIN)
    make_result(me, RUSSIAN_WIN, log, daily=practice, ranked=False)  # practice counts for nothing
    other = daily_of(today - dt.timedelta(days=6), "SP1-S4C", "SP1-S4C-AAAAAAD")
    make_result(me, "SP1-S4C-AAAAAAD", [], daily=other)  # another variant's daily neither
    make_result(me, RUSSIAN_WIN, log, daily=daily_of(today, "RU1-C", RUSSIAN_WIN))

    client = _client(me)
    with CaptureQueriesContext(connection) as queries:
        doc = client.get("/api/daily/recap", {"variant": "RU1-C"}).json()
    status = {dt.date.fromisoformat(d["date"]): d["status"] for d in doc["streak"]["days"]}
    first = calendar_start(today)
    assert doc["streak"]["from"] == first.isoformat() and first.weekday() == 0
    assert list(status) == [first + dt.timedelta(days=n) for n in range((today - first).days + 1)]
    assert len(status) > 7 * (CALENDAR_WEEKS - 1)
    for day, seen in status.items():
        expected = "won" if day in won_days or day == today else "played" if day in lost_days else "missed"
        assert seen == expected, day
    assert (doc["streak"]["current"], doc["streak"]["best"]) == (5, 5)  # today and the four days before
    # The calendar is one query, however many days it shows.
    assert sum("leaderboard_result" in q["sql"] for q in queries.captured_queries) <= 3, queries.captured_queries


def test_the_calendar_starts_on_the_players_first_day_and_today_is_open_until_finished() -> None:
    today = _today()
    me = _veteran("newcomer", days=2)
    yesterday = daily_of(today - dt.timedelta(days=1), "SD1-S2", "SD1-S2-AAAAAAD")
    make_result(me, "SD1-S2-AAAAAAD", [], daily=yesterday)
    daily_of(today, "SD1-S2", "SD1-S2-AAAAAAB")
    doc = _client(me).get("/api/daily/recap", {"variant": "SD1-S2", "date": yesterday.date.isoformat()}).json()
    days = doc["streak"]["days"]
    assert [d["status"] for d in days] == ["missed", "played", "open"]
    assert days[0]["date"] == (today - dt.timedelta(days=2)).isoformat()


def test_no_attempt_no_player_and_bad_asks_are_answered_in_words(api: APIClient) -> None:
    me = _veteran("idle")
    client = _client(me)
    missing = client.get("/api/daily/recap", {"variant": "SP1-S4C"})
    assert missing.status_code == 404
    assert "no finished ranked attempt" in missing.json()["error"]["message"]
    assert "Spider" in missing.json()["error"]["message"]
    assert api.get("/api/daily/recap", {"variant": "SP1-S4C"}).status_code == 401
    for query, words in (
        ({}, "Say which daily"),
        ({"variant": "SP1-S4R"}, "no daily challenge"),
        ({"variant": "nonsense"}, ""),
        ({"variant": "SP1-S4C", "date": "30/11/2026"}, "2026-11-30"),
    ):
        answer = client.get("/api/daily/recap", query)
        assert answer.status_code == 400, (query, answer.content)
        assert words in answer.json()["error"]["message"]
    future = client.get("/api/daily/recap", {"variant": "SP1-S4C", "date": "2999-01-01"})
    assert future.status_code == 404 and "not out yet" in future.json()["error"]["message"]


def test_an_open_attempt_has_no_recap_yet(player: Player) -> None:
    from games import services

    now = timezone.now()
    daily_of(_today(), "SP1-S1C", "SP1-S1C-QTEKPFM")
    services.start_session(player=player, daily="SP1-S1C", now=now)
    answer = _client(player).get("/api/daily/recap", {"variant": "SP1-S1C"})
    assert answer.status_code == 404
