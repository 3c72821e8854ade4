"""The play page merges the socket's deltas into its copy of the session document, and asks for the
whole document when a delta is not for its copy; the browser's merge is the server's (delta.js).
A second tab of the same game follows the first by what its socket pushes."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from games.sessions.deltas import diff
from tests.e2e.conftest import shot
from tests.e2e.helpers import api_get, api_post, card, moves_shown, open_play, start
from tests.games.play_helpers import documents_of

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MOVE = re.compile(r"^(\d+):(\d+)>(\d+)$")


def frames_of(page) -> dict[str, list[dict[str, Any]]]:
    """Every frame the page's play socket sends and receives, decoded, as they pass."""
    seen: dict[str, list[dict[str, Any]]] = {"sent": [], "received": []}

    def watch(ws) -> None:
        if "/ws/play/" in ws.url:
            ws.on("framesent", lambda payload: seen["sent"].append(json.loads(payload)))
            ws.on("framereceived", lambda payload: seen["received"].append(json.loads(payload)))

    page.on("websocket", watch)
    return seen


def table_of(page) -> list[dict[str, Any]]:
    """Each column as the page draws it: its face-down count and its face-up cards."""
    return page.evaluate(
        """() => [...document.querySelectorAll('.column')].map((column) => ({
            down: column.querySelectorAll('.card:not(.up)').length,
            up: [...column.querySelectorAll('.card.up')].map((node) => node.dataset.card),
        }))"""
    )


def keyboard_move(page, token: str) -> None:
    a, n, b = (int(x) for x in MOVE.match(token).groups())  # type: ignore[union-attr]
    page.wait_for_timeout(250)  # the last move's animation settles
    card(page, a, n).focus()
    page.keyboard.press("Enter")
    page.keyboard.press(str(b % 10))


def test_the_page_plays_on_deltas_and_follows_a_change_made_elsewhere(page) -> None:
    seen = frames_of(page)
    doc = start(page, code="SP1-S2C-AAAAAAD")
    open_play(page, doc["id"])
    assert seen["received"][0]["type"] == "session"
    # Moves by keyboard, a deal by a click on the stock: each answered by a delta, merged.
    for played in range(1, 4):
        now = api_get(page, f"/api/sessions/{doc['id']}")
        token = next(t for t in now["legal"] if MOVE.match(t))
        keyboard_move(page, token)
        expect(page.locator("[data-moves]")).to_have_text(str(played))
    page.locator("[data-stock]").click()
    expect(page.locator("[data-moves]")).to_have_text("4")
    page.wait_for_timeout(300)
    server = api_get(page, f"/api/sessions/{doc['id']}")
    assert table_of(page) == server["view"]["columns"]
    answers = seen["received"][1:]
    assert [frame["type"] for frame in answers] == ["delta"] * 4
    assert [(frame["base"], frame["actions"]) for frame in answers] == [(0, 1), (1, 2), (2, 3), (3, 4)]
    shot(page, "play-deltas-after-deal")

    # Another client deals a row: the socket pushes it, a delta on the page's copy, merged.
    api_post(page, f"/api/sessions/{doc['id']}/actions", {"action": "D", "at": 5})
    expect(page.locator("[data-moves]")).to_have_text("5")
    pushed = seen["received"][-1]
    assert pushed["type"] == "delta" and pushed["pushed"] is True and (pushed["base"], pushed["actions"]) == (4, 5)
    page.wait_for_timeout(300)
    server = api_get(page, f"/api/sessions/{doc['id']}")
    assert table_of(page) == server["view"]["columns"] and moves_shown(page) == server["view"]["moves"]

    # The page plays on from it: its action takes the next place, answered by a delta.
    keyboard_move(page, next(t for t in server["legal"] if MOVE.match(t)))
    expect(page.locator("[data-moves]")).to_have_text("6")
    assert seen["received"][-1]["type"] == "delta" and seen["received"][-1]["base"] == 5
    assert {"type": "sync"} not in seen["sent"]


def test_the_browsers_merge_is_the_servers(page) -> None:
    start(page, code="SP1-S4C-AAAAAAD")  # any page of the site: delta.js is loaded from it
    cases = []
    for variant, number in (("SP1-S4C", 11), ("SD1-S2", 12), ("RU1-C", 13), ("SP1-S1C", 14)):
        docs = documents_of(variant, number, [(7 * n) % 11 for n in range(30)])
        cases += [{"old": old, "change": diff(old, new), "new": new} for old, new in zip(docs, docs[1:], strict=False)]
    merged = page.evaluate(
        """async (cases) => {
            const { merge } = await import('/static/frontend/js/delta.js');
            return cases.map(({ old, change }) => merge(old, change));
        }""",
        cases,
    )
    assert len(cases) > 80
    assert merged == [case["new"] for case in cases]


def looks_counted(page) -> None:
    """Count the page's focus and visibility events from now on (window.looked)."""
    page.evaluate(
        """() => {
            window.looked = 0;
            const count = () => { window.looked += 1; };
            document.addEventListener('visibilitychange', count, true);
            window.addEventListener('focus', count, true);
        }"""
    )


