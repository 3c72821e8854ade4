"""Certified dailies in the browser: today's list says which dailies are certified winnable (in
English, Finnish and Croatian); a published daily's board shows its par with how many players beat
or matched it, and the solver's winning line plays in the replay viewer (docs/dailies.md)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE, keep, new_page
from tests.e2e.helpers import off_the_loop

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PAST = dt.date(2020, 3, 2)  # under the test secret its first Russian candidates cannot be won


@pytest.fixture
def solver_settings(settings):  # type: ignore[no-untyped-def]
    settings.DAILY_SECRET = "test-daily-secret"
    settings.DAILY_SOLVER_BUDGET_SECONDS = 5.0
    settings.DAILY_CANDIDATE_CAP = 400  # Russian Classic: most deals lost, each settled in a blink


@pytest.mark.unprepared
def test_todays_list_says_which_dailies_are_certified_winnable(browser, server, solver_settings) -> None:
    from games.dailies.preparation import prepare_daily
    from games.engine import DAILY_VARIANTS
    from games.models import Daily
    from tests.daily_helpers import store_unsettled_dailies

    today = dt.datetime.now(dt.UTC).date()
    assert not Daily.objects.filter(date=today, variant="RU1-C").exists()
    daily = prepare_daily(today, "RU1-C")  # the real solver, on today's chain
    assert daily is not None and daily.certified
    store_unsettled_dailies(today, [v for v in DAILY_VARIANTS if v != "RU1-C"])
    for locale, label in (
        ("en-US", "Certified winnable"),
        ("fi-FI", "Varmasti voitettavissa"),
        ("hr-HR", "Potvrđeno rješivo"),
    ):
        page = new_page(browser, server, locale=locale)
        page.goto("/")
        items = page.locator("[data-dailies] li.daily")
        expect(items).to_have_count(7)
        certified = page.locator("[data-dailies] .daily-certified")
        expect(certified).to_have_count(1)  # the solver settled none of the others' candidates
        expect(certified).to_have_text(label)
        expect(items.last.locator(".daily-certified")).to_have_count(1)  # Russian Solitaire, last in the list
        if locale == "en-US":
            keep(page, "home-certified-desktop")
            page.set_viewport_size(PHONE)
            keep(page, "home-certified-phone")
        assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]
        page.context.close()


def test_a_published_daily_shows_its_par_and_plays_the_solvers_line(browser, server, solver_settings) -> None:
    from games.dailies.preparation import prepare_daily
    from tests.leaderboard.factories import make_result, named

    daily = prepare_daily(PAST, "RU1-C")
    assert daily is not None and daily.certified and daily.par is not None
    line = daily.par_line.split()
    off_the_loop(make_result, named("matcher"), daily.stored_code.code, line, daily=daily)
    off_the_loop(make_result, named("quick"), daily.stored_code.code, line, daily=daily, moves=daily.par - 2)
    off_the_loop(make_result, named("steady"), daily.stored_code.code, line, daily=daily, moves=daily.par + 7)
    page = new_page(browser, server)
    page.goto(f"/leaderboards/{daily.board}/")
    par = page.locator("[data-par]")
    expect(par).to_contain_text(f"Par: {daily.par} moves")
    expect(par).to_contain_text("1 beat par, 1 matched it")
    expect(page.locator("[data-entries] tr")).to_have_count(3)
    keep(page, "leaderboard-par-desktop")
    page.set_viewport_size(PHONE)
    keep(page, "leaderboard-par-phone")
    page.set_viewport_size({"width": 1440, "height": 900})
    par.get_by_role("link", name="Watch the solver's line").click()
    page.wait_for_url(re.compile(r"/replay/par/daily(:|%3A)2020-03-02(:|%3A)RU1-C/$"))
    expect(page.locator("[data-replay-title]")).to_have_text(re.compile(r"^Par line: Russian Solitaire · Classic"))
    expect(page.locator("[data-replay-facts]")).to_contain_text(f"Par {daily.par}")
    expect(page.locator("[data-step]")).to_have_text(f"Step 0 of {len(line)}")
    page.get_by_role("button", name="Last").click()
    expect(page.locator("[data-step]")).to_have_text(f"Step {len(line)} of {len(line)}")
    expect(page.locator("[data-moves]")).to_have_text(str(daily.par))
    page.wait_for_load_state("networkidle")
    keep(page, "replay-par-line-desktop")
    page.goto(f"/replay/par/{daily.board}/?step=30")
    page.set_viewport_size(PHONE)
    expect(page.locator("[data-step]")).to_have_text(f"Step 30 of {len(line)}")
    page.wait_for_load_state("networkidle")  # the card faces
    keep(page, "replay-par-line-phone")
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]
    page.context.close()


@pytest.mark.unprepared
def test_before_publication_the_board_says_when_the_par_is_shown(browser, server, solver_settings) -> None:
    from games.dailies.preparation import prepare_daily

    today = dt.datetime.now(dt.UTC).date()
    daily = prepare_daily(today, "RU1-C")
    assert daily is not None and daily.certified
    page = new_page(browser, server)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(f"/leaderboards/{daily.board}/")
    expect(page.locator("[data-par-text]")).to_have_text("The par is revealed at 01:00 UTC, when the day is over.")
    expect(page.locator("[data-par-watch]")).to_be_hidden()
    page.wait_for_load_state("networkidle")
    assert not [url for url in asked if "/par" in url]  # nothing asked that cannot be answered yet
    page.goto(f"/replay/par/{daily.board}/")
    expect(page.locator("[data-replay-facts]")).to_have_text(
        "A daily's par and the solver's line are shown once its day is over."
    )
    assert daily.stored_code.code not in page.content()
    page.context.close()
