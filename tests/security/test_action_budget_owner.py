"""A game's per-second action budget is spent only by its own player: another player's requests on
its id answer 404 (as for a missing game), change nothing and leave the budget whole."""

from __future__ import annotations

from typing import Any

import pytest

from games.services import start_session
from tests.conftest import make_player
from tests.security.snapshot import snapshot
from tests.security.test_rate_limits import as_player

pytestmark = pytest.mark.django_db
CODE = "SP1-S1C-AAAAAAA"


@pytest.mark.usefixtures("still_clock")
@pytest.mark.parametrize("path", ["actions", "why"])
def test_another_players_requests_do_not_spend_my_budget(path: str, settings: Any) -> None:
    settings.RATE_ACTIONS = 3
    alice, mallory = make_player("alice"), make_player("mallory")
    session, _ = start_session(player=alice, code=CODE)
    intruder = as_player(mallory)
    before = snapshot()
    for _ in range(40):
        if path == "actions":
            answer = intruder.post(f"/api/sessions/{session.id}/actions", {"action": "D"}, format="json")
        else:
            answer = intruder.get(f"/api/sessions/{session.id}/why", {"action": "D"})
        assert answer.status_code == 404, answer.content
        assert answer.json()["error"]["message"] == "No such game session."
    assert snapshot() == before
    mine = as_player(alice)
    if path == "actions":
        assert mine.post(f"/api/sessions/{session.id}/actions", {"action": "D"}, format="json").status_code == 200
    else:
        assert mine.get(f"/api/sessions/{session.id}/why", {"action": "D"}).status_code == 200


@pytest.mark.usefixtures("still_clock")
def test_my_own_flood_is_still_limited(settings: Any) -> None:
    settings.RATE_ACTIONS = 2
    alice = make_player("alice")
    session, _ = start_session(player=alice, code=CODE)
    mine = as_player(alice)
    url = f"/api/sessions/{session.id}/actions"
    assert [mine.post(url, {"action": "U"}, format="json").status_code for _ in range(2)] == [422, 422]
    before = snapshot()
    refused = mine.post(url, {"action": "D"}, format="json")
    assert refused.status_code == 429 and refused["Retry-After"] == "1"
    assert snapshot() == before
