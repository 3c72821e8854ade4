"""The league's archive of past daily boards and the all-time boards per variant: read from the
boards and statistics already kept, best verified results first, and no code shown."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games import services
from games.rooms import rooms
from leaderboard.league import ORDERS
from leaderboard.models import BoardEntry
from tests.leaderboard.factories import daily_of, legal_walk, make_result, named

pytestmark = pytest.mark.django_db


@pytest.fixture
def today() -> dt.date:
    """Read when the test runs, not when the module is imported: a run that crosses midnight UTC
    would otherwise date its dailies a day behind the service's own today."""
    return timezone.now().astimezone(dt.UTC).date()


def test_past_days_newest_first_with_players_and_leader(api: APIClient, today: dt.date) -> None:
    alice, bob = named("alice"), named("bob")
    old = daily_of(today - dt.timedelta(days=2), "SP1-S4C", "SP1-S4C-AAAAAAB")
    yesterday = daily_of(today - dt.timedelta(days=1), "SP1-S4C", "SP1-S4C-AAAAAAC")
    other = daily_of(today - dt.timedelta(days=1), "RU1-C", "RU1-C-AAAAAAC")
    daily_of(today, "SP1-S4C", "SP1-S4C-AAAAAAE")  # today's board is live, not archived
    make_result(alice, old.stored_code.code, daily=old, score=400, sequences=0, moves=100)
    make_result(bob, old.stored_code.code, daily=old, score=450, sequences=0, moves=50)
    make_result(alice, yesterday.stored_code.code, daily=yesterday, score=300, sequences=0, moves=10)
    doc = api.get("/api/leaderboards/archive").json()
    assert [day["date"] for day in doc["days"]] == [yesterday.date.isoformat(), old.date.isoformat()]
    first = {b["variant"]: b for b in doc["days"][0]["boards"]}
    assert first["SP1-S4C"]["board"] == yesterday.board and first["SP1-S4C"]["players"] == 1
    assert (
        first["RU1-C"]["players"] == 0 and first["RU1-C"]["leader"] is None and other.board == first["RU1-C"]["board"]
    )
    leader = doc["days"][1]["boards"][0]["leader"]
    assert (leader["player"], leader["score"], leader["rank"]) == ("bob", 450, 1)
    assert "code" not in leader and doc["next_before"] is None
    only = api.get("/api/leaderboards/archive", {"variant": "ru1-c"}).json()
    assert [[b["variant"] for b in day["boards"]] for day in only["days"]] == [["RU1-C"]]
    earlier = api.get("/api/leaderboards/archive", {"before": yesterday.date.isoformat()}).json()
    assert [day["date"] for day in earlier["days"]] == [old.date.isoformat()]


@pytest.mark.parametrize(
    ("query", "status"),
    [({"before": "yesterday"}, 400), ({"variant": "SP1-S2R"}, 400), ({"variant": "XX"}, 400)],
)
def test_bad_archive_queries_are_refused(api: APIClient, query: dict[str, str], status: int) -> None:
    response = api.get("/api/leaderboards/archive", query)
    assert response.status_code == status and response.json()["error"]["message"]


def test_all_time_best_is_each_players_best_result_on_any_deal_of_the_variant(api: APIClient) -> None:
    alice, bob, carol, guest = named("alice"), named("bob"), named("carol"), named("~guest-x", guest=True)
    make_result(alice, "SP1-S4C-AAAAAAB", sequences=1, score=420, moves=80, undos=2)
    make_result(alice, "SP1-S4C-AAAAAAC", sequences=0, score=499, moves=1)
    make_result(bob, "SP1-S4C-AAAAAAD", sequences=0, score=480, moves=20)
    make_result(carol, "SP1-S4R-AAAAAAD", sequences=8, score=900, moves=100, won=True)  # another variant
    make_result(guest, "SP1-S4C-AAAAAAB", sequences=8, score=999, moves=1)  # guests rank nowhere
    doc = api.get("/api/leaderboards/all-time/sp1-s4c").json()
    assert doc["variant"] == "SP1-S4C" and doc["by"] == "best"
    assert [(e["rank"], e["player"], e["sequences"], e["score"], e["undos"]) for e in doc["entries"]] == [
        (1, "alice", 1, 420, 2),
        (2, "bob", 0, 480, 0),
    ]
    assert all("board" not in e and "code" not in e for e in doc["entries"])


def test_all_time_wins_and_streaks_come_from_the_statistics(api: APIClient, today: dt.date) -> None:
    alice, bob = named("alice"), named("bob")
    for day in (3, 2, 1):
        daily = daily_of(today - dt.timedelta(days=day), "SD1-S1", f"SD1-S1-AAAAAA{'BCD'[day - 1]}")
        make_result(alice, daily.stored_code.code, daily=daily, won=True, sequences=4, score=800)
    make_result(bob, "SD1-S1-AAAAAAE", won=True, sequences=4, score=800, undos=1)  # a win, not a clean one
    wins = api.get("/api/leaderboards/all-time/SD1-S1", {"by": "wins"}).json()["entries"]
    assert [(e["player"], e["wins"], e["clean_wins"]) for e in wins] == [("alice", 3, 3), ("bob", 1, 0)]
    streak = api.get("/api/leaderboards/all-time/SD1-S1", {"by": "streak"}).json()["entries"]
    assert [(e["player"], e["best_daily_streak"], e["daily_streak"]) for e in streak] == [("alice", 3, 3)]
    assert api.get("/api/leaderboards/all-time/SD1-S1", {"by": "luck"}).status_code == 400


def test_all_time_boards_say_nothing_of_a_hidden_race_until_it_is_over(api: APIClient, settings) -> None:
    settings.RACE_COUNTDOWN_SECONDS = 0
    host, rival = named("host"), named("rival")
    room = rooms.create_room(host=host, variant="SD1-S1")
    rooms.join_room(room_id=room.pk, player=rival)
    rooms.start_room(room_id=room.pk, player=host)
    session = room.members.get(player=host).session
    assert session is not None and session.code_secret
    for token in legal_walk(room.code, 6):
        services.apply_action(player=host, session_id=session.pk, token=token)
    services.finish_session(player=host, session_id=session.pk)  # verified while the rival still plays
    result = session.result

    assert not BoardEntry.objects.filter(result=result).exists()
    assert api.get("/api/leaderboards/all-time/SD1-S1").json()["entries"] == []
    for address in [*(f"/api/leaderboards/all-time/SD1-S1?by={by}" for by in ORDERS), "/api/leaderboards/archive"]:
        body = api.get(address).content.decode()
        assert room.code not in body and room.code.rsplit("-", 1)[1] not in body, address

    rooms.end_overdue_races(now=timezone.now() + dt.timedelta(minutes=settings.RACE_LIMIT_MINUTES))
    # The race is over at its time limit: its code and results are shown.
    best = api.get("/api/leaderboards/all-time/SD1-S1").json()["entries"]
    assert sorted(e["player"] for e in best) == ["host", "rival"]
    assert next(e for e in best if e["player"] == "host")["result"] == result.pk
