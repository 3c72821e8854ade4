"""Only the preparer stores a daily (docs/dailies.md, "Prepared, never frozen by a read"): no request
creates or freezes one. Today's daily not stored yet is being prepared (503, Retry-After); a past day
that was never prepared has no daily."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone

from games.dailies.schedule import PREPARING_RETRY_SECONDS, utc_today
from games.engine import DAILY_VARIANTS
from games.models import Daily, DailyCandidate, GameSession
from games.players.guests import create_guest
from tests.conftest import make_player
from tests.daily_helpers import store_unsettled_dailies

PAST = dt.date(2020, 3, 1)


def _signed_in() -> Client:
    browser = Client()
    browser.force_login(make_player("reader"))
    return browser


def _reads(today: dt.date) -> list[str]:
    """Every GET a page or a script makes that names a daily."""
    paths = ["/", "/api/daily", f"/api/daily?date={PAST}", f"/api/daily?date={today}", "/leaderboards/archive/"]
    paths.append("/api/leaderboards/archive")
    for date in (today, PAST):
        for variant in DAILY_VARIANTS:
            board = f"daily:{date}:{variant}"
            paths += [f"/leaderboards/{board}/", f"/api/leaderboards/{board}", f"/api/leaderboards/{board}:clean"]
            paths += [f"/api/leaderboards/{board}/par", f"/api/leaderboards/{board}/par/replay"]
            paths += [f"/replay/par/{board}/"]
    return paths


@pytest.mark.django_db
def test_no_read_stores_a_daily() -> None:
    browser = _signed_in()
    today = utc_today(timezone.now())
    for path in _reads(today):
        answer = browser.get(path)
        assert answer.status_code < 500 or answer.status_code == 503, (path, answer.status_code)
        assert not Daily.objects.exists(), path
        assert not DailyCandidate.objects.exists(), path


@pytest.mark.django_db
def test_todays_daily_being_prepared_is_answered_in_words_with_retry_after() -> None:
    browser = _signed_in()
    overview = browser.get("/api/daily")
    assert overview.status_code == 200
    assert overview["Retry-After"] == str(PREPARING_RETRY_SECONDS)
    entries = overview.json()["dailies"]
    assert [e["variant"] for e in entries] == list(DAILY_VARIANTS)
    assert all(e["status"] == "preparing" and e["certified"] is None and e["session"] is None for e in entries)

    refused = browser.post("/api/sessions", {"daily": "SP1-S4C"}, content_type="application/json")
    assert refused.status_code == 503
    assert refused["Retry-After"] == str(PREPARING_RETRY_SECONDS)
    message = refused.json()["error"]["message"]
    assert "being prepared" in message and "Spider" in message
    assert not Daily.objects.exists() and not GameSession.objects.exists()


@pytest.mark.django_db
def test_a_guest_starting_an_unprepared_daily_is_still_asked_to_sign_up() -> None:
    browser = Client()
    browser.force_login(create_guest())
    assert browser.post("/api/sessions", {"daily": "RU1-C"}, content_type="application/json").status_code == 401


@pytest.mark.django_db
def test_once_prepared_the_list_is_ready_and_says_what_certification_means() -> None:
    today = utc_today(timezone.now())
    store_unsettled_dailies(today, ["SP1-S1C", "RU1-C"])
    # A daily stored before certification existed: no candidate was tried for it.
    unchecked = store_unsettled_dailies(today, ["SD1-S1"])[0]
    DailyCandidate.objects.filter(date=today, variant="SD1-S1").delete()
    Daily.objects.filter(pk=unchecked.pk).update(candidate=None)
    browser = _signed_in()
    answer = browser.get("/api/daily")
    entries = {e["variant"]: e for e in answer.json()["dailies"]}
    assert answer["Retry-After"]  # four are still being prepared
    assert entries["SP1-S1C"]["status"] == "ready" and entries["SP1-S1C"]["certification"] == "none_won"
    assert entries["SD1-S1"]["certification"] == "unchecked" and entries["SD1-S1"]["certified"] is False
    assert entries["SP1-S4C"]["status"] == "preparing"

    store_unsettled_dailies(today)
    answer = browser.get("/api/daily")
    assert not answer.has_header("Retry-After")
    assert {e["status"] for e in answer.json()["dailies"]} == {"ready"}


@pytest.mark.django_db
def test_a_past_day_never_prepared_has_no_daily() -> None:
    browser = _signed_in()
    assert browser.get("/api/daily", {"date": PAST.isoformat()}).json()["dailies"] == []
    store_unsettled_dailies(PAST, ["SD1-S2"])
    listed = browser.get("/api/daily", {"date": PAST.isoformat()}).json()["dailies"]
    assert [e["variant"] for e in listed] == ["SD1-S2"] and listed[0]["code"] is not None  # published
    missing = browser.get(f"/api/leaderboards/daily:{PAST}:SP1-S4C/par/replay")
    assert missing.status_code == 404 and "no" in missing.json()["error"]["message"].lower()
