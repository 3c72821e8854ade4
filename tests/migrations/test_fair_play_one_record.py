"""Migration games 0013 keeps one record of each fair-play decision: the reviews lose the status,
note, decider and time they kept beside the decisions' log, and every review keeps its state, now
read from its reasons and its latest decision. A decision a review recorded but the log lacked is
logged first; going back gives each review its status, note, decider and time again."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import connection
from django.db.models import F

from games.models import FairPlayDecision, FairPlayReview
from tests.migrations.steps import migrate

BEFORE = [("games", "0012_fair_play")]
AFTER = [("games", "0013_fair_play_one_record")]
AT = dt.datetime(2026, 12, 6, 9, 30, tzinfo=dt.UTC)


def _reviews(apps: Any) -> dict[str, Any]:
    """One review of each state the release before kept, by its player's name."""
    players, codes, results = (apps.get_model("games", name) for name in ("Player", "StoredCode", "Result"))
    reviews, decisions = apps.get_model("games", "FairPlayReview"), apps.get_model("games", "FairPlayDecision")
    referee = players.objects.create(username="referee", password="!", is_staff=True)
    code = codes.objects.create(code="RU1-C-MFXTMVO", game="RU", variant="RU1-C")
    made = {}
    for name, status, reasons, note in [
        ("clear", "clear", [], ""),
        ("held", "held", ["pace"], ""),
        ("approved", "approved", ["near_par"], ""),
        ("voided", "voided", ["linked_device"], "A second account."),
        ("unlogged", "voided", ["pace"], "Decided before the log was kept."),
    ]:
        result = results.objects.create(
            player=players.objects.create(username=name, password="!"),
            stored_code=code,
            source="session",
            score=0,
            moves=1,
            won=False,
            actions=1,
            finished_at=AT,
            verified_at=AT,
        )
        decided = status in ("approved", "voided")
        review = reviews.objects.create(
            result=result,
            reasons=reasons,
            status=status,
            note=note,
            decided_by=referee if decided else None,
            decided_at=AT if decided else None,
        )
        if decided and name != "unlogged":
            verdict = "approve" if status == "approved" else "void"
            decisions.objects.create(review=review, verdict=verdict, reason=note, staff=referee, decided_at=AT)
        made[name] = review
    return made


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("back_to_the_latest")
def test_each_review_keeps_its_state_and_every_decision_is_logged_once() -> None:
    before = _reviews(migrate(BEFORE))
    migrate(AFTER)
    # Today's models read only the tables these migrations made: the result's own columns may have grown since.
    named = FairPlayReview.objects.annotate(name=F("result__player__username"))
    reviews = {review.name: review for review in named}
    assert {name: review.status for name, review in reviews.items()} == {
        "clear": "clear",
        "held": "held",
        "approved": "approved",
        "voided": "voided",
        "unlogged": "voided",
    }
    assert reviews["held"].reasons == ["pace"] and reviews["clear"].reasons == []
    logged = {
        decision.name: decision
        for decision in FairPlayDecision.objects.select_related("staff").annotate(
            name=F("review__result__player__username")
        )
    }
    assert sorted(logged) == ["approved", "unlogged", "voided"]  # the two logged before, and the one that was not
    assert FairPlayDecision.objects.count() == 3
    unlogged = logged["unlogged"]
    assert (unlogged.verdict, unlogged.reason, unlogged.staff.username, unlogged.decided_at) == (
        "void",
        "Decided before the log was kept.",
        "referee",
        AT,
    )
    apps = migrate(BEFORE)
    back = {
        r.result.player.username: r
        for r in apps.get_model("games", "FairPlayReview").objects.select_related("result__player")
    }
    assert {name: (r.status, r.note, r.decided_by_id, r.decided_at) for name, r in back.items()} == {
        name: (r.status, r.note, r.decided_by_id, r.decided_at) for name, r in before.items()
    }
