"""The pages work under the Content Security Policy: nothing on them is blocked (the page fixture
fails a test on any "Content Security Policy" report), sockets included."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_pages_run_with_nothing_blocked(page) -> None:
    for path in ("/", "/leaderboards/", "/rooms/", "/account/signup/", "/account/signin/", "/rules/spider/"):
        page.goto(path)
        page.wait_for_load_state("networkidle")
    page.goto("/")
    page.get_by_role("button", name="New deal").click()
    page.wait_for_url("**/play/*/")
    page.locator(".column").first.wait_for()
    page.wait_for_load_state("networkidle")
    page.goto("/api/docs/")
    page.locator(".swagger-ui").first.wait_for()
