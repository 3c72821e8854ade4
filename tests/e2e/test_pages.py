"""Every page in the browser at phone and desktop widths (screenshots to look at), the
interface in Finnish and Croatian from the browser's language, and the options dialog."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP, PHONE, new_page, shot
from tests.e2e.helpers import api_post, start, winning_log

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_every_page_at_both_widths(browser, server) -> None:
    setup = new_page(browser, server)
    setup.goto("/account/signup/")
    setup.get_by_label("Name").fill("shooter")
    setup.get_by_label("Password").fill("a long pass phrase 8")
    setup.get_by_role("button", name="Sign up").click()
    setup.wait_for_url(server + "/")
    code = "SD1-S1-HJSZOZN"
    doc = start(setup, code=code)
    for token in winning_log(code):
        api_post(setup, f"/api/sessions/{doc['id']}/actions", {"action": token})
    result = setup.request.get(f"/api/sessions/{doc['id']}").json()["result"]
    russian = start(setup, code="RU1-R-JYTCUUV")
    room = api_post(setup, "/api/rooms", {"variant": "SD1-S2"})
    storage = setup.context.storage_state()
    setup.context.close()

    pages = {
        "home": "/",
        "play-spiderette": f"/play/{doc['id']}/",
        "play-russian": f"/play/{russian['id']}/",
        "leaderboards": "/leaderboards/",
        "leaderboard": f"/leaderboards/code:{code}/",
        "player": "/players/shooter/",
        "replay": f"/replay/{result['id']}/?step=20",
        "rooms": "/rooms/",
        "room": f"/rooms/{room['id']}/",
        "signup": "/account/signup/",
        "rules-russian": "/rules/russian/",
    }
    for width_name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        context = browser.new_context(
            base_url=server, viewport=viewport, storage_state=storage, reduced_motion="reduce"
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
                    shot(page, f"{name}-won-{width_name}")
                    dialog.get_by_role("button", name="Close").click()
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"] + 1, (name, width_name)
            shot(page, f"{name}-{width_name}")
        assert not errors, errors
        context.close()


def test_finnish_and_croatian_interface(browser, server) -> None:
    page = new_page(browser, server, locale="fi-FI")
    page.goto("/")
    expect(page.get_by_role("button", name="Uusi jako")).to_be_visible()
    expect(page.locator(".picker-suits")).to_contain_text("Keskitaso")
    # The server draws the picker; a click before the page's script has taken the form would
    # submit it natively (home.js lists the dailies once it runs).
    expect(page.locator("[data-dailies] li.daily").first).to_be_visible()
    page.get_by_role("button", name="Uusi jako").click()
    page.wait_for_url("**/play/*/")
    expect(page.locator("[data-undo]")).to_contain_text("Kumoa")
    expect(page.locator(".column .card.up").first).to_have_accessible_name(re.compile("pata"))
    shot(page, "play-finnish-desktop")
    page.locator("select[data-autosubmit]").select_option("hr")
    page.wait_for_load_state("load")
    expect(page.locator("[data-undo]")).to_contain_text("Poništi")
    expect(page.locator("[data-stock]")).to_have_accessible_name(re.compile("Podijeli"))
    page.context.close()


def test_options_are_kept_with_the_seeds_defaults(page) -> None:
    doc = start(page, variant="SP1-S2R")
    page.goto(f"/play/{doc['id']}/")
    page.get_by_role("button", name="Options").click()
    dialog = page.locator("[data-options-dialog]")
    expect(dialog.locator("input[name=doubleClick]")).to_be_checked()
    expect(dialog.locator("input[name=placementAid]")).to_be_checked()
    expect(dialog.locator("input[name=autoPlacement]")).not_to_be_checked()
    dialog.locator("input[name=autoPlacement]").check()
    dialog.get_by_role("button", name="Done").click()
    page.reload()
    page.get_by_role("button", name="Options").click()
    expect(dialog.locator("input[name=autoPlacement]")).to_be_checked()
    dialog.get_by_role("button", name="Done").click()
    # The new-game dialog offers the suit and rule options for the variant in play.
    page.get_by_role("button", name="New game").click()
    new = page.locator("[data-new-dialog]")
    expect(new.locator("input[name=suits][value='2']")).to_be_checked()
    expect(new.locator("input[name=rules][value='R']")).to_be_checked()
    new.locator("input[name=game][value='RU1']").check()
    expect(new.locator(".picker-suits")).to_be_hidden()
    expect(new.locator("[data-variant-out]")).to_have_text("RU1-R")
    shot(page, "new-game-dialog-desktop")
