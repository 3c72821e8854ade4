"""Helpers for the browser tests: start sessions and send tokens through the page's own API."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

VECTORS = Path(__file__).resolve().parents[1] / "engine" / "vectors" / "replays.json"


def winning_log(code: str) -> list[str]:
    for case in json.loads(VECTORS.read_text())["cases"]:
        if case["code"] == code and case["expect"]["state"] and case["expect"]["state"]["won"]:
            return list(case["moves"])
    raise LookupError(code)


def sign_up(page, server: str, name: str, *, password: str = "a long pass phrase 7", goto: bool = True) -> None:
    """Sign up through the form (on the sign-up page already if not `goto`), in English or Finnish."""
    if goto:
        page.goto("/account/signup/")
    page.get_by_label(re.compile("Name|Nimi")).fill(name)
    page.get_by_label(re.compile("Password|Salasana")).fill(password)
    page.locator("form[data-auth] button[type=submit]").click()
    page.wait_for_url(server + "/")


def csrf(page) -> str:
    for cookie in page.context.cookies():
        if cookie["name"] == "csrftoken":
            return cookie["value"]
    page.goto("/rules/spider/")
    return csrf(page)


def api_post(page, path: str, body: dict) -> dict:
    response = page.request.post(path, data=body, headers={"X-CSRFToken": csrf(page), "Referer": page.url or "/"})
    assert response.ok, (response.status, response.text())
    return response.json()


def api_get(page, path: str) -> dict:
    response = page.request.get(path)
    assert response.ok, (response.status, response.text())
    return response.json()


def post_after_the_go(page, session: str, path: str, body: dict | None = None) -> None:
    """POST to a race game's `path` (actions, finish) once its countdown is over: before the go it is refused."""
    deadline = time.monotonic() + 15
    while True:
        response = page.request.post(
            f"/api/sessions/{session}/{path}", data=body or {}, headers={"X-CSRFToken": csrf(page), "Referer": page.url}
        )
        if response.ok or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert response.ok, response.text()


def in_one_room(pages: list, *, timeout: float) -> None:
    """Each page taken to a race room within `timeout` ms, the same room, with all of them in it."""
    from playwright.sync_api import expect

    for page in pages:
        page.wait_for_url(re.compile(r"/rooms/[0-9a-f-]{36}/$"), timeout=timeout)
        expect(page.locator("[data-room-players] tr")).to_have_count(len(pages))
    assert len({page.url for page in pages}) == 1, [page.url for page in pages]


def start(page, **body) -> dict:
    if not page.url.startswith("http"):
        page.goto("/rules/spider/")  # any page hands out the CSRF cookie; the first game makes the guest
    return api_post(page, "/api/sessions", body)


def open_play(page, session_id: str, *, live: bool = True) -> None:
    page.goto(f"/play/{session_id}/")
    page.locator(".column .card, .column .slot").first.wait_for()
    if live:
        page.locator(".connection[data-state=open]").wait_for()


def card(page, col: int, n: int):
    """The card that starts the group of the top n cards of column col."""
    return page.locator(f'.column[data-col="{col}"] [data-n="{n}"]')


def drag(page, source, target) -> None:
    page.wait_for_timeout(250)  # let the last move's animation settle
    source.wait_for()
    target.wait_for()
    a = source.bounding_box()
    b = target.bounding_box()
    assert a and b, "the cards to drag are not on screen"
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + 8)
    page.mouse.down()
    page.mouse.move(a["x"] + a["width"] / 2 + 10, a["y"] + 20, steps=3)
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=6)
    page.mouse.up()


def moves_shown(page) -> int:
    return int(page.locator("[data-moves]").inner_text())


def todays_dailies_with_russian_on(code: str) -> None:
    """Today's dailies stored as a preparer stores them, Russian Classic's on `code` (whose winning
    log the engine's vectors hold); for a test marked `unprepared`."""
    import datetime as dt

    from games.engine import DAILY_VARIANTS, GameCode
    from games.models import DailyCandidate
    from tests.daily_helpers import store_unsettled_dailies

    today = dt.datetime.now(dt.UTC).date()
    DailyCandidate.objects.create(
        date=today, variant="RU1-C", k=0, code=str(GameCode.parse(code)), verdict="unknown", seconds=0.0
    )
    store_unsettled_dailies(today, DAILY_VARIANTS)


def off_the_loop(work: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    """`work` (set-up through the ORM) in a thread of its own. Playwright's sync API runs an event
    loop in the test's thread, where a commit hook that goes through asgiref's async_to_sync (a
    verified result's effects) cannot run; a server's request thread never has one."""

    def run() -> Any:
        from django.db import connections

        try:
            return work(*args, **kwargs)
        finally:
            connections.close_all()  # this thread's own

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()
