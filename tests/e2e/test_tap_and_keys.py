"""Picking cards up and putting them down without a drag, in all three games, at a desktop and on a
phone held upright: a tap (a click) picks a group up, marked on the table, and a tap on a column
sends the move as an action token, which the server judges; a second tap on the group, or one
elsewhere, lets go. The keyboard does the same: the columns are numbered on screen, one Tab stop
after "Skip to the cards", the arrow keys go between and along them, Enter or Space picks up and
puts down. The reviewed screenshots show a picked-up group on a phone and at a desktop."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP, PHONE, keep, new_page
from tests.e2e.helpers import api_get, card, moves_shown, open_play, start

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MOVE = re.compile(r"^(\d+):(\d+)>(\d+)$")
SCREENS = {"desktop": DESKTOP, "phone": PHONE}
GAMES = {"spider": "SP1-S4C-AAAAAAA", "spiderette": "SD1-S4-AAAAAAA", "russian": "RU1-C-BVAGXBR"}


def _pickable(doc: dict) -> tuple[int, int, int]:
    """A legal move a:n>b whose group a tap picks up (in Russian a tap on a last card that may go
    home sends it there instead)."""
    for token in doc["legal"]:
        m = MOVE.match(token)
        if m and not (int(m[2]) == doc["table"]["home_move_cards"] and doc["tap"].get(m[1])):
            return int(m[1]), int(m[2]), int(m[3])
    raise AssertionError(f"no move to pick up in {doc['legal']}")


def _refused_target(doc: dict, a: int, n: int) -> int:
    """A column with cards that the group a:n may not go to now."""
    return next(
        b
        for b in range(1, doc["table"]["columns"] + 1)
        if b != a and f"{a}:{n}>{b}" not in doc["legal"] and doc["view"]["columns"][b - 1]["up"]
    )


def _press(page, locator, touch: bool) -> None:
    """A tap (a click) near the top of `locator`: a card's uncovered part."""
    page.wait_for_timeout(360)  # two presses closer than this are a double tap
    if touch:
        locator.tap(position={"x": 8, "y": 6})
    else:
        locator.click(position={"x": 8, "y": 6})


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("screen", SCREENS)
def test_tap_a_group_then_a_column(browser, server, screen: str, game: str) -> None:
    touch = screen == "phone"
    page = new_page(browser, server, viewport=SCREENS[screen], has_touch=touch)
    try:
        doc = start(page, code=GAMES[game])
        open_play(page, doc["id"])
        a, n, b = _pickable(doc)
        group = card(page, a, n)

        # A tap picks the group up: its cards are marked and the server's targets lit.
        _press(page, group, touch)
        expect(page.locator(".card.selected")).to_have_count(n)
        expect(page.locator(f'.column[data-col="{b}"].target')).to_have_count(1)
        if game == "spider":
            keep(page, f"tap-selected-{screen}")
        # A second tap on it lets go; so does a tap outside the table.
        _press(page, group, touch)
        expect(page.locator(".card.selected")).to_have_count(0)
        expect(page.locator(".column.target")).to_have_count(0)
        _press(page, group, touch)
        expect(page.locator(".card.selected")).to_have_count(n)
        _press(page, page.locator("[data-infobar] .stats"), touch)
        expect(page.locator(".card.selected")).to_have_count(0)

        # A column the group may not go to: the move is sent, the server refuses it and says why.
        bad = _refused_target(doc, a, n)
        _press(page, group, touch)
        _press(page, page.locator(f'.column[data-col="{bad}"] .card.up').last, touch)
        expect(page.locator("[data-rule]")).to_be_visible()
        expect(page.locator(".card.selected")).to_have_count(0)
        assert moves_shown(page) == 0

        # A legal one is played (a tap on the column's place, under its cards, counts too).
        _press(page, group, touch)
        target = page.locator(f'.column[data-col="{b}"]').bounding_box()
        assert target
        x, y = target["x"] + target["width"] / 2, target["y"] + target["height"] + 4
        if touch:
            page.wait_for_timeout(360)
            page.touchscreen.tap(x, y)
        else:
            page.mouse.click(x, y)
        expect(page.locator("[data-moves]")).to_have_text("1")
        after = api_get(page, f"/api/sessions/{doc['id']}")
        assert after["actions"] == 1 and after["view"]["moves"] == 1
        assert len(after["view"]["columns"][b - 1]["up"]) == len(doc["view"]["columns"][b - 1]["up"]) + n
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()


@pytest.mark.parametrize("screen", SCREENS)
def test_the_keyboard_reaches_the_cards_at_once_and_moves_between_columns(browser, server, screen: str) -> None:
    page = new_page(browser, server, viewport=SCREENS[screen])
    try:
        doc = start(page, code="SP1-S4C-AAAAAAA")
        open_play(page, doc["id"])
        # The columns are numbered on screen.
        numbers = page.locator(".column .col-number")
        expect(numbers).to_have_text([str(i) for i in range(1, 11)])
        for i in (0, 9):
            expect(numbers.nth(i)).to_be_visible()

        # The first Tab stop leads to the cards.
        page.keyboard.press("Tab")
        expect(page.locator(":focus")).to_have_text("Skip to the cards")
        page.keyboard.press("Enter")
        focused = page.locator(".column .card.up:focus")
        expect(focused).to_have_count(1)
        expect(focused).to_have_attribute("data-col", "1")
        # The columns are one Tab stop: the next one is past the table.
        stops = page.evaluate("document.querySelectorAll('.column [tabindex=\"0\"]').length")
        assert stops == 1
        page.keyboard.press("Tab")
        assert page.evaluate("!document.activeElement.closest('.column')")
        page.keyboard.press("Shift+Tab")
        expect(focused).to_have_attribute("data-col", "1")

        # Arrows: along the row of columns, and Home and End; up and down a column's face-up cards.
        page.keyboard.press("ArrowRight")
        expect(focused).to_have_attribute("data-col", "2")
        page.keyboard.press("End")
        expect(focused).to_have_attribute("data-col", "10")
        page.keyboard.press("ArrowRight")  # no further
        expect(focused).to_have_attribute("data-col", "10")
        page.keyboard.press("Home")
        expect(focused).to_have_attribute("data-col", "1")

        # Enter picks a group up, arrows lead to its target, Enter there sends the move.
        a, n, b = _pickable(doc)
        for _ in range(a - 1):
            page.keyboard.press("ArrowRight")
        for _ in range(n - 1):
            page.keyboard.press("ArrowUp")
        expect(focused).to_have_attribute("data-col", str(a))
        expect(focused).to_have_attribute("data-n", str(n))
        page.keyboard.press("Enter")
        expect(page.locator(".card.selected")).to_have_count(n)
        for _ in range(abs(b - a)):
            page.keyboard.press("ArrowRight" if b > a else "ArrowLeft")
        expect(focused).to_have_attribute("data-col", str(b))
        page.keyboard.press(" ")
        expect(page.locator("[data-moves]")).to_have_text("1")
        # The focus stays on the table, on the column it was on: Ctrl+Z takes the move back.
        expect(page.locator(".column .card.up:focus, .column .slot:focus")).to_have_count(1)
        page.keyboard.press("Control+z")
        expect(page.locator("[data-moves]")).to_have_text("0")
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()
