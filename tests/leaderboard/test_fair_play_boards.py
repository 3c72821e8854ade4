"""A daily result held by fair play stays off the boards, their clean twins, the par counts, the
streaks and the all-time boards until a member of staff approves it in the admin (then it is there,
as if just verified); a voided one never counts. Every decision is logged with who and when, and the
player sees it (docs/dailies.md, "Fair play")."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games import services
from games.dailies import fair_play
from games.dailies.schedule import utc_today
from games.models import Daily, FairPlayDecision, FairPlayReview, GameSession, Player, Result
from leaderboard.models import BoardEntry, PlayerStats
from leaderboard.par import par_document
from tests.conftest import make_player
from tests.games.play_helpers import winning_log
from tests.leaderboard.factories import daily_of, make_result

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("unlimited_actions")]

CODE = "RU1-C-MFXTMVO"
LOG = winning_log(CODE)


@pytest.fixture
def today() -> Daily:
    return daily_of(utc_today(timezone.now()), "RU1-C", CODE)


def _played(player: Player, *, gap_ms: int) -> Result:
    browser = Client(REMOTE_ADDR="198.51.100.60")
    browser.force_login(player)
    answer = browser.post("/api/sessions", {"daily": "RU1-C"}, content_type="application/json")
    session = GameSession.objects.get(pk=answer.json()["id"])
    at = session.started_at
    for token in LOG:
        at += dt.timedelta(milliseconds=gap_ms)
        services.apply_action(player=player, session_id=session.id, token=token, now=at)
    return Result.objects.get(session=session)


def _flagged(name: str, today: Daily) -> Result:
    """A player with yesterday's daily won, whose today's attempt is played at a machine's pace."""
    player = make_player(name)
    day = today.date - dt.timedelta(days=1)
    yesterday = Daily.objects.filter(date=day).first() or daily_of(day, "RU1-C", "RU1-C-AAAAAAB")
    make_result(player, yesterday.stored_code.code, [], daily=yesterday)
    result = _played(player, gap_ms=20)
    assert FairPlayReview.objects.get(result=result).status == FairPlayReview.Status.HELD
    return result


def _staff() -> Client:
    staff = Player.objects.create_superuser("referee", password="a long pass phrase 1")
    admin = Client()
    admin.force_login(staff)
    return admin


def _decide(admin: Client, result: Result, **form: str) -> Any:
    data = {
        "decisions-TOTAL_FORMS": "0",
        "decisions-INITIAL_FORMS": "0",
        "decisions-MIN_NUM_FORMS": "0",
        "decisions-MAX_NUM_FORMS": "1000",
        **form,
    }
    return admin.post(f"/admin/games/fairplayreview/{result.pk}/change/", data)


def _on(board: str, result: Result) -> bool:
    answer = Client().get(f"/api/leaderboards/{board}").json()
    return any(entry["player"] == result.player.username for entry in answer["entries"])


def _everywhere(result: Result, daily: Daily) -> dict[str, Any]:
    stats = PlayerStats.objects.filter(player=result.player, variant="RU1-C").first()
    all_time = Client().get("/api/leaderboards/all-time/RU1-C?by=best").json()["entries"]
    return {
        "board": _on(daily.board, result),
        "counted_on_board": Client().get(f"/api/leaderboards/{daily.board}").json()["total"],  # the rank index's
        "clean": _on(f"{daily.board}:clean", result),
        "entry": BoardEntry.objects.filter(result=result).exists(),
        "matched_par": par_document(daily.board, now=daily.publishes_at)["matched"],
        "games": stats.games if stats else 0,
        "streak": stats.best_daily_streak if stats else 0,
        "all_time": any(e["player"] == result.player.username for e in all_time),
    }


def _mine(result: Result) -> dict[str, Any]:
    browser = Client()
    browser.force_login(result.player)
    document: dict[str, Any] = browser.get(f"/api/sessions/{result.session_id}").json()["result"]["fair_play"]
    return document


HELD_YESTERDAY_COUNTED = {
    "board": False,
    "counted_on_board": 0,
    "clean": False,
    "entry": False,
    "matched_par": 0,
    "games": 1,  # yesterday's
    "streak": 1,
    "all_time": True,  # by yesterday's game alone
}


def test_a_held_result_joins_every_board_once_approved_and_the_decision_is_logged(today: Daily) -> None:
    result = _flagged("held", today)
    today.par = result.moves
    today.save(update_fields=["par"])
    assert _everywhere(result, today) == HELD_YESTERDAY_COUNTED
    assert _mine(result)["status"] == "under_review"
    admin = _staff()
    page = admin.get(f"/admin/games/fairplayreview/{result.pk}/change/")
    assert page.status_code == 200 and b"a pace no person keeps up" in page.content  # why it is held
    assert b"Blind choices: " in page.content and b"median gap 20 ms" in page.content  # the signals in words
    queue = admin.get("/admin/games/fairplayreview/?status=held")
    assert queue.status_code == 200 and f"/admin/games/fairplayreview/{result.pk}/change/".encode() in queue.content
    assert admin.get("/admin/games/fairplayreview/?status=nonsense").status_code == 200  # every review
    answer = _decide(admin, result, verdict="approve", reason="")
    assert answer.status_code == 302, answer.content
    assert _everywhere(result, today) == {
        "board": True,
        "counted_on_board": 1,
        "clean": True,
        "entry": True,
        "matched_par": 1,
        "games": 2,
        "streak": 2,
        "all_time": True,
    }
    decision = FairPlayDecision.objects.get(review__result=result)
    assert decision.verdict == "approve" and decision.staff is not None and decision.staff.username == "referee"
    assert abs((timezone.now() - decision.decided_at).total_seconds()) < 60
    seen = _mine(result)
    assert seen["status"] == "approved" and seen["decided_at"] == decision.decided_at.isoformat()
    # Approving it again would change nothing: refused, and nothing more is logged.
    again = _decide(admin, result, verdict="approve", reason="")
    assert again.status_code == 200 and b"approved already" in again.content
    assert FairPlayDecision.objects.filter(review__result=result).count() == 1


