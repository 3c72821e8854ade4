"""The second-account attack of issue 41 on a real worker: a scout account plays today's daily from
a browser and tries to read its hidden cards by undoing what it uncovered; a second account then
plays a winning line of the deal at a script's pace in its one ranked attempt, from the same
browser. The blind-undo rule refuses the scout's look back, and the second account's result is
held for review: absent from the daily board and its clean twin, its player told so."""

from __future__ import annotations

from typing import Any

import pytest
import requests
from channels.db import database_sync_to_async
from django.utils import timezone
from rest_framework.authtoken.models import Token

from games.dailies.schedule import utc_today
from games.models import FairPlayReview, Result
from leaderboard.models import BoardEntry
from tests.conftest import make_player
from tests.games.play_helpers import winning_log
from tests.leaderboard.factories import daily_of
from tests.security.conftest import Worker

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, pytest.mark.redis]
CODE = "RU1-C-MFXTMVO"  # a Russian Solitaire deal with a won log of 99 actions and no undo
LINE = winning_log(CODE)


def prepare() -> tuple[str, str, str]:
    """Today's Russian daily on CODE, certified with a par line; two accounts with API tokens."""
    daily = daily_of(utc_today(timezone.now()), "RU1-C", CODE)
    daily.certified, daily.par, daily.par_line = True, len(LINE), " ".join(LINE)
    daily.save(update_fields=["certified", "par", "par_line"])
    scout, second = make_player("scout"), make_player("second")
    return daily.board, Token.objects.create(user=scout).key, Token.objects.create(user=second).key


def browser(worker: Worker) -> requests.Session:
    """One browser: the page hands it its long-lived device cookie."""
    client = requests.Session()
    assert client.get(f"{worker.origin}/rules/spider/", timeout=10).status_code == 200
    assert client.cookies.get("device"), "the page sets no device cookie"
    return client


def call(client: requests.Session, worker: Worker, token: str, path: str, body: dict[str, Any] | None = None) -> Any:
    return client.post(
        f"{worker.origin}{path}", json=body or {}, headers={"Authorization": f"Token {token}"}, timeout=10
    )


def held(session_id: str) -> tuple[Result, FairPlayReview, str]:
    """The result, its review and the review's state (read from its decisions)."""
    result = Result.objects.get(session_id=session_id)
    review = FairPlayReview.objects.get(result=result)
    return result, review, review.status


def on_board(board: str, result: Result) -> list[str]:
    return list(BoardEntry.objects.filter(result=result, board__startswith=board).values_list("board", flat=True))


async def test_a_second_account_that_replays_a_scouted_daily_fast_is_held(worker: Worker) -> None:
    board, scout, second = await database_sync_to_async(prepare)()
    page = browser(worker)

    # The scout: plays an opening, then tries to take it back to see what else the deal holds.
    started = call(page, worker, scout, "/api/sessions", {"daily": "RU1-C"})
    assert started.status_code == 201, started.text
    scouting = started.json()["id"]
    for token in LINE[:15]:
        assert call(page, worker, scout, f"/api/sessions/{scouting}/actions", {"action": token}).status_code == 200
    while True:
        undo = call(page, worker, scout, f"/api/sessions/{scouting}/actions", {"action": "U"})
        if undo.status_code != 200:
            break
    assert undo.status_code == 409 and undo.json()["error"]["rule"] == "undo_would_hide", undo.text
    assert call(page, worker, scout, f"/api/sessions/{scouting}/finish").status_code == 200

    # The second account, same browser: the whole winning line at a script's pace.
    started = call(page, worker, second, "/api/sessions", {"daily": "RU1-C"})
    assert started.status_code == 201 and started.json()["ranked"], started.text
    attempt = started.json()["id"]
    for token in LINE:
        played = call(page, worker, second, f"/api/sessions/{attempt}/actions", {"action": token})
        assert played.status_code == 200, played.text
    assert played.json()["finished"] and played.json()["result"]["won"]

    result, review, status = await database_sync_to_async(held)(attempt)
    assert status == FairPlayReview.Status.HELD
    assert {"linked_device", "linked_address", "pace", "clairvoyance"} <= set(review.reasons), review.reasons
    assert await database_sync_to_async(on_board)(board, result) == []
    mine = page.get(
        f"{worker.origin}/api/sessions/{attempt}", headers={"Authorization": f"Token {second}"}, timeout=10
    ).json()["result"]
    assert mine["fair_play"]["status"] == "under_review" and mine["rank"] is None
    board_read = page.get(f"{worker.origin}/api/leaderboards/{board}", timeout=10)
    assert board_read.status_code == 200 and "second" not in board_read.text
