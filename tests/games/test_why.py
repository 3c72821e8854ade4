"""Why a group cannot be picked up or an action played, asked over HTTP and the play socket:
the engine's rule, in the player's language, and nothing changes."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from rest_framework.test import APIClient

from games.models import GameAction, GameSession, Player
from games.services import apply_action, start_session
from tests.games.test_play_socket import open_socket, token_of
from tests.security.snapshot import snapshot

CODE = "SP1-S4C-AAAAAAA"  # after 10:1>8 the top two cards of column 8 are Q♦ on K♠

SAYS = {
    "en": "In Classic Spider a group must be one suit: the Q♦ is on the K♠",
    "fi": (
        "Klassisessa Hämähäkissä ryhmän on oltava samaa maata: kortti ruutu kuningatar on kortin pata kuningas päällä"
    ),
    "hr": "U igri Pauk uz pravilo Klasično skupina mora biti iste boje: karta dama karo leži na karti kralj pik",
}


def _mixed_group_session(player: Player) -> GameSession:
    session, _ = start_session(player=player, code=CODE)
    apply_action(player=player, session_id=session.id, token="10:1>8")
    return session


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["en", "fi", "hr"])
def test_a_mixed_suit_group_says_its_rule_in_the_players_language(
    player: Player, player_api: APIClient, lang: str
) -> None:
    session = _mixed_group_session(player)
    before = snapshot()
    response = player_api.get(f"/api/sessions/{session.id}/why", {"group": "8:2"}, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    assert response.json() == {
        "group": "8:2",
        "targets": [],
        "allowed": False,
        "rule": "group_one_suit",
        "params": {"game": "Spider", "card": "QD", "below": "KS"},
        "message": SAYS[lang],
    }
    assert snapshot() == before


@pytest.mark.django_db
def test_a_group_that_may_move_lists_its_targets_and_an_action_is_judged(player: Player, player_api: APIClient) -> None:
    session = _mixed_group_session(player)
    doc = player_api.get(f"/api/sessions/{session.id}").json()
    movable = player_api.get(f"/api/sessions/{session.id}/why", {"group": "8:1"}).json()
    assert movable["allowed"] is True and movable["rule"] is None and movable["message"] is None
    assert movable["targets"] == sorted(int(t.split(">")[1]) for t in doc["legal"] if t.startswith("8:1>"))
    padded = player_api.get(f"/api/sessions/{session.id}/why", {"action": " " * 40 + "8:2>1"}).json()
    assert padded["rule"] == "group_one_suit"  # the blanks around a token are ignored, however many
    refused = player_api.get(f"/api/sessions/{session.id}/why", {"action": "8:2>1"}, HTTP_ACCEPT_LANGUAGE="fi").json()
    assert refused["action"] == "8:2>1" and refused["rule"] == "group_one_suit" and refused["message"] == SAYS["fi"]
    assert GameAction.objects.filter(session=session).count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "status"),
    [
        ({}, 400),
        ({"group": "8:2", "action": "D"}, 400),
        ({"group": "x"}, 400),
        ({"group": "0:1"}, 400),
        ({"action": "1:01>2"}, 422),
        ({"action": "9" * 40}, 400),
    ],
)
def test_bad_questions_are_refused_and_change_nothing(
    player: Player, player_api: APIClient, query: dict[str, str], status: int
) -> None:
    session = _mixed_group_session(player)
    before = snapshot()
    response = player_api.get(f"/api/sessions/{session.id}/why", query)
    assert response.status_code == status
    assert set(response.json()["error"]) >= {"message", "index", "token"}
    assert snapshot() == before


@pytest.mark.django_db
def test_another_players_game_is_answered_like_a_missing_one(player: Player, player_api: APIClient) -> None:
    other = Player.objects.create_user(username="someone_else", password="x" * 12)
    session, _ = start_session(player=other, code=CODE)
    response = player_api.get(f"/api/sessions/{session.id}/why", {"group": "1:1"})
    assert response.status_code == 404


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("socket_cleanup")
async def test_the_play_socket_answers_why_without_acting(player: Player) -> None:
    session = await database_sync_to_async(_mixed_group_session)(player)
    socket = await open_socket(session.id, await token_of(player))
    assert (await socket.receive_json_from())["type"] == "session"
    await socket.send_json_to({"type": "why", "group": "8:2"})
    answer = await socket.receive_json_from()
    assert answer["type"] == "why" and answer["rule"] == "group_one_suit" and answer["allowed"] is False
    await socket.send_json_to({"type": "why", "group": "nonsense"})
    bad = await socket.receive_json_from()
    assert bad["type"] == "error" and bad["status"] == 400
    await socket.disconnect()
    assert await database_sync_to_async(GameAction.objects.filter(session=session).count)() == 1