def test_staff_void_a_result_approved_earlier_and_it_leaves_everything_it_joined(today: Daily) -> None:
    result = _flagged("approved-then-voided", today)
    today.par = result.moves
    today.save(update_fields=["par"])
    admin = _staff()
    assert _decide(admin, result, verdict="approve", reason="").status_code == 302
    assert _everywhere(result, today)["counted_on_board"] == 1 and _everywhere(result, today)["games"] == 2
    answer = _decide(admin, result, verdict="void", reason="The same person played it from a second account.")
    assert answer.status_code == 302, answer.content
    # Out of the board and its clean twin (the rank index rebuilt), the par count, the statistics,
    # the streak and the all-time boards, as though it had never been approved.
    assert _everywhere(result, today) == HELD_YESTERDAY_COUNTED
    stats = PlayerStats.objects.get(player=result.player, variant="RU1-C")
    assert (stats.wins, stats.daily_streak, stats.last_daily) == (0, 1, today.date - dt.timedelta(days=1))
    void = FairPlayDecision.objects.filter(review__result=result).last()
    assert void is not None and void.verdict == "void" and void.staff is not None
    assert _mine(result) == {
        "status": "voided",
        "reason": "The same person played it from a second account.",
        "decided_at": void.decided_at.isoformat(),
        "final_at": today.publishes_at.isoformat(),
    }
    # On appeal it is approved again: back everywhere; each decision logged in order.
    assert _decide(admin, result, verdict="approve", reason="Appeal upheld.").status_code == 302
    assert _everywhere(result, today)["board"] and _everywhere(result, today)["games"] == 2
    verdicts = list(FairPlayDecision.objects.filter(review__result=result).values_list("verdict", flat=True))
    assert verdicts == ["approve", "void", "approve"]


def test_a_voided_result_never_counts_and_its_player_sees_why(today: Daily) -> None:
    result = _flagged("voided", today)
    admin = _staff()
    refused = _decide(admin, result, verdict="void", reason="")
    assert refused.status_code == 200 and b"Say why" in refused.content
    assert not FairPlayDecision.objects.exists()
    assert _decide(admin, result, verdict="void", reason="Played from a second account.").status_code == 302
    review = FairPlayReview.objects.get(result=result)
    status, decision = review.standing()
    assert status == FairPlayReview.Status.VOIDED and decision is not None and decision.staff is not None
    # A result of the day before yesterday recounts the streak: the voided day stays out of it.
    before = daily_of(today.date - dt.timedelta(days=2), "RU1-C", "RU1-C-AAAAAAC")
    make_result(result.player, before.stored_code.code, [], daily=before)
    stats = PlayerStats.objects.get(player=result.player, variant="RU1-C")
    assert (stats.games, stats.daily_streak, stats.last_daily) == (2, 2, today.date - dt.timedelta(days=1))
    assert not BoardEntry.objects.filter(result=result).exists()
    assert not _on(today.board, result) and not _on(f"{today.board}:clean", result)
    seen = _mine(result)
    assert seen == {
        "status": "voided",
        "reason": "Played from a second account.",
        "decided_at": decision.decided_at.isoformat(),
        "final_at": today.publishes_at.isoformat(),
    }
    recap = Client()
    recap.force_login(result.player)
    calendar = recap.get("/api/daily/recap?variant=RU1-C").json()
    assert calendar["fair_play"]["status"] == "voided"
    statuses = {day["date"]: day["status"] for day in calendar["streak"]["days"]}
    assert statuses[today.date.isoformat()] != "won"


def test_the_admin_action_approves_the_selected_held_results(today: Daily) -> None:
    first, second = _flagged("one", today), _flagged("two", today)
    admin = _staff()
    answer = admin.post(
        "/admin/games/fairplayreview/",
        {"action": "approve_selected", "_selected_action": [str(first.pk), str(second.pk)]},
    )
    assert answer.status_code == 302
    assert {review.status for review in FairPlayReview.objects.all()} == {"approved"}
    assert FairPlayReview.objects.in_status("approved").count() == 2
    assert BoardEntry.objects.filter(result__in=[first, second], board=today.board).count() == 2
    assert FairPlayDecision.objects.filter(staff__username="referee").count() == 2


def test_a_decision_must_change_what_is_in_force(today: Daily) -> None:
    result = _flagged("twice", today)
    staff = Player.objects.create_superuser("boss", password="a long pass phrase 2")
    review = FairPlayReview.objects.get(result=result)
    fair_play.decide(review=review, staff=staff, verdict="void", reason="no", now=timezone.now())
    with pytest.raises(fair_play.CannotDecide):
        fair_play.decide(review=review, staff=staff, verdict="void", reason="again", now=timezone.now())
    fair_play.decide(review=review, staff=staff, verdict="approve", reason="on appeal", now=timezone.now())
    assert review.status == FairPlayReview.Status.APPROVED
    clear = FairPlayReview.objects.create(result=make_result(make_player("clean"), CODE, LOG[:3]), reasons=[])
    with pytest.raises(fair_play.CannotDecide):
        fair_play.decide(review=clear, staff=staff, verdict="void", reason="no", now=timezone.now())
    assert FairPlayDecision.objects.filter(review=clear).count() == 0
