"""A rematch in the browser: when a race is over, one racer's tap opens a new race on a hidden deal,
the other racer's table offers to join it live, and their tap takes them there too."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import new_page
from tests.e2e.helpers import api_get, api_post, post_after_the_go, sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _finish_race(host, rival) -> str:
    room = api_post(host, "/api/rooms", {"variant": "SD1-S1"})
    api_post(rival, f"/api/rooms/{room['id']}/join", {})
    api_post(host, f"/api/rooms/{room['id']}/start", {})
    for page in (host, rival):
        post_after_the_go(page, api_get(page, f"/api/rooms/{room['id']}")["you"]["session"], "finish")
    assert api_get(host, f"/api/rooms/{room['id']}")["state"] == "finished"
    return str(room["id"])


def test_a_rematch_is_one_tap_each_and_the_other_racer_sees_it_live(browser, server) -> None:
    host, rival = new_page(browser, server), new_page(browser, server)
    try:
        sign_up(host, server, "rem_ada")
        sign_up(rival, server, "rem_bo")
        room = _finish_race(host, rival)
        for page in (host, rival):
            page.goto(f"/rooms/{room}/")
            expect(page.locator("[data-rematch]")).to_have_text("Rematch")

        host.locator("[data-rematch]").click()
        host.wait_for_url(re.compile(rf"/rooms/(?!{room})[0-9a-f-]{{36}}/$"))
        # The other racer's table changes live: the rematch is open and names who is in it.
        expect(rival.locator("[data-rematch]")).to_have_text("Join the rematch")
        expect(rival.locator("[data-rematch-players]")).to_contain_text("rem_ada")

        rival.locator("[data-rematch]").click()
        rival.wait_for_url(host.url)
        expect(rival.locator("[data-room-players] tr")).to_have_count(2)
        assert not host.js_errors and not rival.js_errors, (host.js_errors, rival.js_errors)
    finally:
        host.context.close()
        rival.context.close()
