"""Feedback and races in the browser: the rule of a group that cannot be picked up, from the
server in the player's language, without moving the table; an illegal drop snaps back; a page of
something missing stops; a race's countdown, the others' progress, the final table and its labels."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP, PHONE, keep, new_page, shot
from tests.e2e.helpers import api_get, api_post, card, drag, moves_shown, open_play, sign_up, start

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MIXED_FI = (
    "Klassisessa Hämähäkissä ryhmän on oltava samaa maata: kortti ruutu kuningatar on kortin pata kuningas päällä"
)


def test_a_group_that_cannot_be_lifted_says_the_rule_in_finnish_and_nothing_moves(browser, server) -> None:
    page = new_page(browser, server, locale="fi-FI")
    try:
        doc = start(page, code="SP1-S4C-AAAAAAA")
        api_post(page, f"/api/sessions/{doc['id']}/actions", {"action": "10:1>8"})
        open_play(page, doc["id"])
        table_top = page.locator("[data-tableau]").bounding_box()["y"]
        drag(page, card(page, 8, 2), page.locator('.column[data-col="1"]'))
        rule = page.locator("[data-rule]")
        expect(rule).to_have_text(MIXED_FI)
        assert page.locator("[data-tableau]").bounding_box()["y"] == table_top  # the banner floats
        assert moves_shown(page) == 1
        keep(page, "refusal-mixed-suits-finnish-desktop")

        # An illegal drop of a group that may move snaps back, and the server says why.
        now = api_get(page, f"/api/sessions/{doc['id']}")
        source = next(int(t.split(":")[0]) for t in now["legal"] if re.match(r"^\d+:1>\d+$", t))
        bad = next(
            c
            for c in range(1, 11)
            if c != source and f"{source}:1>{c}" not in now["legal"] and now["view"]["columns"][c - 1]["up"]
        )
        moving = card(page, source, 1)
        home = moving.bounding_box()
        drag(page, moving, page.locator(f'.column[data-col="{bad}"]'))
        expect(rule).to_contain_text("ei sovi")
        page.wait_for_timeout(400)
        back = moving.bounding_box()
        assert abs(back["x"] - home["x"]) < 2 and abs(back["y"] - home["y"]) < 2
        assert moves_shown(page) == 1
        assert len(api_get(page, f"/api/sessions/{doc['id']}")["legal"]) == len(now["legal"])
    finally:
        page.context.close()


def test_pages_of_missing_things_stop_instead_of_reconnecting(browser, server) -> None:
    page = new_page(browser, server)
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    try:
        response = page.goto("/play/7d0ab7b6-3f5e-4d32-8a55-0b1f5d7c2f11/")
        assert response is not None and response.status == 404
        expect(page.locator("h1")).to_have_text("There is no such game")
        page.wait_for_timeout(1500)
        assert sockets == []
        shot(page, "not-found-game-desktop")
        # A board whose day has not come: the page opens, the socket is refused for good, and stops.
        page.goto("/leaderboards/daily:2099-01-01:SP1-S4C/")
        expect(page.locator("[data-connection]")).to_have_text("Not available")
        page.wait_for_timeout(2500)
        assert len(sockets) == 1, sockets
        favicon = page.request.get("/favicon.ico")
        assert favicon.ok and "svg" in favicon.headers["content-type"]
    finally:
        page.context.close()


def test_a_race_counts_down_shows_the_others_and_ends_with_the_final_table(browser, server) -> None:
    host = new_page(browser, server, viewport=DESKTOP)
    racer = new_page(browser, server, viewport=PHONE, has_touch=True)
    try:
        sign_up(host, server, "race_host")
        sign_up(racer, server, "race_guest")
        room = api_post(host, "/api/rooms", {"variant": "SD1-S1"})
        racer.goto(f"/rooms/{room['id']}/")
        racer.get_by_role("button", name="Join the race").click()
        expect(racer.locator("[data-room-players] tr")).to_have_count(2)
        host.goto(f"/rooms/{room['id']}/")
        host.get_by_role("button", name="Start the race").click()

        # Both go to their game; until the go the cards are face down.
        for page in (host, racer):
            page.wait_for_url("**/play/*/")
            expect(page.locator("[data-countdown]")).to_be_visible()
        assert host.locator(".column .card.up").count() == 0
        keep(host, "race-countdown-desktop")
        expect(host.locator("[data-countdown]")).to_be_hidden(timeout=8000)
        expect(host.locator(".column .card.up").first).to_be_visible()
        expect(host.locator("[data-code]")).to_have_text("Race — shown when the race is over")
        restart = host.locator("[data-restart]")
        expect(restart).to_have_attribute("title", "The race's code is shown when the race is over")
        expect(host.locator("[data-race] .race-players li")).to_have_count(2)
        # The time left until the race's limit ticks beside its title (30 minutes from the go), on a phone too.
        for page in (host, racer):
            expect(page.locator("[data-race-title] .race-clock")).to_have_text(re.compile(r"^(29|30):\d\d left$"))
            expect(page.locator("[data-race-title] .race-clock")).to_be_visible()
        expect(host.locator("[data-race-room]")).to_have_attribute("href", f"/rooms/{room['id']}/")

        # The racer plays: the host sees it live beside the table.
        session = racer.url.rstrip("/").split("/")[-1]
        racer.locator("[data-countdown]").wait_for(state="hidden", timeout=8000)
        dealt = api_post(racer, f"/api/sessions/{session}/actions", {"action": "D"})
        expect(host.locator("[data-race]")).to_contain_text("1 move")
        keep(racer, "race-playing-phone")
        # A hidden race's deal cannot be taken back (it would hide the dealt row again: docs/rules.md);
        # after it every column shows two cards, so a lone card moves without turning one.
        assert "U" not in dealt["legal"]
        quiet = next(token for token in dealt["legal"] if re.fullmatch(r"\d+:1>\d+", token))
        api_post(racer, f"/api/sessions/{session}/actions", {"action": quiet})
        expect(host.locator("[data-race]")).to_contain_text("2 moves")
        # ... and takes it back: the others see the undo counted (a game with one ranks on no clean board).
        api_post(racer, f"/api/sessions/{session}/actions", {"action": "U"})
        racer_row = host.locator("[data-race] .race-players li", has_text="race_guest")
        expect(racer_row.locator(".race-undos")).to_have_text("1 undo")
        expect(racer_row.locator(".race-moves")).to_have_text("1 move")

        # The host gives up first: their result waits for the race to end to join the board.
        host.locator("[data-finish]").click()
        host.locator("[data-finish]").click()
        dialog = host.locator("[data-result-dialog]")
        expect(dialog).to_contain_text("joins this deal's leaderboard when the race is over")
        expect(dialog).not_to_contain_text("Guests")
        expect(dialog.locator("[data-result-room]")).to_be_visible()
        dialog.get_by_role("button", name="Close").click()

        api_post(racer, f"/api/sessions/{session}/finish", {})
        expect(host.locator("[data-race-title]")).to_have_text("Final table")
        expect(host.locator("[data-race] a[href^='/replay/']")).to_have_count(2)
        expect(racer_row.locator(".race-undos")).to_have_text("1 undo")  # the verified result's count
        host_row = host.locator("[data-race] .race-players li", has_text="race_host")
        expect(host_row.locator(".race-undos")).to_have_text("0 undos")
        keep(host, "race-final-table-desktop")
        racer.reload()
        expect(racer.locator("[data-race-title]")).to_have_text("Final table")
        keep(racer, "race-final-table-phone")
    finally:
        host.context.close()
        racer.context.close()


def test_keyboard_alone_asks_why_and_plays_russian_to_a_foundation_and_back(browser, server) -> None:
    from games.engine import Game
    from tests.e2e.helpers import winning_log

    code = "RU1-C-MFXTMVO"
    log = winning_log(code)
    game = Game.from_code(code)
    played = 0  # the first position of the log where a foundation card may come back
    backs: list[str] = []
    while not backs:
        game.apply(log[played])
        played += 1
        backs = [str(a) for a in game.legal_actions() if str(a).startswith("F")]
    page = new_page(browser, server, locale="hr")
    try:
        doc = start(page, code=code)
        for token in log[:played]:
            api_post(page, f"/api/sessions/{doc['id']}/actions", {"action": token})
        open_play(page, doc["id"])
        before = moves_shown(page)
        suit, target = backs[0][1], int(backs[0].split(">")[1])
        page.locator(f'[data-foundation="{suit}"]').focus()
        page.keyboard.press("Enter")  # picks the foundation's top card up: its columns light up
        expect(page.locator(f'.column[data-col="{target}"].target')).to_have_count(1)
        page.keyboard.press(str(target % 10))
        expect(page.locator("[data-moves]")).to_have_text(str(before + 1))
        card(page, target, 1).focus()
        page.keyboard.press("Enter")
        page.keyboard.press("f")  # and home again
        expect(page.locator("[data-moves]")).to_have_text(str(before + 2))
        # A group the rules do not let go anywhere: Enter says why, in Croatian, from the server.
        now = api_get(page, f"/api/sessions/{doc['id']}")
        stuck = next(
            (c, len(col["up"]))
            for c, col in enumerate(now["view"]["columns"], 1)
            if len(col["up"]) > 1 and not any(t.startswith(f"{c}:{len(col['up'])}>") for t in now["legal"])
        )
        card(page, *stuck).focus()
        page.keyboard.press("Enter")
        expect(page.locator("[data-rule]")).to_be_visible()
        assert moves_shown(page) == before + 2
    finally:
        page.context.close()


def test_a_mistyped_code_is_refused_in_finnish(browser, server) -> None:
    page = new_page(browser, server, locale="fi-FI")
    try:
        page.goto("/")
        page.locator("#code-input").fill("SP1-S1R-AAAAAAA")
        page.locator("[data-code-form] button[type=submit]").click()
        expect(page.locator("[data-code-form] .form-error")).to_have_text(
            "Yhdellä maalla Hämähäkissä on vain Klassinen sääntö (C): kirjoita SP1-S1C"
        )
        expect(page.locator("[data-dailies] .daily").first).to_be_visible()
        keep(page, "code-error-finnish-desktop")
    finally:
        page.context.close()
