"""A published certified daily's par beside its board: who beat or matched it, and the solver's
winning line in the replay viewer, stepped like a player's game (docs/dailies.md)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from games.dailies.preparation import prepare_daily
from games.engine import Game
from games.models import Daily
from tests.leaderboard.factories import make_result, named

DAY = dt.date(2020, 3, 2)  # long published; under this secret its first candidates cannot be won


@pytest.fixture
def certified(settings) -> Daily:  # type: ignore[no-untyped-def]
    settings.DAILY_SECRET = "test-daily-secret"
    settings.DAILY_SOLVER_BUDGET_SECONDS = 5.0
    daily = prepare_daily(DAY, "RU1-C")
    assert daily is not None and daily.certified and daily.par is not None
    return daily


@pytest.mark.django_db
def test_the_board_counts_who_beat_and_who_matched_the_par(certified: Daily) -> None:
    code, line, par = certified.stored_code.code, certified.par_line.split(), certified.par
    assert par is not None
    make_result(named("matcher"), code, line, daily=certified)  # the par line itself: exactly par moves
    make_result(named("beater"), code, line, daily=certified, moves=par - 3)  # a shorter win
    make_result(named("slower"), code, line, daily=certified, moves=par + 4)
    make_result(named("loser"), code, line[:10], daily=certified, moves=par - 40)  # fewer moves, but lost
    make_result(named("undoer"), code, [*line[:1], "U", *line], daily=certified, moves=par)  # not on the clean twin
    doc = Client().get(f"/api/leaderboards/{certified.board}/par").json()
    assert (doc["par"], doc["beat"], doc["matched"]) == (par, 1, 2)
    clean = Client().get(f"/api/leaderboards/{certified.board}:clean/par").json()
    assert (clean["board"], clean["beat"], clean["matched"]) == (f"{certified.board}:clean", 1, 1)
    assert [c["verdict"] for c in doc["candidates"]][-1] == "won" and len(doc["candidates"]) == certified.candidate + 1


@pytest.mark.django_db
def test_the_par_line_steps_through_the_replay_viewer_like_a_players_game(certified: Daily) -> None:
    client = Client()
    url = f"/api/leaderboards/{certified.board}/par/replay"
    start = client.get(url).json()
    line = certified.par_line.split()
    assert start["step"] == 0 and start["steps"] == len(line) and start["token"] is None
    assert start["state"] == Game.from_code(certified.stored_code.code).state()
    assert start["daily"] == {
        "board": certified.board,
        "date": "2020-03-02",
        "variant": "RU1-C",
        "code": certified.stored_code.code,
        "par": certified.par,
    }
    end = client.get(url, {"step": len(line)}).json()
    assert end["token"] == line[-1] and end["state"]["won"] is True and end["state"]["moves"] == certified.par
    # Not a whole number is the request's fault; a step past the line's last is one it does not have.
    for bad, status in (("-1", 400), ("x", 400), (str(len(line) + 1), 404)):
        refused = client.get(url, {"step": bad})
        assert refused.status_code == status and "step is a whole number" in refused.json()["error"]["message"]
    page = client.get(f"/replay/par/{certified.board}/")
    assert page.status_code == 200 and url.encode() in page.content


@pytest.mark.django_db
def test_a_code_board_has_no_par() -> None:
    client = Client()
    answer = client.get("/api/leaderboards/code:RU1-C-AAAAAAB/par")
    assert answer.status_code == 404 and answer.json()["error"]["message"] == "Only a daily's board has a par."
    assert client.get("/api/leaderboards/code:RU1-C-AAAAAAB/par/replay").status_code == 404
    assert client.get("/replay/par/code:RU1-C-AAAAAAB/").status_code == 404
    assert client.get("/api/leaderboards/nonsense/par").status_code == 400
    assert client.get("/api/leaderboards/daily:2999-01-01:RU1-C/par").status_code == 404
