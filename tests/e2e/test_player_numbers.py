"""A player page has the numbers players compare, per variant, at a desktop and on a phone: games,
wins, the win rate drawn as a bar beside its number, the wins' average moves and time, the winning
streak and the best; in Finnish, its words and dates in the language's own form."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.engine import replay
from tests.e2e.conftest import DESKTOP, PHONE, keep, new_page
from tests.e2e.helpers import api_post, sign_up, start, winning_log

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREENS = {"desktop": DESKTOP, "phone": PHONE}
CODE = "RU1-C-MFXTMVO"
ISO_DAY = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
WORDS = {
    "en-US": ("Win rate", "Average moves to win", "Average time to win", "Best winning streak"),
    "fi": ("Voittoprosentti", "Keskimäärin siirtoja voittoon", "Keskimääräinen voittoaika", "Pisin voittoputki"),
}


def _value(card, term: str):
    return card.locator("dt", has_text=re.compile(f"^{term}$")).locator("xpath=following-sibling::dd[1]")


@pytest.mark.parametrize(("screen", "locale"), [("desktop", "en-US"), ("phone", "en-US"), ("phone", "fi")])
def test_a_player_page_shows_the_wins_averages_and_streaks(browser, server, screen: str, locale: str) -> None:
    page = new_page(browser, server, viewport=SCREENS[screen], locale=locale)
    try:
        name = f"numbers_{screen}_{locale[:2]}"
        sign_up(page, server, name)
        log = winning_log(CODE)
        for _ in range(2):  # two wins in a row, then a game given up
            won = start(page, code=CODE)
            for at, token in enumerate(log, start=1):
                api_post(page, f"/api/sessions/{won['id']}/actions", {"action": token, "at": at})
        lost = start(page, code=CODE)
        api_post(page, f"/api/sessions/{lost['id']}/finish", {})
        page.goto(f"/players/{name}/")
        card = page.locator(".stat-card").first
        rate, moves, time, best = WORDS[locale]
        expect(_value(card, rate)).to_have_text(re.compile(r"^67\s?%$"))
        expect(_value(card, rate).locator("meter")).to_have_attribute("value", re.compile(r"^0\.66"))
        played = replay(CODE, log).game
        assert played is not None
        expect(_value(card, moves)).to_have_text(str(played.moves))  # both wins took as many moves
        expect(_value(card, time)).to_have_text(re.compile(r"^\d+:\d\d$"))
        expect(_value(card, best)).to_have_text("2")
        assert not ISO_DAY.search(page.locator("main").inner_text())
        if locale == "fi":  # a date as Finnish writes it: 6.12.2026
            expect(page.locator("[data-results] tr").first.locator("td").first).to_have_text(
                re.compile(r"^\d{1,2}\.\d{1,2}\.\d{4}")
            )
        keep(page, f"player-numbers-{locale[:2]}-{screen}")
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()
