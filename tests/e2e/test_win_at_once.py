"""The result at once: the win dialog opens within a second of the winning move's answer, over the
celebration, and a key press ends the celebration."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP, shot
from tests.e2e.helpers import api_post, card, open_play, start, winning_log

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CODE = "SD1-S1-HJSZOZN"  # a Spiderette win whose last action is a move between columns: 6:5>4

# Before the page's own scripts: when the socket's first frame of a finished game arrives, and when
# the result dialog opens, on the page's clock.
TIMING = """
(() => {
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        try {
          if (JSON.parse(event.data).finished === true && window.finishedAt === undefined) {
            window.finishedAt = performance.now();
          }
        } catch {}
      });
    }
  };
  addEventListener("DOMContentLoaded", () => {
    const dialog = document.querySelector("[data-result-dialog]");
    if (!dialog) return; // not the play page
    new MutationObserver(() => {
      if (dialog.open && window.openedAt === undefined) window.openedAt = performance.now();
    }).observe(dialog, { attributes: true });
  });
})();
"""


def test_the_win_dialog_opens_at_once_over_the_celebration_and_a_key_ends_it(browser, server) -> None:
    # Motion on: the celebration runs (the other browser tests ask for reduced motion).
    context = browser.new_context(base_url=server, viewport=DESKTOP, locale="en-US", reduced_motion="no-preference")
    page = context.new_page()
    page.set_default_timeout(8000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.add_init_script(TIMING)
        log = winning_log(CODE)
        assert log[-1] == "6:5>4"
        doc = start(page, code=CODE)
        for at, token in enumerate(log[:-1], start=1):
            api_post(page, f"/api/sessions/{doc['id']}/actions", {"action": token, "at": at})
        open_play(page, doc["id"])

        card(page, 6, 5).focus()  # the winning move, by keyboard
        page.keyboard.press("Enter")
        page.keyboard.press("4")
        dialog = page.locator("[data-result-dialog]")
        expect(dialog).to_be_visible(timeout=3000)
        expect(dialog).to_contain_text("You won!")
        expect(page.locator("canvas.celebration")).to_have_count(1)  # the dialog is over it
        waited = page.evaluate("window.openedAt - window.finishedAt")
        assert 0 <= waited < 1000, waited
        shot(page, "win-at-once-over-the-celebration")

        # A key ends the celebration; the dialog stays, and Enter pressed in stride plays none of
        # its buttons (no new game started).
        at = page.url
        page.keyboard.press("Enter")
        expect(page.locator("canvas.celebration")).to_have_count(0, timeout=1000)
        page.wait_for_timeout(300)
        expect(dialog).to_be_visible()
        assert page.url == at
    finally:
        context.close()
    assert not errors, errors
