"""A daily finished in the browser, and what the player sees of it after: the recap in the result
dialog and on the home page (the ranks, the par's hour, the countdown to the next dailies, the streak
calendar, a Share text with no card and no code), the games to continue on the home page, and the
daily list while a daily is being prepared."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest
from playwright.sync_api import expect

from tests.e2e import axe
from tests.e2e.conftest import PHONE, keep, new_page
from tests.e2e.helpers import api_post, off_the_loop, sign_up, start, todays_dailies_with_russian_on, winning_log

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CODE = "RU1-C-MFXTMVO"  # a clean winning log of 99 moves among the engine's vectors
CARD = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])[SHDC](?![A-Za-z0-9])|[♠♥♦♣]")


def _past_days(name: str) -> tuple[int, int]:
    """The player joined three weeks ago and played Russian Classic dailies on some days since:
    (days won, days played without a win) before today."""
    from django.utils import timezone

    from games.models import Player
    from tests.leaderboard.factories import daily_of, make_result

    player = Player.objects.get(username=name)
    player.date_joined = timezone.now() - dt.timedelta(days=21)
    player.save(update_fields=["date_joined"])
    today = dt.datetime.now(dt.UTC).date()
    log = winning_log(CODE)
    won, lost = (1, 2, 3, 9), (5, 12)
    for back in won + lost:
        daily = daily_of(today - dt.timedelta(days=back), "RU1-C", CODE)
        make_result(player, CODE, log if back in won else log[:30], daily=daily)
    return len(won), len(lost)


def _watch_failures(page) -> list[str]:
    """Every answer of 400 or more and every console error the page meets."""
    seen: list[str] = []
    page.on("response", lambda r: seen.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.on("console", lambda m: seen.append(f"console: {m.text}") if m.type == "error" else None)
    return seen


def _check_share_text(text: str, code: str) -> None:
    assert "Russian Solitaire" in text and "Won in 99 moves" in text, text
    assert "Rank 1" in text and "clean" in text, text
    assert "/leaderboards/daily%3A" in text and "RU1-C" in text, text
    assert code not in text and code.rsplit("-", 1)[1] not in text, text
    assert not CARD.search(text), f"a card is named in {text!r}"


@pytest.mark.unprepared
def test_a_finished_daily_is_recapped_on_the_play_page_and_the_home_page(browser, server) -> None:
    from games.engine import Game

    todays_dailies_with_russian_on(CODE)
    page = new_page(browser, server, has_touch=True)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    failures = _watch_failures(page)
    try:
        sign_up(page, server, "recapper", password="a long pass phrase 4")
        won_before, lost_before = off_the_loop(_past_days, "recapper")
        free = start(page, code="SP1-S2C-AAAAAAD")
        api_post(page, f"/api/sessions/{free['id']}/actions", {"action": "D"})

        log = winning_log(CODE)
        daily = start(page, daily="RU1-C")
        assert daily["ranked"] and daily["code"] is None
        for token in log[:-1]:
            api_post(page, f"/api/sessions/{daily['id']}/actions", {"action": token})
        page.goto(f"/play/{daily['id']}/")
        page.locator(".connection[data-state=open]").wait_for()
        col = int(log[-1].split(">")[0])
        page.locator(f'.column[data-col="{col}"] .card.up').last.tap()  # the last card goes home: a win

        dialog = page.locator("[data-result-dialog]")
        expect(dialog).to_be_visible(timeout=15000)
        expect(dialog).to_contain_text("You won!")
        recap = dialog.locator("[data-recap]")
        expect(recap).to_be_visible()
        expect(recap.locator("[data-recap-par]")).to_have_text("The par is revealed at 01:00 UTC.")
        countdown = recap.locator("[data-next-dailies]")
        expect(countdown).to_have_text(re.compile(r"^Next dailies in \d{1,2}:\d\d:\d\d$"))
        first = countdown.inner_text()
        expect(countdown).not_to_have_text(first, timeout=3000)  # it counts down by itself
        left = [int(n) for n in countdown.inner_text().rsplit(" ", 1)[1].split(":")]
        now = dt.datetime.now(dt.UTC)
        midnight = dt.datetime.combine(now.date() + dt.timedelta(days=1), dt.time(0), tzinfo=dt.UTC)
        assert abs(left[0] * 3600 + left[1] * 60 + left[2] - (midnight - now).total_seconds()) < 5
        calendar = recap.locator("svg.streak-calendar")
        expect(calendar.locator("[data-status=won]")).to_have_count(won_before + 1)  # today's win too
        expect(calendar.locator("[data-status=played]")).to_have_count(lost_before)
        expect(recap.locator(".streak figcaption")).to_have_text("Streak: 4 days · best 4 days")
        keep(page, "daily-recap-dialog-desktop")
        page.set_viewport_size(PHONE)
        keep(page, "daily-recap-dialog-phone")

        recap.get_by_role("button", name="Share").click()
        expect(recap.locator(".share-status")).to_have_text("Copied: paste it wherever you like.")
        shared = page.evaluate("navigator.clipboard.readText()")
        _check_share_text(shared, CODE)
        cards = {card for column in Game.from_code(CODE).state()["columns"] for card in column["down"] + column["up"]}
        assert not any(re.search(rf"(?<![A-Za-z0-9]){card}(?![A-Za-z0-9])", shared) for card in cards)
        # Where there is no clipboard, the same text is shown, selected, to copy by hand.
        page.evaluate("Object.defineProperty(navigator, 'clipboard', { value: undefined })")
        recap.get_by_role("button", name="Share").click()
        fallback = recap.locator("textarea.share-text")
        expect(fallback).to_be_visible()
        assert fallback.input_value() == shared
        expect(recap.locator(".share-status")).to_have_text("Copy this text to share it:")

        # The home page: the recap under the finished daily, the countdown, the game to continue.
        page.set_viewport_size({"width": 1440, "height": 900})
        page.goto("/")
        item = page.locator('[data-dailies] li.daily[data-variant="RU1-C"]')
        summary = item.locator(".daily-recap summary")
        expect(summary).to_have_text(re.compile(r"^Your recap: Won in 99 moves, \d+:\d\d$"))
        summary.click()
        body = item.locator(".recap")
        expect(body.locator("[data-recap-rank]")).to_have_text("Rank 1 on the daily's leaderboard")
        expect(body.locator("[data-recap-clean]")).to_have_text("A clean game: rank 1 on the clean board")
        expect(body.locator("[data-recap-par]")).to_have_text("The par is revealed at 01:00 UTC.")
        expect(body.locator("svg.streak-calendar [data-status=won]")).to_have_count(won_before + 1)
        expect(page.locator("[data-next-dailies-slot] [data-next-dailies]")).to_have_text(
            re.compile(r"^Next dailies in \d{1,2}:\d\d:\d\d$")
        )
        assert CODE not in page.content()
        go_on = page.locator("[data-continue] [data-continue-list] a")
        expect(go_on).to_have_count(1)  # the free game; the daily is finished
        expect(go_on).to_contain_text("Spider · 2 suits")
        expect(go_on).to_contain_text("SP1-S2C-AAAAAAD · 1 move · started")
        keep(page, "home-recap-desktop")
        page.set_viewport_size(PHONE)
        keep(page, "home-recap-phone")
        go_on.click()
        page.wait_for_url(f"**/play/{free['id']}/")
        page.locator(".column .card").first.wait_for()
        expect(page.locator("[data-moves]")).to_have_text("1")
        assert not failures, failures
        assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]
        _no_axe_violation(browser, server, page.context.storage_state(), daily["id"])
    finally:
        page.context.close()


def _no_axe_violation(browser, server: str, storage: dict, session_id: str) -> None:
    """The result dialog with its recap, and the home page with a recap open, pass axe-core."""
    axe.require_axe()
    context = browser.new_context(base_url=server, storage_state=storage, bypass_csp=True, reduced_motion="reduce")
    page = context.new_page()
    try:
        page.goto(f"/play/{session_id}/")
        expect(page.locator("[data-result-dialog] [data-recap] .streak")).to_be_visible()
        assert not axe.violations(page), axe.violations(page)
        page.goto("/")
        page.locator(".daily-recap summary").click()
        expect(page.locator(".daily-recap .streak")).to_be_visible()
        assert not axe.violations(page), axe.violations(page)
    finally:
        context.close()


@pytest.mark.unprepared
def test_an_unfinished_daily_is_offered_to_continue_without_its_code(page, server) -> None:
    todays_dailies_with_russian_on(CODE)
    failures = _watch_failures(page)
    sign_up(page, server, "leaver", password="a long pass phrase 5")
    daily = start(page, daily="SD1-S2")
    page.goto("/")
    go_on = page.locator("[data-continue] [data-continue-list] a")
    expect(go_on).to_have_count(1)
    expect(go_on).to_contain_text("Today's daily · 0 moves")
    expect(go_on).to_have_attribute("href", f"/play/{daily['id']}/")
    expect(page.locator("[data-dailies] li.daily.finished")).to_have_count(0)
    expect(page.locator(".daily-recap")).to_have_count(0)
    assert not failures, failures


# The daily list as the contract of issue 39 has it (status, certification, Retry-After), answered
# by the browser's own route: the page side, whatever the server in this branch says.
def _answer(dailies: list[dict]) -> dict:
    today = dt.datetime.now(dt.UTC).date().isoformat()
    return {"date": today, "dailies": dailies}


def _entry(variant: str, **fields: object) -> dict:
    today = dt.datetime.now(dt.UTC).date().isoformat()
    entry = {
        "variant": variant,
        "board": f"daily:{today}:{variant}",
        "status": "ready",
        "played": False,
        "finished": False,
        "session": None,
        "code": None,
        "certified": False,
        "certification": "certified",
        "par": None,
    }
    entry.update(fields)
    return entry


def test_the_list_says_being_prepared_and_asks_again_by_itself(page) -> None:
    from games.engine import DAILY_VARIANTS

    asked: list[int] = []

    def answer(route) -> None:  # type: ignore[no-untyped-def]
        asked.append(1)
        if len(asked) == 1:
            entries = [_entry(v, status="preparing", certification=None, certified=None) for v in DAILY_VARIANTS[:2]]
            entries += [_entry(v) for v in DAILY_VARIANTS[2:]]
            route.fulfill(
                status=200,
                headers={"Retry-After": "1"},
                content_type="application/json",
                body=json.dumps(_answer(entries)),
            )
        else:
            route.fulfill(
                status=200,
                content_type="application/json",
                body=json.dumps(_answer([_entry(v) for v in DAILY_VARIANTS])),
            )

    page.route("**/api/daily", answer)
    page.goto("/")
    preparing = page.locator("[data-dailies] li.daily.preparing")
    expect(preparing).to_have_count(2)
    expect(preparing.first.locator(".daily-state")).to_have_text("Being prepared…")
    expect(preparing.first.get_by_role("button")).to_be_disabled()
    expect(preparing.locator(".daily-certified")).to_have_count(0)
    expect(preparing.get_by_role("link", name="Leaderboard")).to_have_count(0)  # no board before the daily
    keep(page, "home-daily-preparing-desktop")
    # No reload: the page asks again after Retry-After and draws the list in place.
    page.evaluate("window.stayed = true")
    expect(preparing).to_have_count(0, timeout=5000)
    expect(page.locator("[data-dailies] .daily-certified")).to_have_count(7)
    assert page.evaluate("window.stayed") is True and len(asked) == 2
    page.wait_for_timeout(1500)
    assert len(asked) == 2  # all ready: no more asking


@pytest.mark.parametrize(
    "locale, words",
    [
        (
            "en-US",
            (
                "Certified winnable",
                "Not certified: the solver found no win within its limits",
                "Not certified: prepared before certification",
            ),
        ),
        (
            "fi-FI",
            (
                "Varmasti voitettavissa",
                "Ei varmennettu: ratkaisija ei löytänyt voittoa rajoissaan",
                "Ei varmennettu: valmisteltu ennen varmentamista",
            ),
        ),
        (
            "hr-HR",
            (
                "Potvrđeno rješivo",
                "Nije potvrđeno: rješavač nije našao pobjedu u svojim granicama",
                "Nije potvrđeno: pripremljeno prije potvrđivanja",
            ),
        ),
    ],
)
def test_what_the_list_says_of_certification_is_what_the_server_says(browser, server, locale, words) -> None:
    from games.engine import DAILY_VARIANTS

    page = new_page(browser, server, locale=locale)
    certifications = ["certified", "none_won", "unchecked", "certified", "certified", "certified", "certified"]
    entries = [_entry(v, certification=c) for v, c in zip(DAILY_VARIANTS, certifications, strict=True)]
    page.route(
        "**/api/daily",
        lambda route: route.fulfill(status=200, content_type="application/json", body=json.dumps(_answer(entries))),
    )
    page.goto("/")
    items = page.locator("[data-dailies] li.daily")
    expect(items).to_have_count(7)
    expect(items.nth(0).locator(".daily-certified")).to_have_text(words[0])
    expect(items.nth(1).locator(".daily-uncertified")).to_have_text(words[1])
    expect(items.nth(2).locator(".daily-uncertified")).to_have_text(words[2])
    expect(page.locator("[data-dailies] .daily-certified")).to_have_count(5)
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]
    page.context.close()


@pytest.mark.unprepared
def test_a_daily_being_prepared_on_the_server_is_shown_so_until_it_is_stored(page, server) -> None:
    """The server's own answer: today's Russian Classic not stored yet is being prepared, and the
    list shows it ready by itself once the preparer has stored it."""
    from games.engine import DAILY_VARIANTS
    from tests.daily_helpers import store_unsettled_dailies

    today = dt.datetime.now(dt.UTC).date()
    store_unsettled_dailies(today, DAILY_VARIANTS[:-1])
    page.goto("/")
    preparing = page.locator("[data-dailies] li.daily.preparing")
    expect(preparing).to_have_count(1)
    expect(preparing.locator(".daily-state")).to_have_text("Being prepared…")
    expect(preparing.get_by_role("button", name=re.compile("^Play: "))).to_be_disabled()
    store_unsettled_dailies(today, DAILY_VARIANTS[-1:])
    expect(preparing).to_have_count(0, timeout=40_000)
    russian = page.locator('[data-dailies] li.daily[data-variant="RU1-C"]')
    expect(russian.get_by_role("link", name=re.compile("^Sign up to play: "))).to_be_visible()  # a guest's offer
    words = "Not certified: the solver found no win within its limits"  # candidate 0 tried, not won
    expect(russian.locator(".daily-uncertified")).to_have_text(words)
