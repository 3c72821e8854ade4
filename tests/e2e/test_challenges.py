"""A challenge in the browser: sent from the invitee's player page, it appears live on the page the
invitee has open, and accepting takes both players to the race."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP, PHONE, new_page
from tests.e2e.helpers import in_one_room, sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_challenge_appears_live_and_accepting_takes_both_to_the_race(browser, server) -> None:
    challenger = new_page(browser, server, viewport=DESKTOP)
    invitee = new_page(browser, server, viewport=PHONE, has_touch=True)
    try:
        sign_up(challenger, server, "chal_ada")
        sign_up(invitee, server, "chal_bo")
        invitee.goto("/leaderboards/")  # any page: the player's own socket is on every one
        challenger.goto("/players/chal_bo/")
        challenger.locator("[data-challenge-link]").click()
        challenger.wait_for_url("**/rooms/?challenge=chal_bo*")
        expect(challenger.locator("#challenge-name")).to_have_value("chal_bo")
        challenger.locator("[data-challenge]").click()
        expect(challenger.locator(".toast")).to_contain_text("Challenge sent to chal_bo")

        invitation = invitee.locator(".invitation")
        expect(invitation).to_contain_text("chal_ada challenges you to a rated race")
        invitation.locator("[data-accept]").click()

        in_one_room([challenger, invitee], timeout=15000)
        assert not challenger.js_errors and not invitee.js_errors, (challenger.js_errors, invitee.js_errors)
    finally:
        challenger.context.close()
        invitee.context.close()
