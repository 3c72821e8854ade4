"""The table at the three screens that matter (desktop 1440x900, phone 390x844, phone held sideways
844x390): cards sized from the space the table has, every card of every column inside the window,
no page scroll (not even while dragging), the stock and removed row lined up with the columns, larger
overlapping cards on a phone held upright; the deck's options; and the animations, which run only for
players who have not asked for less motion.

Screenshots go to tests/e2e/screenshots/; with SCREENS=update the reviewed set in tests/e2e/screens/
(named page-viewport) is written again.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP, PHONE, keep, new_page
from tests.e2e.helpers import api_post, drag, open_play, start, winning_log

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LANDSCAPE = {"width": 844, "height": 390}
VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE, "landscape": LANDSCAPE}
# Three moves onto column 7 make it 24 cards long: longer than the 22 the layout must fit.
LONG_RUSSIAN = ("RU1-C-BVAGXBR", ["5:5>7", "3:4>7", "4:4>7"])

GEOMETRY = """() => {
  const box = (n) => { const r = n.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height }; };
  const all = (sel) => [...document.querySelectorAll(sel)].map(box);
  const table = document.querySelector('[data-table]');
  return {
    inner: [innerWidth, innerHeight],
    scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
    table: box(table), rail: table.classList.contains('rail'), shingle: table.classList.contains('shingle'),
    label: box(document.querySelector('.column .col-number')),
    lastCards: all('.column:last-child .card, .column:last-child .slot'),
    bar: box(document.querySelector('[data-infobar]')),
    columns: all('.column'), cards: all('.column .card, .column .slot'),
    stock: document.querySelector('[data-stock]') ? box(document.querySelector('[data-stock]')) : null,
    removed: all('[data-removed]:not([hidden]) > *'), foundations: all('.foundation'),
    card: box(document.querySelector('.column .card')),
  };
}"""


def _open(browser, server, viewport, code, tokens=(), **context):
    page = new_page(browser, server, viewport=viewport, **context)
    doc = start(page, code=code)
    for token in tokens:
        api_post(page, f"/api/sessions/{doc['id']}/actions", {"action": token})
    open_play(page, doc["id"])
    page.wait_for_timeout(150)  # the ResizeObserver's layout after the fonts settle
    return page, doc


def _drag_token(page, token: str) -> None:
    """Make the move `a:n>b` with the mouse."""
    src, dst = token.split(">")
    col, n = src.split(":")
    drag(page, page.locator(f'.column[data-col="{col}"] [data-n="{n}"]'), page.locator(f'.column[data-col="{dst}"]'))


def _assert_fits(g: dict) -> None:
    width, height = g["inner"]
    assert g["scroll"][0] <= width and g["scroll"][1] <= height, f"the page scrolls: {g['scroll']} in {g['inner']}"
    for card in g["cards"]:
        assert card["left"] >= 0 and card["right"] <= width + 0.5, card
        assert card["top"] >= 0 and card["bottom"] <= height + 0.5, f"a card runs off the window: {card}"
    for pile in g["removed"] + g["foundations"]:
        assert pile["bottom"] <= height + 0.5 and pile["right"] <= width + 0.5, pile


def _assert_aligned(g: dict) -> None:
    """The stock over the first column, each removed pile or foundation over a column (or in the rail)."""
    columns = g["columns"]
    lefts = [c["left"] for c in columns]
    if g["rail"]:
        rail = columns[-1]["right"]
        for pile in g["removed"] + g["foundations"]:
            assert pile["left"] > rail and abs(pile["width"] - g["card"]["width"]) < 1, pile
        return
    if g["stock"]:
        assert abs(g["stock"]["left"] - lefts[0]) < 1, (g["stock"], lefts[0])
        assert abs(g["stock"]["top"] - g["table"]["top"]) < 1
    # A pile is a card wide; an empty place of shingled columns (a phone held upright) a column wide.
    widths = (g["card"]["width"], columns[0]["width"])
    for pile in g["removed"] + g["foundations"]:
        assert min(abs(pile["left"] - x) for x in lefts) < 1, f"a pile not over a column: {pile['left']} {lefts}"
        assert min(abs(pile["width"] - w) for w in widths) < 1, (pile, widths)
    last = (g["removed"] or g["foundations"])[-1]
    ends = (g["lastCards"][-1]["right"], columns[-1]["right"])
    assert min(abs(last["right"] - end) for end in ends) < 1, "the top row ends where the columns end"


@pytest.mark.parametrize("screen", VIEWPORTS)
def test_spider_fills_the_screen_and_lines_up(browser, server, screen: str) -> None:
    page, _ = _open(browser, server, VIEWPORTS[screen], "SP1-S4C-AAAAAAA", ["D"], has_touch=screen != "desktop")
    try:
        g = page.evaluate(GEOMETRY)
        _assert_fits(g)
        _assert_aligned(g)
        card, table = g["card"], g["table"]
        assert abs(card["height"] / card["width"] - 1.4) < 0.03
        # Sized from the space: the ten columns take the table's width, or its height is the limit.
        used = g["columns"][-1]["right"] - g["columns"][0]["left"]
        tallest = max(c["bottom"] for c in g["columns"])
        # (A height-bound card leaves room for the top row, the columns' numbers and a 5-down, 12-up
        # column: 4.34 card heights and a line.)
        bound = card["height"] * 4.34 + g["label"]["height"]
        assert used >= 0.9 * table["width"] or bound >= 0.95 * table["height"], (used, table)
        if screen == "desktop":
            assert card["width"] >= 120  # the old layout stopped at 104 px
        elif screen == "phone":
            assert g["bar"]["bottom"] <= 100, "the in-game bar is compact on a phone"
            assert used >= 0.95 * 390 - 16
            # Larger cards than ten side by side would be (35 px): each column covers the right part of
            # the one before, and leaves the jumbo index uncovered (a ten's ends at 0.74 of the width).
            assert g["shingle"] and card["width"] >= 45, card
            pitch = g["columns"][1]["left"] - g["columns"][0]["left"]
            assert pitch >= 0.76 * card["width"], (pitch, card["width"])
            # The fans use the height: a face-up card shows at least 0.5 of a card's height of itself.
            tops = sorted(c["top"] for c in g["cards"] if c["left"] == g["columns"][0]["left"])
            assert tops[-1] - tops[-2] >= 0.5 * card["height"]
        else:
            assert card["width"] >= 55 and g["bar"]["right"] < 90, "a narrow side bar, cards from the height"
        assert tallest <= g["inner"][1]
        keep(page, f"play-spider-{screen}")
    finally:
        page.context.close()


@pytest.mark.parametrize("screen", VIEWPORTS)
def test_a_24_card_russian_column_fits_without_scrolling(browser, server, screen: str) -> None:
    code, tokens = LONG_RUSSIAN
    page, _ = _open(browser, server, VIEWPORTS[screen], code, tokens, has_touch=screen != "desktop")
    try:
        expect(page.locator('.column[data-col="7"] .card')).to_have_count(24)
        g = page.evaluate(GEOMETRY)
        _assert_fits(g)
        _assert_aligned(g)
        # Fanned tighter, yet every face-up card still shows its corner index (a fifth of a card).
        faces = page.evaluate(
            """() => [...document.querySelectorAll('.column[data-col="7"] .card.up')]
                 .map(n => n.getBoundingClientRect().top)"""
        )
        steps = [b - a for a, b in zip(faces, faces[1:])]
        assert min(steps) >= 0.17 * g["card"]["height"], steps  # 0.19 of a card, in whole pixels
        if screen == "desktop":
            assert g["card"]["width"] >= 100
        keep(page, f"play-russian-long-{screen}")
    finally:
        page.context.close()


def test_spiderette_counts_come_from_the_server(browser, server) -> None:
    page, doc = _open(browser, server, DESKTOP, "SD1-S4-AAAAAAA")
    try:
        assert doc["table"] == {
            "columns": 7,
            "deals": 4,
            "deals_left": 4,
            "sequences": 4,
            "foundations": 0,
            "home_move_cards": 0,
            "goal": "sequences",
            "goal_total": 4,
        }
        expect(page.locator("[data-removed] > *")).to_have_count(4)
        expect(page.locator("[data-stock] .card")).to_have_count(4)
        _assert_aligned(page.evaluate(GEOMETRY))
        keep(page, "play-spiderette-desktop")
    finally:
        page.context.close()


def test_no_page_scroll_while_dragging_sideways_on_a_phone(browser, server) -> None:
    page, doc = _open(browser, server, LANDSCAPE, "SP1-S4C-AAAAAAA", has_touch=True)
    try:
        col, n = next(t for t in doc["legal"] if ":" in t).split(">")[0].split(":")
        source = page.locator(f'.column[data-col="{col}"] [data-n="{n}"]')  # a group that may move
        a = source.bounding_box()
        assert a
        touch = page.context.new_cdp_session(page)
        point = {"x": a["x"] + a["width"] / 2, "y": a["y"] + 8}
        touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
        for x, y in ((point["x"] + 10, point["y"] + 20), (420, 300), (420, 389), (830, 389), (60, 389)):
            touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
            page.wait_for_timeout(30)
            assert page.evaluate("[scrollX, scrollY, document.scrollingElement.scrollTop]") == [0, 0, 0]
        expect(source).to_have_class(re.compile(r"\bdragging\b"))  # a drag, not a scroll
        touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        expect(source).not_to_have_class(re.compile(r"\bdragging\b"))
        page.wait_for_timeout(400)  # the cards slide back or on to their new place
        g = page.evaluate(GEOMETRY)
        assert g["scroll"][1] <= LANDSCAPE["height"] and page.evaluate("scrollY") == 0
    finally:
        page.context.close()


def test_four_colour_suits_and_the_card_back_are_options(page) -> None:
    doc = start(page, code="SP1-S4C-AAAAAAA")
    open_play(page, doc["id"])
    diamond = page.locator('.column .card.up[data-card$="D"] img').first
    expect(diamond).to_have_attribute("src", re.compile(r".*/cards/full-two/.D\.svg"))
    page.locator("[data-options-open]").click()
    dialog = page.locator("[data-options-dialog]")
    dialog.get_by_label("Four-colour suits").check()
    dialog.get_by_label("Red").check()
    expect(diamond).to_have_attribute("src", re.compile(r".*/cards/full-four/.D\.svg"))
    expect(page.locator("html")).to_have_attribute("data-back", "red")
    back = page.evaluate("getComputedStyle(document.querySelector('.column .card.down')).backgroundImage")
    assert "backs/red.svg" in back
    assert not dialog.get_by_label("Sounds").is_checked(), "sounds are off until a player turns them on"
    keep(page, "options-desktop")
    dialog.get_by_role("button", name="Done").click()
    page.reload()  # kept in this browser
    page.locator(".column .card.up").first.wait_for()
    club = page.locator('.column .card.up[data-card$="C"] img').first
    expect(club).to_have_attribute("src", re.compile(r".*/full-four/.*"))
    expect(page.locator("html")).to_have_attribute("data-back", "red")
    # Small cards use the jumbo-index faces.
    phone = new_page(page.context.browser, page.url.split("/play/")[0], viewport=PHONE)
    try:
        open_play(phone, start(phone, code="SP1-S4C-AAAAAAA")["id"])
        small = phone.locator(".column .card.up img").first
        expect(small).to_have_attribute("src", re.compile(r".*/cards/compact-two/.*"))
    finally:
        phone.context.close()


def test_a_sequence_flies_home_and_a_win_is_celebrated_unless_motion_is_reduced(browser, server) -> None:
    code = "SP1-S1C-QTEKPFM"
    log = winning_log(code)
    context = browser.new_context(base_url=server, viewport=DESKTOP, reduced_motion="no-preference")
    page = context.new_page()
    page.set_default_timeout(8000)
    try:
        doc = start(page, code=code)
        for token in log[:45]:  # the 46th action completes the first sequence
            api_post(page, f"/api/sessions/{doc['id']}/actions", {"action": token})
        open_play(page, doc["id"])
        _drag_token(page, log[45])
        expect(page.locator(".fly-layer .ghost")).to_have_count(13)
        expect(page.locator(".fly-layer")).to_have_count(0, timeout=3000)
        expect(page.locator(".removed-pile.up")).to_have_count(1)
        for token in log[46:-1]:
            api_post(page, f"/api/sessions/{doc['id']}/actions", {"action": token})
        page.reload()
        page.locator(".connection[data-state=open]").wait_for()
        _drag_token(page, log[-1])
        expect(page.locator("canvas.celebration")).to_have_count(1)
        page.wait_for_timeout(1200)
        keep(page, "win-celebration-desktop")
        expect(page.locator("[data-result-dialog]")).to_be_visible()  # the result at once, over the cards
        page.mouse.click(5, 890)  # a click ends the celebration; the result stays
        expect(page.locator("canvas.celebration")).to_have_count(0)
        expect(page.locator("[data-result-dialog]")).to_be_visible()
    finally:
        context.close()


def test_reduced_motion_moves_nothing(page) -> None:
    code = "SP1-S1C-QTEKPFM"
    log = winning_log(code)
    doc = start(page, code=code)
    for token in log[:45]:
        api_post(page, f"/api/sessions/{doc['id']}/actions", {"action": token})
    open_play(page, doc["id"])
    page.evaluate("""() => { window.seen = new Set();
      new MutationObserver(() => document.querySelectorAll('.moving, .fly-layer, .celebration')
        .forEach(n => window.seen.add(n.className))).observe(document.body, {subtree: true, childList: true,
        attributes: true, attributeFilter: ['class']}); }""")
    _drag_token(page, log[45])
    expect(page.locator(".removed-pile.up")).to_have_count(1)
    page.keyboard.press("Control+z")  # the sequence comes back
    expect(page.locator(".removed-pile.up")).to_have_count(0)
    assert page.evaluate("[...window.seen]") == []
