"""The play page merges the socket's deltas into its copy of the session document, and asks for the
whole document when a delta is not for its copy; the browser's merge is the server's (delta.js)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from games.session_delta import diff
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


def test_the_page_plays_on_deltas_and_syncs_when_its_copy_is_not_the_base(page) -> None:
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

    # Another client deals a row behind the page's back; the page's undo then names a place in
    # the log that is taken (409): it asks the socket for the whole document and shows it.
    api_post(page, f"/api/sessions/{doc['id']}/actions", {"action": "D", "at": 5})
    page.locator("[data-undo]").click()
    expect(page.locator("[data-moves]")).to_have_text("5")
    assert {"type": "sync"} in seen["sent"]
    assert seen["received"][-1]["type"] == "session" and seen["received"][-1]["actions"] == 5
    server = api_get(page, f"/api/sessions/{doc['id']}")
    assert table_of(page) == server["view"]["columns"] and moves_shown(page) == server["view"]["moves"]

    # After the sync, deltas again.
    keyboard_move(page, next(t for t in server["legal"] if MOVE.match(t)))
    expect(page.locator("[data-moves]")).to_have_text("6")
    assert seen["received"][-1]["type"] == "delta" and seen["received"][-1]["base"] == 5


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


def test_a_page_back_in_view_shows_the_game_as_it_was_played_elsewhere(page) -> None:
    seen = frames_of(page)
    doc = start(page, code="SP1-S2C-AAAAAAD")
    open_play(page, doc["id"])
    # Another tab plays on: nothing is pushed to this page, which still shows the game it had.
    api_post(page, f"/api/sessions/{doc['id']}/actions", {"action": "D", "at": 1})
    page.wait_for_timeout(300)
    assert moves_shown(page) == 0 and {"type": "sync"} not in seen["sent"]
    # The player comes back to this tab: the page asks for the game and shows it as it is now.
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(page.locator("[data-moves]")).to_have_text("1")
    assert seen["sent"].count({"type": "sync"}) == 1
    server = api_get(page, f"/api/sessions/{doc['id']}")
    assert table_of(page) == server["view"]["columns"]
    # Shown and focused together (a tab switched back to), later on: one more ask, not two.
    page.wait_for_timeout(1100)
    page.evaluate("document.dispatchEvent(new Event('visibilitychange')); window.dispatchEvent(new Event('focus'))")
    page.wait_for_timeout(300)
    assert seen["sent"].count({"type": "sync"}) == 2
