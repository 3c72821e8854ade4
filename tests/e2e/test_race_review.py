"""A race's review in the browser: once the race is over and the closer's search has found the
solver's line, each racer's row says where their game first left it, and its link opens the
solver's line in the replay viewer at that step."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.engine import Game
from games.models import Room
from games.solver import solve
from races import review
from tests.e2e.conftest import new_page
from tests.e2e.helpers import api_get, api_post, off_the_loop, post_after_the_go, sign_up
from tests.races.test_race_review import SOLVABLE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
FOLLOWED = 3  # the host plays the solver's first three actions, then another one


def test_the_review_marks_where_a_game_left_the_solvers_line_and_opens_the_line_there(browser, server) -> None:
    host, rival = new_page(browser, server), new_page(browser, server)
    try:
        sign_up(host, server, "rev_ada")
        sign_up(rival, server, "rev_bo")
        room = api_post(host, "/api/rooms", {"variant": "SD1-S1"})["id"]
        api_post(rival, f"/api/rooms/{room}/join", {})
        off_the_loop(lambda: Room.objects.filter(pk=room).update(code=SOLVABLE))  # a deal the test knows
        api_post(host, f"/api/rooms/{room}/start", {})

        line = solve(SOLVABLE, 10).actions  # the search the closer makes
        game = Game.from_code(SOLVABLE)
        assert game.run(line[:FOLLOWED]) is None
        other = next(str(a) for a in game.legal_actions() if str(a) != line[FOLLOWED])
        mine = api_get(host, f"/api/rooms/{room}")["you"]["session"]
        for token in [*line[:FOLLOWED], other]:
            post_after_the_go(host, mine, "actions", {"action": token})
        for page in (host, rival):
            post_after_the_go(page, api_get(page, f"/api/rooms/{room}")["you"]["session"], "finish")

        host.goto(f"/rooms/{room}/review/")
        expect(host.locator("[data-solver]")).to_contain_text("looking for a winning line")
        assert off_the_loop(review.solve_pending, lambda: False) is not None  # the closer's round
        expect(host.locator("[data-solver]")).to_have_text(
            f"The solver's winning line has {len(line)} actions.", timeout=10000
        )
        rows = host.locator("[data-players] tr")
        expect(rows).to_have_count(2)
        expect(host.locator(f'[data-left-line="{FOLLOWED + 1}"]')).to_contain_text(f"At action {FOLLOWED + 1}")
        expect(rows.filter(has_text="rev_bo")).to_contain_text("Followed it until the game ended")

        host.locator(f'[data-left-line="{FOLLOWED + 1}"]').get_by_text("The solver's line there").click()
        host.wait_for_url(f"**/replay/race/{room}/?step={FOLLOWED}")
        expect(host.locator("[data-step]")).to_contain_text(str(FOLLOWED))
        assert not host.js_errors and not rival.js_errors, (host.js_errors, rival.js_errors)
    finally:
        host.context.close()
        rival.context.close()
