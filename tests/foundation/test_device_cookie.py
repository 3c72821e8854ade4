"""The pages give a browser a long-lived random device cookie once, and keep it: what fair play
compares between accounts (games.dailies.fair_play), never a player's name or anything it could be read as."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_first_page_sets_the_device_cookie_and_later_pages_keep_it() -> None:
    browser = Client()
    first = browser.get("/")
    cookie = first.cookies["device"]
    assert len(cookie.value) >= 32 and cookie["httponly"] and cookie["samesite"] == "Lax"
    assert int(cookie["max-age"]) >= 365 * 24 * 3600 and not cookie["secure"]
    for page in ("/leaderboards/", "/rooms/", "/"):
        answer = browser.get(page)
        assert answer.status_code == 200 and "device" not in answer.cookies, page
    assert browser.cookies["device"].value == cookie.value
    assert Client().get("/").cookies["device"].value != cookie.value  # another browser, another id


def test_the_api_and_a_shared_cache_never_get_one(settings) -> None:  # type: ignore[no-untyped-def]
    assert "device" not in Client().get("/api/variants").cookies
    settings.SESSION_COOKIE_SECURE = True
    assert Client().get("/").cookies["device"]["secure"]