def test_a_second_tab_follows_a_move_made_in_the_first_without_looking_again(page) -> None:
    first_seen = frames_of(page)
    doc = start(page, code="SP1-S2C-AAAAAAD")
    open_play(page, doc["id"])
    second = page.context.new_page()  # another tab of the same browser: the same player
    errors: list[str] = []
    second.on("pageerror", lambda error: errors.append(str(error)))
    try:
        second_seen = frames_of(second)
        open_play(second, doc["id"])
        looks_counted(second)
        page.bring_to_front()

        # A move in the first tab: the second shows it at once, pushed, without asking.
        token = next(t for t in api_get(page, f"/api/sessions/{doc['id']}")["legal"] if MOVE.match(t))
        keyboard_move(page, token)
        expect(page.locator("[data-moves]")).to_have_text("1")
        expect(second.locator("[data-moves]")).to_have_text("1")
        second.wait_for_timeout(300)
        server = api_get(page, f"/api/sessions/{doc['id']}")
        assert table_of(second) == server["view"]["columns"]
        pushed = [frame for frame in second_seen["received"] if frame.get("pushed")]
        assert [(frame["type"], frame["actions"]) for frame in pushed] == [("delta", 1)]
        assert second.evaluate("window.looked") == 0 and {"type": "sync"} not in second_seen["sent"]
        # The first tab made the move: it has its answer, and nothing pushed.
        assert not [frame for frame in first_seen["received"] if frame.get("pushed")]

        # The second tab plays on from there: no 409, and the first follows it in turn.
        keyboard_move(second, next(t for t in server["legal"] if MOVE.match(t)))
        expect(second.locator("[data-moves]")).to_have_text("2")
        expect(page.locator("[data-moves]")).to_have_text("2")
        assert not [frame for frame in second_seen["received"] if frame["type"] == "error"]
        assert {"type": "sync"} not in second_seen["sent"] and {"type": "sync"} not in first_seen["sent"]
        page.wait_for_timeout(300)
        server = api_get(page, f"/api/sessions/{doc['id']}")
        assert table_of(page) == table_of(second) == server["view"]["columns"]
        shot(second, "play-second-tab-followed")
    finally:
        second.close()
    assert not errors, errors


def test_a_page_that_was_pushed_nothing_asks_when_back_in_view(page) -> None:
    """Where the live layer is away nothing is pushed: a page back in view asks for the game."""
    received: list[dict[str, Any]] = []
    sent: list[dict[str, Any]] = []

    def without_pushes(ws) -> None:
        server = ws.connect_to_server()

        def to_server(message) -> None:
            sent.append(json.loads(message))
            server.send(message)

        def to_page(message) -> None:
            frame = json.loads(message)
            if not frame.get("pushed"):  # as if the layer were away
                received.append(frame)
                ws.send(message)

        ws.on_message(to_server)
        server.on_message(to_page)

    page.route_web_socket(re.compile(r"/ws/play/"), without_pushes)
    doc = start(page, code="SP1-S2C-AAAAAAD")
    open_play(page, doc["id"])
    # Another tab plays on: nothing reaches this page, which still shows the game it had.
    api_post(page, f"/api/sessions/{doc['id']}/actions", {"action": "D", "at": 1})
    page.wait_for_timeout(300)
    assert moves_shown(page) == 0 and {"type": "sync"} not in sent
    # The player comes back to this tab: the page asks for the game and shows it as it is now.
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(page.locator("[data-moves]")).to_have_text("1")
    assert sent.count({"type": "sync"}) == 1
    server = api_get(page, f"/api/sessions/{doc['id']}")
    assert table_of(page) == server["view"]["columns"]
    # Shown and focused together (a tab switched back to), later on: one more ask, not two.
    page.wait_for_timeout(1100)
    page.evaluate("document.dispatchEvent(new Event('visibilitychange')); window.dispatchEvent(new Event('focus'))")
    page.wait_for_timeout(300)
    assert sent.count({"type": "sync"}) == 2

    # Played on again unseen, the page's undo names a place in the log that is taken (409): it
    # asks the socket for the whole document and shows it, then plays on deltas again.
    api_post(page, f"/api/sessions/{doc['id']}/actions", {"action": "D", "at": 2})
    page.locator("[data-undo]").click()
    expect(page.locator("[data-moves]")).to_have_text("2")
    assert sent.count({"type": "sync"}) == 3
    assert received[-1]["type"] == "session" and received[-1]["actions"] == 2
    server = api_get(page, f"/api/sessions/{doc['id']}")
    assert table_of(page) == server["view"]["columns"] and moves_shown(page) == server["view"]["moves"]
    keyboard_move(page, next(t for t in server["legal"] if MOVE.match(t)))
    expect(page.locator("[data-moves]")).to_have_text("3")
    assert received[-1]["type"] == "delta" and received[-1]["base"] == 2
