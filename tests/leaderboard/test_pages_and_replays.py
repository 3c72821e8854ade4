"""Player pages with statistics and daily streaks, and replays stepped action by action."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from rest_framework.test import APIClient

from games.engine import Game, replay
from leaderboard.models import PlayerStats
from leaderboard.stats import current_streak
from tests.leaderboard.factories import (
    RUSSIAN_WIN,
    SPIDER_WIN,
    SPIDERETTE_WIN,
    daily_of,
    make_result,
    named,
    vector_log,
)

pytestmark = pytest.mark.django_db
DAY = dt.date(2020, 3, 1)


def test_statistics_count_games_wins_best_score_and_the_daily_streak() -> None:
    player = named("streaker")
    days = [DAY, DAY + dt.timedelta(1), DAY + dt.timedelta(2), DAY + dt.timedelta(4)]
    # Each day's daily on its own deal; results arrive out of order.
    codes = ["SP1-S1C-AAAAAAA", "SP1-S1C-AAAAAAB", "SP1-S1C-AAAAAAC", "SP1-S1C-AAAAAAD"]
    dailies = [daily_of(day, "SP1-S1C", code) for day, code in zip(days, codes, strict=True)]
    for i in (2, 0, 3, 1):
        make_result(player, codes[i], [], daily=dailies[i])
    make_result(player, codes[0], [], daily=dailies[0], ranked=False)  # practice: no streak day
    make_result(player, SPIDER_WIN, vector_log(SPIDER_WIN))
    stats = PlayerStats.objects.get(player=player, variant="SP1-S1C")
    assert (stats.games, stats.wins, stats.best_score) == (6, 1, 1125)
    assert (stats.daily_streak, stats.best_daily_streak, stats.last_daily) == (1, 3, days[3])
    assert current_streak(stats, days[3] + dt.timedelta(1)) == 1  # today's daily may still come
    assert current_streak(stats, days[3] + dt.timedelta(2)) == 0


def test_the_player_page_has_stats_results_pages_and_series(api: APIClient) -> None:
    player = named("Pager")
    russian = vector_log(RUSSIAN_WIN)
    made = [make_result(player, RUSSIAN_WIN, russian[: 10 * (i + 1)]) for i in range(5)]
    make_result(player, SPIDERETTE_WIN, vector_log(SPIDERETTE_WIN))
    body = api.get("/api/players/pager?limit=4").json()
    assert body["player"]["name"] == "Pager"
    assert {s["variant"]: (s["games"], s["wins"]) for s in body["stats"]} == {"RU1-C": (5, 0), "SD1-S1": (1, 1)}
    second = api.get(f"/api/players/Pager?limit=4&cursor={body['next_cursor']}").json()
    ids = [r["id"] for r in body["results"] + second["results"]]
    assert second["next_cursor"] is None and len(ids) == len(set(ids)) == 6
    assert body["results"][0]["code"] == SPIDERETTE_WIN  # newest first
    points = body["series"]["RU1-C"]
    assert [p["result"] for p in points] == [r.pk for r in made]  # oldest first
    assert [p["moves"] for p in points] == [r.moves for r in made]


def test_a_player_page_hides_an_unpublished_daily_code(api: APIClient) -> None:
    today = dt.datetime.now(dt.UTC).date()
    make_result(named("daily-player"), SPIDER_WIN, [], daily=daily_of(today, "SP1-S1C", SPIDER_WIN))
    body = api.get("/api/players/daily-player").json()
    assert body["results"][0]["code"] is None and SPIDER_WIN not in json.dumps(body)


@pytest.mark.parametrize("name", ["nobody", "~guest-1234", "%20"])
def test_no_page_for_unknown_players_or_guests(api: APIClient, name: str) -> None:
    named("~guest-1234", guest=True)
    response = api.get(f"/api/players/{name}")
    assert response.status_code == 404 and "No player" in response.json()["error"]["message"]


def test_a_replay_steps_through_the_verified_log(api: APIClient) -> None:
    log = vector_log(SPIDERETTE_WIN)[:30]
    result = make_result(named("stepper"), SPIDERETTE_WIN, log)
    url = f"/api/results/{result.pk}/replay"
    start = api.get(url).json()
    assert (start["step"], start["steps"], start["token"]) == (0, 30, None)
    assert start["state"] == Game.from_code(SPIDERETTE_WIN).state()
    assert all(isinstance(column["down"], list) for column in start["state"]["columns"])  # every card shown
    for step in (1, 17, 30):
        body = api.get(f"{url}?step={step}").json()
        assert body["token"] == log[step - 1]
        assert body["state"] == replay(SPIDERETTE_WIN, log[:step]).game.state()  # type: ignore[union-attr]
        stock = len(body["state"]["stock"])
        assert body["table"] == {
            "columns": 7,
            "deals_left": -(-stock // 7),
            "sequences": 4,
            "foundations": 0,
            "home_move_cards": 0,
        }
    assert body["result"]["id"] == result.pk and body["result"]["moves"] == body["state"]["moves"]


@pytest.mark.parametrize(("query", "status"), [("?step=31", 400), ("?step=-1", 400), ("?step=two", 400)])
def test_a_step_outside_the_log_is_refused(api: APIClient, query: str, status: int) -> None:
    result = make_result(named("bounds"), SPIDERETTE_WIN, vector_log(SPIDERETTE_WIN)[:30])
    response = api.get(f"/api/results/{result.pk}/replay{query}")
    assert response.status_code == status and "from 0 to 30" in response.json()["error"]["message"]


@pytest.mark.parametrize("result_id", ["999999", "abc", "0"])
def test_a_missing_result_has_no_replay(api: APIClient, result_id: str) -> None:
    response = api.get(f"/api/results/{result_id}/replay")
    assert response.status_code == 404 and response.json()["error"]["message"] == "No such result."


def test_a_dailys_replay_opens_when_the_day_is_over(api: APIClient) -> None:
    today = dt.datetime.now(dt.UTC).date()
    running = make_result(
        named("today"), SPIDER_WIN, vector_log(SPIDER_WIN)[:5], daily=daily_of(today, "SP1-S1C", SPIDER_WIN)
    )
    response = api.get(f"/api/results/{running.pk}/replay?step=5")
    assert response.status_code == 404
    assert response.json()["error"]["message"] == "This daily's replays open when the day is over."
    assert SPIDER_WIN[-7:] not in response.content.decode()
    past = make_result(named("yesterday"), SPIDERETTE_WIN, [], daily=daily_of(DAY, "SD1-S1", SPIDERETTE_WIN))
    body = api.get(f"/api/results/{past.pk}/replay").json()
    assert body["result"]["code"] == SPIDERETTE_WIN and body["state"]["code"] == SPIDERETTE_WIN
