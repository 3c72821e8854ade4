"""Quick match in the browser: a player alone in the queue sees the wait and can stop it; two players
asking for the same variant are placed in one race together (fewer than six wait a few seconds)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import DESKTOP, PHONE, new_page
from tests.e2e.helpers import in_one_room, sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _ask(page: Page) -> None:
    page.goto("/rooms/")
    form = page.locator("[data-match-form]")
    form.locator("[data-find]").click()
    expect(form.locator("[data-match-status]")).to_contain_text("Waiting for a race of")


def test_a_waiting_player_can_stop_and_two_players_are_placed_in_one_race(browser, server) -> None:
    first = new_page(browser, server, viewport=DESKTOP)
    second = new_page(browser, server, viewport=PHONE, has_touch=True)
    try:
        sign_up(first, server, "quick_ada")
        sign_up(second, server, "quick_bo")

        _ask(first)
        form = first.locator("[data-match-form]")
        expect(form.locator("[data-match-status]")).to_contain_text("1 player waiting")
        form.locator("[data-match-cancel]").click()
        expect(form.locator("[data-match-status]")).to_be_hidden()
        expect(form.locator("[data-find]")).to_be_enabled()

        _ask(first)
        _ask(second)
        in_one_room([first, second], timeout=30000)
        assert not first.js_errors and not second.js_errors, (first.js_errors, second.js_errors)
    finally:
        first.context.close()
        second.context.close()
