"""A replay that plays itself, at a desktop and on a phone: Play steps through the game at the chosen
speed and Pause stops it; the address names the step shown, a link with ?step=N opens the replay at
that step, and the share button copies that link."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP, PHONE, keep, new_page
from tests.e2e.helpers import api_post, sign_up, start, winning_log

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREENS = {"desktop": DESKTOP, "phone": PHONE}
CODE = "SD1-S1-HJSZOZN"
STEP = re.compile(r"^Step (\d+) of (\d+)$")


def _step(page) -> int:
    m = STEP.match(page.locator("[data-step]").inner_text())
    assert m, page.locator("[data-step]").inner_text()
    return int(m[1])


@pytest.mark.parametrize("screen", SCREENS)
def test_the_replay_plays_pauses_and_links_to_a_step(browser, server, screen: str) -> None:
    page = new_page(browser, server, viewport=SCREENS[screen], has_touch=screen == "phone")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    try:
        sign_up(page, server, f"watcher_{screen}")
        won = start(page, code=CODE)
        log = winning_log(CODE)
        for token in log:
            api_post(page, f"/api/sessions/{won['id']}/actions", {"action": token})
        result = page.request.get(f"/api/sessions/{won['id']}").json()["result"]

        # A link to a step opens the replay there.
        page.goto(f"/replay/{result['id']}/?step=5")
        expect(page.locator("[data-step]")).to_have_text(f"Step 5 of {len(log)}")
        play = page.locator("[data-play-pause]")
        expect(play).to_have_text(re.compile("Play"))

        # Play: it steps by itself; faster at 4×; Pause stops it where it is.
        play.click()
        expect(play).to_have_text(re.compile("Pause"))
        expect(play).to_have_attribute("aria-pressed", "true")
        expect(page.locator("[data-step]")).not_to_have_text(f"Step 5 of {len(log)}", timeout=3000)
        page.locator("[data-speed]").select_option("4")
        before = _step(page)
        page.wait_for_timeout(1500)
        assert _step(page) >= before + 4, "4× plays a step in well under a third of a second"
        keep(page, f"replay-playing-{screen}")
        play.click()
        expect(play).to_have_text(re.compile("Play"))
        stopped = _step(page)
        page.wait_for_timeout(800)
        assert _step(page) == stopped
        # The address follows the step shown.
        assert page.url.endswith(f"?step={stopped}"), page.url

        # A step by hand; then the share button copies the link to it.
        page.get_by_role("button", name="Step back").click()
        expect(page.locator("[data-step]")).to_have_text(f"Step {stopped - 1} of {len(log)}")
        page.locator("[data-share-step]").click()
        expect(page.locator("[data-share-status]")).to_have_text(f"Link to step {stopped - 1} copied.")
        copied = page.evaluate("navigator.clipboard.readText()")
        assert copied == f"{server}/replay/{result['id']}/?step={stopped - 1}", copied

        other = new_page(browser, server, viewport=SCREENS[screen])
        try:
            other.goto(copied)
            expect(other.locator("[data-step]")).to_have_text(f"Step {stopped - 1} of {len(log)}")
            expect(other.locator("[data-token]")).to_have_text(f"Action: {log[stopped - 2]}")
        finally:
            other.context.close()

        # Played to the end, it stops there; Play again starts from the deal.
        page.locator("[data-last]").click()
        expect(page.locator("[data-step]")).to_have_text(f"Step {len(log)} of {len(log)}")
        play.click()
        expect(page.locator("[data-step]")).to_have_text(re.compile(r"^Step [0-9] of "))
        play.click()
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()


def test_pause_drops_the_step_on_its_way(browser, server) -> None:
    """Pause pressed while the next step is being fetched: that step is not shown when it arrives,
    so the replay stops at the step the player paused on (a slow server once moved it on by one)."""
    page = new_page(browser, server, viewport=DESKTOP)
    try:
        sign_up(page, server, "pauser")
        won = start(page, code=CODE)
        for token in winning_log(CODE):
            api_post(page, f"/api/sessions/{won['id']}/actions", {"action": token})
        result = page.request.get(f"/api/sessions/{won['id']}").json()["result"]
        page.goto(f"/replay/{result['id']}/?step=5")
        expect(page.locator("[data-step]")).to_have_text(re.compile("^Step 5 of"))

        held = []  # the next step's request, held until after the pause
        page.route(re.compile(r"[?&]step=6\b"), lambda route: held.append(route))
        play = page.locator("[data-play-pause]")
        play.click()
        for _ in range(50):
            if held:
                break
            page.wait_for_timeout(100)
        assert held, "Play asked for the next step"
        play.click()
        expect(play).to_have_text(re.compile("Play"))
        held[0].continue_()
        page.wait_for_timeout(800)
        assert _step(page) == 5 and page.url.endswith("?step=5"), page.url
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()
