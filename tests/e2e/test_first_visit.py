"""A first-time visitor plays at once: the page views make no player, the first game (sent with the
page's CSRF token) makes the guest, and the browser stays that guest from then on."""

from __future__ import annotations

import pytest

from games.models import Player
from tests.e2e.conftest import new_page

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_first_game_makes_the_guest_and_the_browser_keeps_it(browser, server) -> None:
    page = new_page(browser, server)
    try:
        for path in ("/", "/leaderboards/", "/rules/spider/", "/"):
            page.goto(path)
        assert not Player.objects.exists()
        page.get_by_role("button", name="New deal").click()
        page.wait_for_url("**/play/*/")
        page.locator(".column").first.wait_for()
        page.locator(".connection[data-state=open]").wait_for()  # the play socket opens as the guest
        guest = Player.objects.get()
        assert guest.is_guest and guest.sessions.count() == 1
        page.reload()
        page.locator(".column").first.wait_for()  # the game is still the browser's
        page.goto("/")
        page.get_by_role("button", name="New deal").click()
        page.wait_for_url("**/play/*/")
        page.locator(".column").first.wait_for()
        assert Player.objects.count() == 1 and guest.sessions.count() == 2
        assert not page.js_errors
    finally:
        page.context.close()
