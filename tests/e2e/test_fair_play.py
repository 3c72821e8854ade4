"""Fair play in the browser: a guest is offered sign-up instead of the daily, the win dialog says
whether a game was clean and where it stands on the board and its clean twin, and every board page
switches between the two."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE, new_page, shot
from tests.e2e.helpers import api_post, open_play, sign_up, start, winning_log

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CODE = "SD1-S1-HJSZOZN"  # its winning log has undos


def test_a_guest_is_offered_sign_up_for_the_dailies_and_plays_them_after(page, server) -> None:
    page.goto("/")
    dailies = page.locator("[data-dailies] li.daily")
    expect(dailies).to_have_count(7)
    offers = page.get_by_role("link", name=re.compile("^Sign up to play: "))
    expect(offers).to_have_count(7)
    expect(page.get_by_role("button", name=re.compile("^Play: "))).to_have_count(0)
    shot(page, "home-guest-dailies")
    offers.first.click()
    page.wait_for_url(re.compile(r"/account/signup/\?next=/$"))
    sign_up(page, server, "daily_fan", password="a long pass phrase 9", goto=False)
    expect(page.get_by_role("button", name=re.compile("^Play: "))).to_have_count(7)
    page.get_by_role("button", name=re.compile("^Play: Spider · 1 suit")).click()
    page.wait_for_url(re.compile(r"/play/[0-9a-f-]+/$"))
    page.locator(".column .card").first.wait_for()


def test_a_long_code_and_a_bad_one_in_the_home_pages_code_entry(page) -> None:
    page.goto("/")
    # A click before the page's script has taken the form would submit it natively (home.js lists
    # the dailies once it runs).
    expect(page.locator("[data-dailies] li.daily").first).to_be_visible()
    entry = page.locator("[data-code-form]")
    entry.get_by_label("Play a game code").fill("sd1-s1-abcdefghijklmnopqrs")  # 19 letters
    entry.get_by_role("button", name="Play this deal").click()
    expect(entry.locator(".form-error")).to_have_text(
        "The deal part is 7 or 20 letters A-Z, like AAAAAAD; 'ABCDEFGHIJKLMNOPQRS' has 19"
    )
    entry.get_by_label("Play a game code").fill(" sd1-s1-abcdefghijklmnopqrst ")
    entry.get_by_role("button", name="Play this deal").click()
    page.wait_for_url(re.compile(r"/play/[0-9a-f-]+/$"))
    expect(page.locator("[data-code]")).to_have_text("SD1-S1-ABCDEFGHIJKLMNOPQRST")
    expect(page.locator(".column")).to_have_count(7)
    shot(page, "play-long-code")
    page.set_viewport_size(PHONE)
    shot(page, "play-long-code-phone")


def test_the_win_dialog_and_the_board_page_tell_clean_games_apart(browser, server) -> None:
    page = new_page(browser, server)
    try:
        sign_up(page, server, "undoer", password="a long pass phrase 9")
        log = winning_log(CODE)
        first_undo = [token.upper() for token in log].index("U")
        won = start(page, code=CODE)
        for token in log:
            api_post(page, f"/api/sessions/{won['id']}/actions", {"action": token})
        open_play(page, won["id"], live=False)
        dialog = page.locator("[data-result-dialog]")
        expect(dialog).to_be_visible()
        expect(dialog).to_contain_text("You won!")
        expect(dialog.locator("[data-result-clean]")).to_contain_text(
            "Not a clean game: only games without an undo or a hint rank on the clean board"
        )
        expect(dialog.locator("[data-result-rank]")).to_have_text("Your rank on this deal's leaderboard: 1")
        expect(dialog.locator("[data-result-clean-board]")).to_be_visible()
        shot(page, "win-with-undos")

        clean = start(page, code=CODE)
        for token in log[:first_undo]:
            api_post(page, f"/api/sessions/{clean['id']}/actions", {"action": token})
        api_post(page, f"/api/sessions/{clean['id']}/finish", {})
        open_play(page, clean["id"], live=False)
        expect(dialog).to_be_visible()
        expect(dialog.locator("[data-result-clean]")).to_have_text(
            "A clean game: no undo, no hint. Your rank on the clean board: 1"
        )
        shot(page, "game-over-clean")

        page.goto(f"/leaderboards/code:{CODE}/")
        rows = page.locator("[data-entries] tr")
        expect(rows).to_have_count(1)
        expect(rows.first).to_contain_text("undoer ✓")
        expect(page.get_by_role("link", name="All games")).to_have_attribute("aria-current", "page")
        shot(page, "board-all-games")
        page.get_by_role("link", name="Clean games").click()
        page.wait_for_url(re.compile(r"/leaderboards/code%3A" + CODE + r"%3Aclean/$"))
        expect(page.locator("[data-board-title]")).to_contain_text("clean games")
        expect(page.get_by_role("link", name="Clean games")).to_have_attribute("aria-current", "page")
        expect(rows).to_have_count(1)
        expect(rows.first).not_to_contain_text("✓")  # the clean game was not won
        expect(rows.first.locator("td").nth(6)).to_have_text("0")  # its undos
        expect(page.locator(".connection[data-state=open]")).to_be_visible()
        shot(page, "board-clean-games")
        assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]
    finally:
        page.context.close()


@pytest.mark.parametrize(
    ("locale", "heading", "review"),
    [
        ("en-US", "Fair play", "Asking for a review"),
        ("fi-FI", "Reilu peli", "Tarkistuksen pyytäminen"),
        ("hr-HR", "Poštena igra", "Traženje ponovne provjere"),
    ],
)
def test_the_fair_play_page_is_linked_from_every_footer_in_each_language(
    browser, server, locale: str, heading: str, review: str
) -> None:
    page = new_page(browser, server, locale=locale)
    page.goto("/leaderboards/")
    page.locator("footer").get_by_role("link", name=heading).click()
    page.wait_for_url(re.compile(r"/fair-play/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text(heading)
    expect(page.get_by_role("heading", name=review)).to_be_visible()
    expect(page.get_by_role("link", name="fairplay@league.example")).to_have_attribute(
        "href", "mailto:fairplay@league.example"
    )  # FAIR_PLAY_CONTACT's default
    # What is screened is named in general terms: no line is published.
    assert not re.search(r"\d+\s*ms|\d+\s*%", page.locator("main").inner_text())
    shot(page, f"fair-play-{locale}")
    page.set_viewport_size(PHONE)
    shot(page, f"fair-play-{locale}-phone")
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]
    page.context.close()
