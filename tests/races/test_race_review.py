"""A finished race's review on the real services: the race's end records it pending, in the end's own
transaction; a closer round searches it (no worker of the web process does); a look at it only
reads; each game is marked where it first left the solver's line."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.engine import Game
from games.models import Room
from games.rooms import rooms
from games.solver import solve
from races import review
from races.models import DealReview, RaceVerdict
from tests.races.race_helpers import on_commit, open_race, play, walk

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.usefixtures("unlimited_actions"),
]
SOLVABLE = "SD1-S1-GRKQQNHQBGEKDXOTCFQG"  # a long deal the solver wins at once
Capture = Callable[..., Any]


@pytest.fixture(autouse=True)
def _small_daily_solver(settings):  # type: ignore[no-untyped-def]
    """A closer round prepares today's dailies before it reviews: quickly, here."""
    settings.DAILY_SOLVER_BUDGET_SECONDS = 0.05
    settings.DAILY_CANDIDATE_CAP = 1
    settings.DAILY_PREPARE_DAYS = 0


def _finished(capture: Capture, code: str = SOLVABLE) -> Room:
    room, racers = open_race(2, code=code)
    tokens = walk(room, 2)
    for racer in racers:
        on_commit(capture, lambda racer=racer: play(room, racer, tokens))
    room.refresh_from_db()
    assert room.state == Room.State.FINISHED
    return room


def _closer_round() -> str:
    out = io.StringIO()
    call_command("close_dailies", stdout=out)
    return out.getvalue()


def _look(room: Room) -> dict[str, Any]:
    answer = APIClient().get(f"/api/rooms/{room.pk}/review")
    assert answer.status_code == 200
    return answer.json()


def test_the_end_records_the_review_pending_with_itself_and_one_closer_round_searches_it(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    room, (host, rival) = open_race(2, code=SOLVABLE)
    play(room, rival, [])  # the rival gives up; only the host plays on, so the host may end the race
    with django_capture_on_commit_callbacks() as after_commit:  # the end commits: nothing run after it yet
        rooms.end_room(room_id=room.pk, player=host)
    assert after_commit and not RaceVerdict.objects.exists()  # the rating waits for the commit ...
    assert DealReview.objects.get(room=room).status == "pending"  # ... the review was written with the end
    assert _look(room)["solver"]["status"] == "pending"

    said = _closer_round()
    kept = DealReview.objects.get(room=room)
    assert kept.status == "won" and kept.line and kept.solved_at is not None, said
    assert "race reviews: 1 searched, 0 still pending" in said
    assert _look(room)["solver"] == {
        "status": "won",
        "par": kept.par,
        "steps": len(kept.line.split()),
        "seconds_budget": 30.0,
    }
    assert "race reviews" not in _closer_round()  # nothing left: the next round says nothing of them


def test_a_look_at_a_finished_race_writes_nothing(django_capture_on_commit_callbacks: Capture) -> None:
    room = _finished(django_capture_on_commit_callbacks)
    DealReview.objects.all().delete()  # a race whose review was never recorded
    with CaptureQueriesContext(connection) as queries:
        document = _look(room)
        line = APIClient().get(f"/api/rooms/{room.pk}/review/line")
        page = APIClient().get(f"/rooms/{room.pk}/review/")
        replay = APIClient().get(f"/replay/race/{room.pk}/")
    assert document["solver"] == {"status": "pending", "par": None, "steps": 0, "seconds_budget": 30.0}
    assert line.status_code == 404 and "still looking" in line.json()["error"]["message"]
    assert page.status_code == 200 and replay.status_code == 200
    writes = [q["sql"] for q in queries if not q["sql"].lstrip().upper().startswith(("SELECT", "SAVEPOINT", "RELEASE"))]
    assert writes == [] and not DealReview.objects.exists()


def test_the_closer_searches_the_oldest_first_and_gives_way_when_its_next_round_is_due(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    first, second = _finished(django_capture_on_commit_callbacks), _finished(django_capture_on_commit_callbacks)
    asked: list[int] = []

    def after_one() -> bool:  # the next round is due once one search is done
        asked.append(1)
        return len(asked) > 1

    assert review.solve_pending(after_one) == "race reviews: 1 searched, 1 still pending."
    statuses = dict(DealReview.objects.values_list("room_id", "status"))
    assert statuses == {first.pk: "won", second.pk: "pending"}  # left pending, as by a closer that died
    _closer_round()
    assert DealReview.objects.get(room=second).status == "won"


def test_a_deal_the_solver_fails_on_is_kept_as_no_win_and_holds_up_no_other(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    broken, fine = _finished(django_capture_on_commit_callbacks), _finished(django_capture_on_commit_callbacks)
    Room.objects.filter(pk=broken.pk).update(code="not a code")
    _closer_round()
    statuses = dict(DealReview.objects.values_list("room_id", "status"))
    assert statuses == {broken.pk: "unknown", fine.pk: "won"}


def test_the_review_marks_where_each_game_first_left_the_solvers_line(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    capture = django_capture_on_commit_callbacks
    room, (follower, leaver) = open_race(2, code=SOLVABLE)
    api = APIClient()
    hidden = api.get(f"/api/rooms/{room.pk}/review")
    assert hidden.status_code == 409 and "when the race is over" in hidden.json()["error"]["message"]
    assert api.get(f"/api/rooms/{room.pk}/review/line").status_code == 409
    assert not DealReview.objects.exists()  # nothing is searched, or shown, while the race is on

    line = solve(SOLVABLE, 10).actions  # the same search the review makes
    game = Game.from_code(SOLVABLE)
    game.run(list(line[:3]))
    other = next(str(a) for a in game.legal_actions() if str(a) != line[3])
    on_commit(capture, lambda: play(room, leaver, [*line[:3], other]))
    on_commit(capture, lambda: play(room, follower, list(line)))
    _closer_round()

    document = _look(room)
    assert document["solver"]["status"] == "won" and document["solver"]["steps"] == len(line)
    marks = {p["player"]: (p["left_line_at"], p["steps"], p["won"]) for p in document["players"]}
    assert marks == {follower.username: (None, len(line), True), leaver.username: (4, 4, False)}
    stepped = api.get(f"/api/rooms/{room.pk}/review/line", {"step": 4}).json()
    assert (stepped["step"], stepped["token"], stepped["steps"]) == (4, line[3], len(line))
    assert api.get(f"/api/rooms/{room.pk}/review/line", {"step": len(line) + 1}).status_code == 404
    assert api.get(f"/api/rooms/{room.pk}/review/line", {"step": "-1"}).status_code == 400
