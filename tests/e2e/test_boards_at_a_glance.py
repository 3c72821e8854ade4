"""Boards at a glance, at a desktop and on a phone: the top three of each of today's dailies on the
home page and the leaderboards page (from the public board, so a daily's shows only what its board
shows before the day is over: no code, no replay), my own row marked; on a phone a board's rows keep
their moves and time, which set tied scores apart; and in a race my own row is marked."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP, PHONE, keep, new_page
from tests.e2e.helpers import api_post, off_the_loop, sign_up, todays_dailies_with_russian_on, winning_log

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREENS = {"desktop": DESKTOP, "phone": PHONE}
CODE = "RU1-C-MFXTMVO"  # a clean win of 99 moves among the engine's vectors


def _todays_russian_board(me: str) -> str:
    """Four results on today's Russian daily: two wins tied on score and moves, apart by time, then
    mine, then one that stays off the top three."""
    from games.models import Daily, Player
    from tests.leaderboard.factories import make_result, named

    daily = Daily.objects.get(date=dt.datetime.now(dt.UTC).date(), variant="RU1-C")
    log = winning_log(CODE)
    make_result(named("slow_winner"), CODE, log, daily=daily, elapsed_ms=120_000)
    make_result(named("fast_winner"), CODE, log, daily=daily, elapsed_ms=90_000)
    make_result(Player.objects.get(username=me), CODE, log[:60], daily=daily, elapsed_ms=300_000)
    make_result(named("fourth_one"), CODE, log[:20], daily=daily, elapsed_ms=30_000)
    assert daily.board
    return daily.board


@pytest.mark.unprepared
def test_the_top_three_of_todays_dailies_at_a_glance(browser, server) -> None:
    todays_dailies_with_russian_on(CODE)
    page = new_page(browser, server)
    try:
        sign_up(page, server, "glancer")
        board = off_the_loop(_todays_russian_board, "glancer")
        for screen, viewport in SCREENS.items():
            page.set_viewport_size(viewport)
            for path, item in (("/", "[data-dailies] li.daily"), ("/leaderboards/", "[data-boards] li.daily")):
                page.goto(path)
                podium = page.locator(f'[data-podium="{board}"]')
                rows = podium.locator("li")
                expect(rows).to_have_count(3)
                # The tied wins read apart by their time; my row is marked; the fourth is not shown.
                expect(rows.nth(0)).to_contain_text("fast_winner")
                expect(rows.nth(0)).to_contain_text(re.compile(r"655 points.*won · 99 moves · 1:30"))
                expect(rows.nth(1)).to_contain_text("slow_winner")
                expect(rows.nth(1)).to_contain_text("won · 99 moves · 2:00")
                expect(rows.nth(2)).to_contain_text("glancer")
                expect(rows.nth(2)).to_have_class("me")
                expect(podium).not_to_contain_text("fourth_one")
                for n in range(3):
                    expect(rows.nth(n).locator(".podium-facts")).to_be_visible()
                # Only what the board shows before the day is over: no code, no replay.
                expect(podium.locator("a[href^='/replay/']")).to_have_count(0)
                assert CODE not in page.locator("main").inner_text()
                # Every other daily says it has nobody yet.
                other = page.locator(item).filter(has_not=podium).first.locator(".podium")
                expect(other).to_contain_text("No verified results yet")
                name = "home" if path == "/" else "leaderboards"
                keep(page, f"{name}-top-three-{screen}")

        # On a phone a board's rows keep their moves and time (the undos give way), with no sideways scroll.
        page.set_viewport_size(PHONE)
        page.goto(f"/leaderboards/{board}/")
        rows = page.locator("[data-entries] tr")
        expect(rows).to_have_count(4)
        header = [h.strip() for h in page.locator(".board-table thead th:visible").all_inner_texts()]
        assert "Moves" in header and "Time" in header and "Undos" not in header, header
        first, second = rows.nth(0).locator("td:visible"), rows.nth(1).locator("td:visible")
        expect(first.nth(header.index("Time"))).to_have_text("1:30")
        expect(second.nth(header.index("Time"))).to_have_text("2:00")
        expect(first.nth(header.index("Moves"))).to_have_text("99")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert page.evaluate(
            "(() => { const t = document.querySelector('.table-scroll'); return t.scrollWidth <= t.clientWidth; })()"
        )
        keep(page, "leaderboard-daily-phone")
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()


def test_my_own_row_is_marked_in_a_race(browser, server) -> None:
    host = new_page(browser, server, viewport=DESKTOP)
    racer = new_page(browser, server, viewport=PHONE, has_touch=True)
    try:
        sign_up(host, server, "mark_host")
        sign_up(racer, server, "mark_racer")
        room = api_post(host, "/api/rooms", {"variant": "SD1-S1"})
        racer.goto(f"/rooms/{room['id']}/")
        racer.get_by_role("button", name="Join the race").click()
        host.goto(f"/rooms/{room['id']}/")
        for page, me, other in ((host, "mark_host", "mark_racer"), (racer, "mark_racer", "mark_host")):
            expect(page.locator("[data-room-players] tr")).to_have_count(2)
            expect(page.locator("[data-room-players] tr.me")).to_have_count(1)
            expect(page.locator("[data-room-players] tr.me")).to_contain_text(me)
            expect(page.locator("[data-room-players] tr", has_text=other)).not_to_have_class("me")
        host.get_by_role("button", name="Start the race").click()
        for page, me in ((host, "mark_host"), (racer, "mark_racer")):
            page.wait_for_url("**/play/*/")
            panel = page.locator("[data-race] .race-players")
            expect(panel.locator("li")).to_have_count(2)
            expect(panel.locator("li.me")).to_have_count(1)
            expect(panel.locator("li.me .race-name")).to_have_text(me)
            expect(panel.locator("li.me")).to_have_attribute("aria-current", "true")
        racer.locator("[data-countdown]").wait_for(state="hidden", timeout=8000)
        keep(racer, "race-me-phone")
        assert not host.js_errors and not racer.js_errors, (host.js_errors, racer.js_errors)
    finally:
        host.context.close()
        racer.context.close()
