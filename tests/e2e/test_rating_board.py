"""The rating board page: a game's rated players best first with rating ± uncertainty, the
provisional ones in a list apart, each game a tab away."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from races.models import Rating
from tests.e2e.conftest import new_page
from tests.e2e.helpers import off_the_loop
from tests.leaderboard.factories import named

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _ratings() -> None:
    now = timezone.now()
    for name, mu, races in [("steady", 30.0, 8), ("sharp", 32.0, 6), ("newcomer", 40.0, 1)]:
        Rating.objects.create(player=named(name), game="SD", mu=mu, sigma=2.0, races=races, updated_at=now)


def test_the_rating_board_ranks_rated_players_and_lists_provisional_ones_apart(browser, server) -> None:
    off_the_loop(_ratings)
    page = new_page(browser, server)
    try:
        page.goto("/ratings/SD/")
        rated = page.locator('[data-group="rated"] [data-entries] tr')
        expect(rated).to_have_count(2)
        expect(rated.nth(0)).to_contain_text("sharp")
        expect(rated.nth(0)).to_contain_text("1920 ± 240")
        expect(rated.nth(1)).to_contain_text("steady")
        provisional = page.locator('[data-group="provisional"] [data-entries] tr')
        expect(provisional).to_have_count(1)
        expect(provisional.first).to_contain_text("newcomer")
        expect(page.locator('[data-game-tab="SD"]')).to_have_attribute("aria-current", "page")
        page.locator('[data-game-tab="SP"]').click()
        expect(page).to_have_url(re.compile(r"/ratings/SP/$"))
        expect(page.locator('[data-group="rated"] [data-entries] tr').first).to_contain_text("Nobody yet")
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()
