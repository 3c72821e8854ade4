"""A hint and a play-out in the browser, at a desktop and on a phone held upright: Hint marks the cards
the server names and the place they go, says why in words and is counted on the game; in a daily's
ranked attempt the button says why it gives none. Once every card is face up and the stock is empty,
Finish plays the game out and the result dialog opens. The reviewed screenshots show each."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.engine import Game
from tests.e2e.conftest import DESKTOP, PHONE, keep, new_page
from tests.e2e.helpers import api_get, api_post, open_play, sign_up, start, winning_log

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREENS = {"desktop": DESKTOP, "phone": PHONE}
LANDSCAPE = {"width": 844, "height": 390}  # a phone held sideways


def _press(page, locator, touch: bool, *, force: bool = False) -> None:
    """A tap or a click; `force`: on a button marked aria-disabled, which a person can still press."""
    if touch:
        locator.tap(force=force)
    else:
        locator.click(force=force)


@pytest.mark.parametrize("screen", SCREENS)
def test_a_hint_marks_the_cards_and_their_place_says_why_and_is_counted(browser, server, screen: str) -> None:
    touch = screen == "phone"
    page = new_page(browser, server, viewport=SCREENS[screen], has_touch=touch)
    try:
        code = "SP1-S4C-AAAAAAA"
        hint = Game.from_code(code).hint()
        assert hint is not None and hint.reason == "turns_card"
        source, count, target = str(hint.action).replace(":", " ").replace(">", " ").split()
        doc = start(page, code=code)
        open_play(page, doc["id"])
        button = page.locator("[data-hint]")
        expect(button).to_have_attribute("aria-disabled", "false")

        _press(page, button, touch)
        rule = page.locator("[data-rule]")
        expect(rule).to_be_visible()
        expect(rule).to_contain_text(f"column {source} to column {target}: that turns a face-down card")
        marked = page.locator(f'.column[data-col="{source}"] .card.hinted')
        expect(marked).to_have_count(int(count))
        expect(page.locator(".column.target")).to_have_count(1)
        expect(page.locator(f'.column[data-col="{target}"].target')).to_have_count(1)
        keep(page, f"hint-{screen}")
        assert api_get(page, f"/api/sessions/{doc['id']}")["hints"] == 1
        assert int(page.locator("[data-moves]").inner_text()) == 0  # nothing was played

        # Playing it clears the marks; H asks again (at a keyboard).
        api_post(page, f"/api/sessions/{doc['id']}/actions", {"action": str(hint.action), "at": 1})
        page.reload()
        page.locator(".connection[data-state=open]").wait_for()
        expect(page.locator(".card.hinted")).to_have_count(0)
        if not touch:
            page.keyboard.press("h")
            expect(page.locator(".card.hinted, .stock.hinted")).not_to_have_count(0)
            assert api_get(page, f"/api/sessions/{doc['id']}")["hints"] == 2  # answered: it was counted
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()


@pytest.mark.parametrize("screen", SCREENS)
def test_the_hint_button_of_a_daily_attempt_says_why_it_gives_none(browser, server, screen: str) -> None:
    touch = screen == "phone"
    page = new_page(browser, server, viewport=SCREENS[screen], has_touch=touch)
    try:
        sign_up(page, server, f"loyal_{screen}")
        doc = start(page, daily="SD1-S1")
        assert doc["ranked"] and doc["hint_refusal"]
        open_play(page, doc["id"])
        button = page.locator("[data-hint]")
        expect(button).to_have_attribute("aria-disabled", "true")
        expect(button).to_have_attribute("title", doc["hint_refusal"])
        _press(page, button, touch, force=True)
        expect(page.locator("[data-rule]")).to_have_text(doc["hint_refusal"])
        expect(page.locator(".card.hinted")).to_have_count(0)
        keep(page, f"hint-refused-daily-{screen}")
        assert api_get(page, f"/api/sessions/{doc['id']}")["hints"] == 0
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()


def _open_prefix(code: str) -> list[str]:
    """The winning log up to the first position with every card face up and the stock empty."""
    game = Game.from_code(code)
    played: list[str] = []
    for token in winning_log(code):
        if game.nothing_hidden:
            return played
        game.apply(token)
        played.append(token)
    raise AssertionError("the log wins before every card is face up")


def _inside_the_window(page, locator) -> bool:
    box = locator.bounding_box()
    size = page.viewport_size
    assert box and size
    return (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"]
        and (box["y"] + box["height"] <= size["height"])
    )


@pytest.mark.parametrize("screen", [*SCREENS, "landscape"])
def test_finish_plays_a_game_with_nothing_hidden_out_to_its_win(browser, server, screen: str) -> None:
    touch = screen != "desktop"
    page = new_page(browser, server, viewport={**SCREENS, "landscape": LANDSCAPE}[screen], has_touch=touch)
    try:
        code = "SD1-S1-HJSZOZN"
        doc = start(page, code=code)
        prefix = _open_prefix(code)
        open_play(page, doc["id"])
        finish = page.locator("[data-play-out]")
        expect(finish).to_be_hidden()  # cards are hidden yet
        for at, token in enumerate(prefix, start=1):
            api_post(page, f"/api/sessions/{doc['id']}/actions", {"action": token, "at": at})
        expect(finish).to_be_visible()  # the socket pushed the game as it is now
        assert _inside_the_window(page, finish) and _inside_the_window(page, page.locator("[data-finish]"))
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")  # nothing pushed off the side
        keep(page, f"finish-offered-{screen}")

        _press(page, finish, touch)
        dialog = page.locator("[data-result-dialog]")
        expect(dialog).to_be_visible()
        expect(dialog).to_contain_text("You won!")
        keep(page, f"finish-won-{screen}")
        after = api_get(page, f"/api/sessions/{doc['id']}")
        assert after["finished"] and after["result"]["won"] and after["actions"] > len(prefix)
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()
