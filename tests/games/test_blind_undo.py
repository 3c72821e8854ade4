"""An attempt reveals only what it played (docs/rules.md, "Undo in a ranked blind deal"): in a
daily's ranked attempt before publication and in a race on a hidden fresh deal, an undo that would
take back a dealt row or a card turned face up is refused (409, in words) and not offered; every
other undo works, and free play and practice keep the full undo."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone

from games import services
from games.engine import Game, Move, Undo
from games.models import GameAction, GameSession
from games.rooms import rooms
from tests.conftest import make_player

pytestmark = pytest.mark.django_db


def _signed_in(name: str) -> tuple[Client, object]:
    player = make_player(name)
    browser = Client()
    browser.force_login(player)
    return browser, player


def _act(browser: Client, session_id: str, token: str):  # type: ignore[no-untyped-def]
    return browser.post(f"/api/sessions/{session_id}/actions", {"action": token}, content_type="application/json")


def _move(code: str, log: list[str], *, revealing: bool) -> str:
    """A move after `log` that turns a card face up (`revealing`), or one whose undo hides nothing."""
    game = Game.from_code(code)
    game.run(log)
    for action in game.legal_actions():
        if isinstance(action, Move):
            probe = game.copy()
            probe.push(action)
            if probe.last_action_revealed == revealing:
                return str(action)
    raise AssertionError(f"no {'revealing' if revealing else 'quiet'} move in this position")


@pytest.mark.usefixtures("prepared_dailies")
def test_a_daily_attempt_cannot_undo_a_deal_or_a_turned_card_but_undoes_the_rest() -> None:
    browser, _ = _signed_in("scout")
    started = browser.post("/api/sessions", {"daily": "SP1-S1C"}, content_type="application/json").json()
    session = GameSession.objects.get(pk=started["id"])
    code = session.stored_code.code
    assert started["ranked"] and started["code"] is None and "U" not in started["legal"]

    dealt = _act(browser, started["id"], "D").json()
    assert "U" not in dealt["legal"]
    refused = _act(browser, started["id"], "U")
    assert refused.status_code == 409
    error = refused.json()["error"]
    assert error["rule"] == "undo_would_hide" and "cannot take back a dealt row" in error["message"]
    assert error["index"] == 2 and error["token"] == "U"
    assert list(GameAction.objects.filter(session=session).values_list("token", flat=True)) == ["D"]

    quiet = _move(code, ["D"], revealing=False)
    moved = _act(browser, started["id"], quiet).json()
    assert "U" in moved["legal"]  # this undo hides nothing
    undone = _act(browser, started["id"], "U")
    assert undone.status_code == 200 and undone.json()["undos"] == 1
    assert "U" not in undone.json()["legal"]  # back to the deal, which stays

    revealing = _move(code, ["D", quiet, "U"], revealing=True)
    assert _act(browser, started["id"], revealing).status_code == 200
    assert _act(browser, started["id"], "u").status_code == 409  # any spelling of an undo
    assert GameAction.objects.filter(session=session).count() == 4


@pytest.mark.usefixtures("prepared_dailies")
def test_free_play_and_practice_keep_the_full_undo() -> None:
    browser, player = _signed_in("free")
    free = browser.post("/api/sessions", {"code": "SP1-S1C-AAAAAAD"}, content_type="application/json").json()
    assert "U" in _act(browser, free["id"], "D").json()["legal"]
    assert _act(browser, free["id"], "U").status_code == 200

    ranked, _ = services.start_session(player=player, daily="SP1-S1C")
    services.finish_session(player=player, session_id=ranked.pk)
    practice = browser.post("/api/sessions", {"daily": "SP1-S1C"}, content_type="application/json").json()
    assert practice["ranked"] is False
    assert "U" in _act(browser, practice["id"], "D").json()["legal"]
    assert _act(browser, practice["id"], "U").status_code == 200


def test_a_race_on_a_hidden_fresh_deal_cannot_undo_a_deal() -> None:
    host_browser, host = _signed_in("host")
    racer = make_player("racer")
    room = rooms.create_room(host=host, variant="SD1-S1")
    rooms.join_room(room_id=room.pk, player=racer)
    rooms.start_room(room_id=room.pk, player=host, now=timezone.now() - dt.timedelta(seconds=5))
    session = GameSession.objects.get(player=host, in_room=True)
    assert session.code_secret
    dealt = _act(host_browser, str(session.pk), "D").json()
    assert "U" not in dealt["legal"]
    assert _act(host_browser, str(session.pk), "U").status_code == 409


def test_the_engine_offers_the_undo_the_service_refuses() -> None:
    """The refusal is the service's: the engine's own undo of a deal is legal, in any game."""
    game = Game.from_code("SP1-S1C-AAAAAAD")
    game.apply("D")
    assert game.last_action_revealed and Undo() in game.legal_actions()
