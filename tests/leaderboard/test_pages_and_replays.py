"""Player pages with statistics and daily streaks, and replays stepped action by action."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.engine import Game, replay
from games.models import FairPlayReview
from games.results.replay_verification import canonical
from leaderboard.models import PlayerStats
from leaderboard.stats import current_streak, recount
from tests.historical import before_the_move
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


def _farmed(loops: int) -> list[str]:
    """The Russian win's first 31 actions (two cards home), then a card taken back and sent home again
    `loops` times: each loop earns 10 points more, and nothing else."""
    game = Game.from_code(RUSSIAN_WIN)
    start = vector_log(RUSSIAN_WIN)[:31]
    game.run(start)
    back = next(str(a) for a in game.legal_actions() if str(a).startswith("F"))
    return start + [back, f"{back.split('>')[1]}>F"] * loops


def test_russians_best_is_the_most_cards_home_then_the_fewest_moves_not_the_farmable_score(api: APIClient) -> None:
    player = named("farmer")
    farmed = make_result(player, RUSSIAN_WIN, _farmed(60))
    win = make_result(player, RUSSIAN_WIN, vector_log(RUSSIAN_WIN))
    assert farmed.score > win.score and farmed.cards_home == 2 and win.cards_home == 52
    stats = PlayerStats.objects.get(player=player, variant="RU1-C")
    assert (stats.best_cards_home, stats.best_moves, stats.best_score) == (52, win.moves, None)
    make_result(player, RUSSIAN_WIN, _farmed(80))  # an even higher score changes nothing
    stats.refresh_from_db()
    assert (stats.best_cards_home, stats.best_moves) == (52, win.moves)

    other = named("steady")
    make_result(other, RUSSIAN_WIN, _farmed(3))  # 2 cards home, 37 moves
    make_result(other, RUSSIAN_WIN, _farmed(1))  # 2 cards home, fewer moves: the better
    make_result(other, RUSSIAN_WIN, vector_log(RUSSIAN_WIN)[:10])  # fewer cards home (none), fewer moves
    assert PlayerStats.objects.filter(player=other).values_list("best_cards_home", "best_moves").get() == (2, 33)
    page = api.get("/api/players/farmer").json()
    (russian,) = page["stats"]
    assert (russian["best_cards_home"], russian["best_moves"], russian["best_score"]) == (52, win.moves, None)


def test_clean_wins_are_the_wins_without_an_undo(api: APIClient) -> None:
    player = named("cleaner")
    assert canonical(vector_log(SPIDERETTE_WIN)).count("U") > 0
    make_result(player, SPIDERETTE_WIN, vector_log(SPIDERETTE_WIN))  # won with undos
    make_result(player, RUSSIAN_WIN, vector_log(RUSSIAN_WIN))  # won clean
    make_result(player, RUSSIAN_WIN, vector_log(RUSSIAN_WIN), ranked=False)  # practice counts too
    make_result(player, RUSSIAN_WIN, vector_log(RUSSIAN_WIN)[:30])  # clean, not won
    stats = {s["variant"]: s for s in api.get("/api/players/cleaner").json()["stats"]}
    assert (stats["SD1-S1"]["wins"], stats["SD1-S1"]["clean_wins"]) == (1, 0)
    assert (stats["RU1-C"]["games"], stats["RU1-C"]["wins"], stats["RU1-C"]["clean_wins"]) == (3, 2, 2)
    assert stats["SD1-S1"]["best_score"] is not None and stats["SD1-S1"]["best_cards_home"] is None


def _wins_and_losses(player: Any) -> None:
    """Won, won, lost, won (a submission: no time), won: in that order."""
    win = vector_log(RUSSIAN_WIN)
    make_result(player, RUSSIAN_WIN, win, elapsed_ms=60_000, moves=100)
    make_result(player, RUSSIAN_WIN, win, elapsed_ms=120_000, moves=120)
    make_result(player, RUSSIAN_WIN, win[:10], elapsed_ms=5_000)
    make_result(player, RUSSIAN_WIN, win, elapsed_ms=None, moves=130)
    make_result(player, RUSSIAN_WIN, win, elapsed_ms=90_000, moves=150)


WINS_COUNTED = {"win_moves": 500, "timed_wins": 3, "win_ms": 270_000, "win_streak": 2, "best_win_streak": 2}


def test_the_wins_average_moves_and_time_and_the_winning_streaks(api: APIClient) -> None:
    player = named("averager")
    _wins_and_losses(player)
    stats = PlayerStats.objects.get(player=player)
    assert {name: getattr(stats, name) for name in WINS_COUNTED} == WINS_COUNTED
    (page,) = api.get("/api/players/averager").json()["stats"]
    # The moves of the four wins on average; the time of the three timed ones.
    assert (page["average_win_moves"], page["average_win_ms"]) == (125.0, 90_000)
    assert (page["win_streak"], page["best_win_streak"], page["wins"], page["games"]) == (2, 2, 4, 5)
    make_result(player, RUSSIAN_WIN, vector_log(RUSSIAN_WIN), moves=100)
    (page,) = api.get("/api/players/averager").json()["stats"]
    assert (page["win_streak"], page["best_win_streak"]) == (3, 3)
    make_result(player, RUSSIAN_WIN, [])
    (page,) = api.get("/api/players/averager").json()["stats"]
    assert (page["win_streak"], page["best_win_streak"]) == (0, 3)
    recount(player_id=player.pk, variant="RU1-C")  # counted again from the results (a withdrawal)
    assert api.get("/api/players/averager").json()["stats"] == [page]

    none_won = named("trier")
    make_result(none_won, RUSSIAN_WIN, [])
    (page,) = api.get("/api/players/trier").json()["stats"]
    assert (page["average_win_moves"], page["average_win_ms"], page["best_win_streak"]) == (None, None, 0)


def test_statistics_kept_so_far_are_given_their_wins_and_streaks_by_the_migration() -> None:
    import importlib

    from django.apps import apps

    player = named("veteran")
    _wins_and_losses(player)
    held = make_result(player, RUSSIAN_WIN, vector_log(RUSSIAN_WIN), moves=10)
    FairPlayReview.objects.create(result=held, reasons=["pace"])  # held for review: it counts nowhere
    PlayerStats.objects.update(**{name: 0 for name in WINS_COUNTED})
    migration = importlib.import_module("leaderboard.migrations.0012_stats_wins_averages_streaks")
    migration.count_wins(apps, None)
    stats = PlayerStats.objects.get(player=player)
    assert {name: getattr(stats, name) for name in WINS_COUNTED} == WINS_COUNTED


def test_statistics_kept_so_far_are_recounted_by_the_migration() -> None:
    import importlib

    player = named("old-timer")
    win = make_result(player, RUSSIAN_WIN, vector_log(RUSSIAN_WIN))
    make_result(player, RUSSIAN_WIN, _farmed(60))
    make_result(player, SPIDERETTE_WIN, vector_log(SPIDERETTE_WIN))
    kept = {s.variant: s for s in PlayerStats.objects.filter(player=player)}
    PlayerStats.objects.update(clean_wins=0, best_cards_home=None, best_moves=None)
    PlayerStats.objects.filter(variant="RU1-C").update(best_score=9999)  # as it was: the farmed score
    recount = importlib.import_module("leaderboard.migrations.0008_stats_clean_wins_russian_best").recount
    recount(before_the_move(), None)
    for stats in PlayerStats.objects.filter(player=player):
        before = kept[stats.variant]
        assert (stats.clean_wins, stats.best_score, stats.best_cards_home, stats.best_moves) == (
            before.clean_wins,
            before.best_score,
            before.best_cards_home,
            before.best_moves,
        )
    assert kept["RU1-C"].best_moves == win.moves and kept["RU1-C"].clean_wins == 1


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
            "deals": 4,
            "goal": "sequences",
            "goal_total": 4,
        }
    assert body["result"]["id"] == result.pk and body["result"]["moves"] == body["state"]["moves"]


# Not a whole number is the request's fault; a step past the last is one this game does not have.
@pytest.mark.parametrize(("query", "status"), [("?step=31", 404), ("?step=-1", 400), ("?step=two", 400)])
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
