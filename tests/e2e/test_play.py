"""Real games through the UI, refereed by the server: drag, double-click, deal, undo, a refused
move with its rule, a Russian card sent home by a tap, a finished game with its verified result
and rank, and a second browser that sees the leaderboard change live."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE, new_page, shot
from tests.e2e.helpers import api_get, api_post, card, drag, moves_shown, open_play, start, winning_log

pytestmark = [pytest.mark.e2e, pytest.mark.embedded, pytest.mark.django_db(transaction=True)]

MOVE = re.compile(r"^(\d+):(\d+)>(\d+)$")


def _first_move(doc: dict) -> tuple[int, int, int]:
    for token in doc["legal"]:
        m = MOVE.match(token)
        if m:
            return int(m[1]), int(m[2]), int(m[3])
    raise AssertionError(f"no tableau move in {doc['legal']}")


def test_spider_drag_undo_double_click_deal_and_refusal(page) -> None:
    doc = start(page, code="SP1-S1C-QTEKPFM")
    open_play(page, doc["id"])
    expect(page.locator("[data-code]")).to_have_text("SP1-S1C-QTEKPFM")
    expect(page.locator(".column")).to_have_count(10)

    # Drag: the placement aid lights the legal targets while dragging.
    a, n, b = _first_move(doc)
    drag(page, card(page, a, n), page.locator(f'.column[data-col="{b}"]'))
    expect(page.locator("[data-moves]")).to_have_text("1")
    expect(page.locator("[data-score]")).to_have_text("499")
    after = api_get(page, f"/api/sessions/{doc['id']}")
    assert after["view"]["moves"] == 1

    # Ctrl+Z undoes.
    page.keyboard.press("Control+z")
    expect(page.locator("[data-moves]")).to_have_text("0")

    # Double-click sends the group to the server's best place.
    key, token = next(iter(doc["best"].items()))
    col, count = (int(x) for x in key.split(":"))
    card(page, col, count).dblclick()
    expect(page.locator("[data-moves]")).to_have_text("1")
    now = api_get(page, f"/api/sessions/{doc['id']}")
    assert now["view"]["moves"] == 1

    # A single click does nothing in Spider.
    key2 = next(iter(now["best"]))
    col2, count2 = (int(x) for x in key2.split(":"))
    card(page, col2, count2).click()
    page.wait_for_timeout(450)
    assert moves_shown(page) == 1

    # A refused move shows the rule in words.
    now = api_get(page, f"/api/sessions/{doc['id']}")
    a, n, _ = _first_move(now)
    bad = next(
        t for t in range(1, 11) if t != a and f"{a}:{n}>{t}" not in now["legal"] and now["view"]["columns"][t - 1]["up"]
    )
    drag(page, card(page, a, n), page.locator(f'.column[data-col="{bad}"]'))
    expect(page.locator("[data-rule]")).to_be_visible()
    expect(page.locator("[data-rule]")).to_contain_text("doesn't fit")
    assert moves_shown(page) == 1

    # Deal from the stock: 5 deals, one gone.
    stock = page.locator("[data-stock]")
    expect(stock).to_have_accessible_name(re.compile("5 deals left"))
    stock.click()
    expect(page.locator("[data-moves]")).to_have_text("2")
    expect(stock).to_have_accessible_name(re.compile("4 deals left"))
    assert api_get(page, f"/api/sessions/{doc['id']}")["view"]["stock"] == 40
    shot(page, "play-spider-after-deal-desktop")


def test_spiderette_keyboard_and_http_fallback(page) -> None:
    doc = start(page, code="SD1-S1-HJSZOZN")
    # The play socket is refused: every action must go over HTTP instead.
    page.route_web_socket(re.compile(r".*/ws/play/.*"), lambda ws: ws.close())
    open_play(page, doc["id"], live=False)
    expect(page.locator(".column")).to_have_count(7)
    # Keyboard: focus the group's card, Enter picks it up, the number key puts it down.
    a, n, b = _first_move(doc)
    card(page, a, n).focus()
    page.keyboard.press("Enter")
    expect(page.locator(f'.column[data-col="{b}"].target')).to_have_count(1)
    page.keyboard.press(str(b % 10))
    expect(page.locator("[data-moves]")).to_have_text("1")
    page.locator("[data-undo]").click()
    expect(page.locator("[data-moves]")).to_have_text("0")
    page.keyboard.press("d")
    expect(page.locator("[data-moves]")).to_have_text("1")
    expect(page.locator("[data-stock]")).to_have_accessible_name(re.compile("3 deals left"))


def test_russian_tap_home_win_and_live_leaderboard(browser, server) -> None:
    code = "RU1-C-MFXTMVO"
    log = winning_log(code)
    player = new_page(browser, server, viewport=PHONE, has_touch=True)
    watcher = new_page(browser, server)
    try:
        # Sign up through the form: guests appear on no board.
        player.goto("/account/signup/")
        player.get_by_label("Name").fill("racer_one")
        player.get_by_label("Password").fill("a long pass phrase 7")
        player.get_by_role("button", name="Sign up").click()
        player.wait_for_url(server + "/")
        expect(player.locator(".account .who")).to_have_text("racer_one")

        doc = start(player, code=code)
        for token in log[:-2]:
            api_post(player, f"/api/sessions/{doc['id']}/actions", {"action": token})
        open_play(player, doc["id"])
        expect(player.locator(".foundation")).to_have_count(4)
        shot(player, "play-russian-phone")

        watcher.goto(f"/leaderboards/code:{code}/")
        expect(watcher.locator(".connection[data-state=open]")).to_be_visible()
        expect(watcher.locator("[data-entries]")).to_contain_text("No verified results yet")

        # Single taps on a column's last card send it home (the log ends with two such moves).
        for last, token in ((False, log[-2]), (True, log[-1])):
            col = int(token.split(">")[0])
            before = moves_shown(player)
            player.locator(f'.column[data-col="{col}"] .card.up').last.tap()
            if not last:
                expect(player.locator("[data-moves]")).to_have_text(str(before + 1))
                player.wait_for_timeout(400)  # two taps closer than this are a double tap
        dialog = player.locator("[data-result-dialog]")
        expect(dialog).to_be_visible(timeout=15000)
        expect(dialog).to_contain_text("You won!")
        expect(dialog.locator("[data-result-facts]")).to_contain_text("655")
        expect(dialog.locator("[data-result-board]")).to_be_visible()
        shot(player, "win-russian-phone")

        # The watcher's board changed live.
        expect(watcher.locator("[data-entries]")).to_contain_text("racer_one")
        expect(watcher.locator("[data-entries] tr").first).to_contain_text("655")
        shot(watcher, "leaderboard-live-desktop")
    finally:
        player.context.close()
        watcher.context.close()
