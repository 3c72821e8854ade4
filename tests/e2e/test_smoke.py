"""First look: the home page starts a game and the play page draws it."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import PHONE, new_page, shot

pytestmark = [pytest.mark.e2e, pytest.mark.embedded, pytest.mark.django_db(transaction=True)]


def test_new_spider_deal_from_home(page) -> None:
    page.goto("/")
    page.get_by_role("button", name="New deal").click()
    page.wait_for_url("**/play/*/")
    page.locator(".column").first.wait_for()
    assert page.locator(".column").count() == 10
    assert page.locator(".card.up").count() == 10
    shot(page, "play-spider-desktop")


def test_phone_spider_fits(browser, server) -> None:
    page = new_page(browser, server, viewport=PHONE, has_touch=True)
    page.goto("/")
    page.get_by_role("button", name="New deal").click()
    page.wait_for_url("**/play/*/")
    page.locator(".column").first.wait_for()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    shot(page, "play-spider-phone")
    page.goto("/")
    shot(page, "home-phone")
    page.context.close()
