"""Every page passes axe-core with no violation, at a desktop, a phone and a phone on its side,
with screenshots of each to look at; and a game can be played to the end from the keyboard."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.e2e import axe
from tests.e2e.conftest import DESKTOP, PHONE, keep, shot
from tests.e2e.helpers import api_post, start, winning_log

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LANDSCAPE = {"width": 844, "height": 390}
VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE, "landscape": LANDSCAPE}
# The league's pages in the reviewed set beside the tests (tests/e2e/screens, SCREENS=update).
REVIEWED = {"archive", "all-time", "leaderboard", "not-found"}


def _world(browser, server) -> tuple[dict[str, str], dict]:
    """A signed-up player with a won game, a Russian game, a race room and a past daily."""
    from games.models import Player
    from games.services import start_session
    from tests.daily_helpers import store_unsettled_dailies

    setup = browser.new_context(base_url=server, reduced_motion="reduce")
    page = setup.new_page()
    page.goto("/account/signup/")
    page.get_by_label("Name").fill("looker")
    page.get_by_label("Password").fill("a long pass phrase 8")
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(server + "/")
    code = "SD1-S1-HJSZOZN"
    won = start(page, code=code)
    for token in winning_log(code):
        api_post(page, f"/api/sessions/{won['id']}/actions", {"action": token})
    result = page.request.get(f"/api/sessions/{won['id']}").json()["result"]
    russian = start(page, code="RU1-R-JYTCUUV")
    spider = start(page, code="SP1-S2C-AAAAAAD")
    room = api_post(page, "/api/rooms", {"variant": "SD1-S2"})
    yesterday = dt.datetime.now(dt.UTC) - dt.timedelta(days=1)
    daily = store_unsettled_dailies(yesterday.date(), ["SP1-S4C"])[0]
    start_session(player=Player.objects.get(username="looker"), daily="SP1-S4C", now=yesterday)
    storage = setup.storage_state()
    setup.close()
    par_board = _published_certified_daily()
    pages = {
        "home": "/",
        "play-spider": f"/play/{spider['id']}/",
        "play-spiderette-won": f"/play/{won['id']}/",
        "play-russian": f"/play/{russian['id']}/",
        "leaderboards": "/leaderboards/",
        "leaderboard": f"/leaderboards/code:{code}/",
        "leaderboard-clean": f"/leaderboards/code:{code}:clean/",
        "archive": "/leaderboards/archive/",
        "all-time": "/leaderboards/all-time/SD1-S1/",
        "player": "/players/looker/",
        "replay": f"/replay/{result['id']}/?step=20",
        "leaderboard-par": f"/leaderboards/{par_board}/",
        "replay-par-line": f"/replay/par/{par_board}/?step=20",
        "rooms": "/rooms/",
        "room": f"/rooms/{room['id']}/",
        "signup": "/account/signup/",
        "signin": "/account/signin/",
        "rules-spider": "/rules/spider/",
        "rules-spiderette": "/rules/spiderette/",
        "rules-russian": "/rules/russian/",
        "not-found": "/play/7d0ab7b6-3f5e-4d32-8a55-0b1f5d7c2f11/",
    }
    assert daily.board
    return pages, storage


def _published_certified_daily() -> str:
    """A past Russian daily prepared by the real solver (its par beside the board, its line to watch)."""
    from django.test import override_settings

    from games.dailies.preparation import prepare_daily

    with override_settings(DAILY_SECRET="test-daily-secret", DAILY_SOLVER_BUDGET_SECONDS=5.0, DAILY_CANDIDATE_CAP=40):
        daily = prepare_daily(dt.date(2020, 3, 2), "RU1-C")
    assert daily is not None and daily.certified
    return daily.board


def test_no_axe_violation_on_any_page_at_any_size(browser, server) -> None:
    axe.require_axe()
    pages, storage = _world(browser, server)
    found: dict[str, list] = {}
    for size, viewport in VIEWPORTS.items():
        context = browser.new_context(
            base_url=server, viewport=viewport, storage_state=storage, reduced_motion="reduce", bypass_csp=True
        )
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error, errors=errors: errors.append(str(error)))
        for name, path in pages.items():
            page.goto(path)
            page.wait_for_load_state("networkidle")
            if name.startswith("play-"):
                page.locator(".column").first.wait_for()
                dialog = page.locator("[data-result-dialog][open]")
                if dialog.count():
                    problems = axe.violations(page)
                    if problems:
                        found[f"{name}-dialog@{size}"] = problems
                    shot(page, f"{name}-dialog-{size}")
                    dialog.get_by_role("button", name="Close").click()
            problems = axe.violations(page)
            if problems:
                found[f"{name}@{size}"] = problems
            if name == "play-spider":  # the play page's own dialogs, open
                for opener, dialog in (
                    ("[data-new]", "[data-new-dialog]"),
                    ("[data-options-open]", "[data-options-dialog]"),
                ):
                    page.locator(opener).click()
                    page.locator(f"{dialog}[open]").wait_for()
                    problems = axe.violations(page)
                    if problems:
                        found[f"{name}{dialog}@{size}"] = problems
                    page.keyboard.press("Escape")
                    page.locator(f"{dialog}[open]").wait_for(state="detached")
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= viewport["width"] + 1, (name, size, width)
            (keep if name in REVIEWED and size != "landscape" else shot)(page, f"{name}-{size}")
        assert not errors, errors
        context.close()
    assert not found, "\n".join(f"{where}: {v}" for where, problems in found.items() for v in problems)


def test_no_axe_violation_where_a_guest_is_asked_to_sign_up(browser, server) -> None:
    """A guest's home page offers sign-up in place of each daily's Play button."""
    axe.require_axe()
    found: dict[str, list] = {}
    for size, viewport in VIEWPORTS.items():
        context = browser.new_context(base_url=server, viewport=viewport, reduced_motion="reduce", bypass_csp=True)
        page = context.new_page()
        page.goto("/")
        page.locator("[data-dailies] a", has_text="Sign up to play").first.wait_for()
        problems = axe.violations(page)
        if problems:
            found[f"home-guest@{size}"] = problems
        shot(page, f"home-guest-{size}")
        context.close()
    assert not found, "\n".join(f"{where}: {v}" for where, problems in found.items() for v in problems)
