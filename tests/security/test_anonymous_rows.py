"""Anonymous clients cannot make rows without bound: a page view makes no player (the first game
makes the guest, with the page's CSRF token), dailies exist only from the league's first day to
today, and new games, new guests and submissions are limited per address and per player."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import GameSession, Player
from tests.conftest import make_player
from tests.daily_helpers import store_unsettled_dailies
from tests.security.snapshot import snapshot
from tests.security.test_rate_limits import as_player, assert_limited

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def first_visit(address: str = "127.0.0.1") -> tuple[Client, str]:
    browser = Client(enforce_csrf_checks=True, REMOTE_ADDR=address)
    assert browser.get("/").status_code == 200
    return browser, browser.cookies["csrftoken"].value


def start(browser: Client, token: str | None, body: dict[str, Any], **extra: Any) -> Any:
    headers = {"HTTP_X_CSRFTOKEN": token} if token else {}
    return browser.post("/api/sessions", body, content_type="application/json", **headers, **extra)


def test_two_hundred_cookieless_page_views_make_no_row() -> None:
    before = snapshot()
    for path in ["/", "/leaderboards/", "/rooms/", "/rules/spider/"] * 50:
        assert Client().get(path).status_code == 200
    assert snapshot() == before


def test_a_first_time_visitor_becomes_a_guest_by_playing_and_stays_one() -> None:
    browser, token = first_visit()
    assert not Player.objects.exists()
    first = start(browser, token, {"variant": "SP1-S1C"})
    assert first.status_code == 201, first.content
    guest = Player.objects.get()
    assert guest.is_guest and GameSession.objects.get().player == guest
    assert browser.get(f"/play/{first.json()['id']}/").status_code == 200  # the page sees the guest's game
    token = browser.cookies["csrftoken"].value  # Django rotates it at the log-in, as the page reads it anew
    assert start(browser, token, {"variant": "SD1-S1"}).status_code == 201
    assert (
        browser.post(
            "/api/rooms", {"variant": "RU1-C"}, content_type="application/json", HTTP_X_CSRFTOKEN=token
        ).status_code
        == 201
    )
    assert Player.objects.count() == 1 and GameSession.objects.filter(player=guest).count() == 2


@pytest.mark.parametrize(
    ("token", "body", "status"),
    [
        (None, {"variant": "SP1-S1C"}, 403),  # no CSRF token: a page on another site
        ("page", {"daily": "SP1-S4C"}, 401),  # guests get no daily: asked to sign up
        ("page", {"code": "XX1-S1-AAAAAAA"}, 422),
        ("page", {"variant": "SP1-S1C", "code": "SP1-S1C-AAAAAAA"}, 400),
    ],
)
def test_a_refused_first_game_leaves_no_guest(token: str | None, body: dict[str, Any], status: int) -> None:
    browser, csrf = first_visit()
    before = snapshot()
    refused = start(browser, csrf if token else None, body)
    assert refused.status_code == status, refused.content
    assert set(refused.json()["error"]) >= {"message", "index", "token"}
    assert snapshot() == before
    assert "sessionid" not in browser.cookies  # nor a session that names one


@pytest.mark.parametrize("date", ["0001-01-01", "1999-12-31", "2019-12-31"])
def test_dailies_before_the_first_day_are_404_and_make_nothing(date: str, settings: Any) -> None:
    settings.DAILIES_START = dt.date(2020, 1, 1)
    before = snapshot()
    response = APIClient().get("/api/daily", {"date": date})
    assert response.status_code == 404
    assert response.json()["error"]["message"] == "There are no dailies before 2020-01-01, the league's first day."
    assert snapshot() == before


def test_dailies_are_served_from_the_first_day(settings: Any) -> None:
    settings.DAILIES_START = dt.date(2020, 1, 1)
    store_unsettled_dailies(dt.date(2020, 1, 1))
    first_day = APIClient().get("/api/daily", {"date": "2020-01-01"})
    assert first_day.status_code == 200 and len(first_day.json()["dailies"]) == 7
    before = snapshot()
    tomorrow = (dt.datetime.now(dt.UTC) + dt.timedelta(days=1)).date().isoformat()
    assert APIClient().get("/api/daily", {"date": tomorrow}).status_code == 404
    assert snapshot() == before


def test_new_games_per_player(settings: Any) -> None:
    settings.RATE_SESSION_STARTS = 2
    alice, bob = as_player(make_player("alice")), as_player(make_player("bob"))
    for _ in range(2):
        assert alice.post("/api/sessions", {"variant": "SP1-S1C"}, format="json").status_code == 201
    before = snapshot()
    assert_limited(alice.post("/api/sessions", {"variant": "SP1-S1C"}, format="json"), "Too many new games", 60)
    assert snapshot() == before
    assert bob.post("/api/sessions", {"variant": "SP1-S1C"}, format="json").status_code == 201


def test_new_games_per_address(settings: Any) -> None:
    settings.RATE_SESSION_STARTS_PER_ADDRESS = 2
    players = [as_player(make_player(name)) for name in ("alice", "bob", "carol")]
    for player in players[:2]:
        assert player.post("/api/sessions", {"variant": "SP1-S1C"}, format="json").status_code == 201
    before = snapshot()
    refused = players[2].post("/api/sessions", {"variant": "SP1-S1C"}, format="json")
    assert_limited(refused, "Too many new games from this address", 60)
    assert snapshot() == before
    elsewhere = players[2].post("/api/sessions", {"variant": "SP1-S1C"}, format="json", REMOTE_ADDR="10.0.0.9")
    assert elsewhere.status_code == 201


def test_new_guests_per_address(settings: Any) -> None:
    settings.RATE_GUESTS = 2
    for _ in range(2):
        browser, token = first_visit()
        assert start(browser, token, {"variant": "SP1-S1C"}).status_code == 201
    browser, token = first_visit()
    before = snapshot()
    assert_limited(start(browser, token, {"variant": "SP1-S1C"}), "Too many new guests from this address", 3600)
    assert snapshot() == before and Player.objects.count() == 2
    browser, token = first_visit("10.0.0.9")
    assert start(browser, token, {"variant": "SP1-S1C"}, REMOTE_ADDR="10.0.0.9").status_code == 201


def test_submissions_per_address(settings: Any) -> None:
    settings.RATE_SUBMISSIONS_PER_ADDRESS = 2
    body = {"code": "SP1-S1C-AAAAAAA", "moves": ["D"]}
    players = [as_player(make_player(name)) for name in ("alice", "bob", "carol")]
    for player in players[:2]:
        assert player.post("/api/submissions", body, format="json").status_code == 201
    before = snapshot()
    refused = players[2].post("/api/submissions", body, format="json")
    assert_limited(refused, "Too many submissions from this address", 60)
    assert snapshot() == before


def test_a_limit_is_said_in_the_players_language(settings: Any) -> None:
    settings.RATE_SESSION_STARTS = 0
    alice = make_player("alice")
    for language, words in (("fi", "Liian monta uutta peliä"), ("hr", "Previše novih igara")):
        refused = as_player(alice).post(
            "/api/sessions", {"variant": "SP1-S1C"}, format="json", HTTP_ACCEPT_LANGUAGE=language
        )
        assert refused.status_code == 429 and words in refused.json()["error"]["message"], refused.json()


SHOW = (
    "import django; django.setup(); from django.conf import settings as s; "
    "print(s.DAILIES_START, s.RATE_SESSION_STARTS, s.RATE_SESSION_STARTS_PER_ADDRESS, s.RATE_GUESTS, "
    "s.RATE_SUBMISSIONS_PER_ADDRESS)"
)


def _settings_with(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "RATE_", "DAILIES_"))}
    clean.update(env, DJANGO_SETTINGS_MODULE="config.settings")
    return subprocess.run([sys.executable, "-c", SHOW], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60)


def test_the_limits_and_the_first_day_come_from_the_environment() -> None:
    assert _settings_with({}).stdout.split() == ["2020-01-01", "30", "60", "20", "120"]
    chosen = {
        "DAILIES_START": "2026-12-01",
        "RATE_SESSION_STARTS": "5",
        "RATE_SESSION_STARTS_PER_ADDRESS": "6",
        "RATE_GUESTS": "7",
        "RATE_SUBMISSIONS_PER_ADDRESS": "8",
    }
    assert _settings_with(chosen).stdout.split() == ["2026-12-01", "5", "6", "7", "8"]
    wrong = _settings_with({"DAILIES_START": "first of December"})
    assert wrong.returncode != 0 and "DAILIES_START must be a date" in wrong.stderr


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("fi", "Päivän haasteita ei ole ennen 2020-01-01"),
        ("hr", "Nema dnevnih izazova prije 2020-01-01"),
    ],
)
def test_the_first_day_is_said_in_the_players_language(language: str, words: str, settings: Any) -> None:
    settings.DAILIES_START = dt.date(2020, 1, 1)
    refused = APIClient().get("/api/daily", {"date": "1999-01-01"}, HTTP_ACCEPT_LANGUAGE=language)
    assert refused.status_code == 404 and words in refused.json()["error"]["message"]
