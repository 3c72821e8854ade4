"""A ranked daily played and finished today: until its day is over, no address a client can reach
(as the player, as another player, anonymously; HTTP pages, the API, the sockets) carries its
code, its deal number or a card that is still face-down or in the stock."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from rest_framework.authtoken.models import Token

from config.asgi import application
from games import services
from games.engine import Game, GameCode
from games.models import GameSession, Player, Result
from games.rooms import rooms
from leaderboard.models import BoardEntry
from tests.conftest import make_player
from tests.reliability.db import legal_plan
from tests.security.crawl import addresses, cards_named

VARIANT = "SD1-S4"  # 52 different cards: a card's name tells exactly which card it is


@dataclass
class World:
    alice: Player
    bob: Player
    session: GameSession
    result: Result
    board: str
    secrets: list[str]  # the daily's code and deal number, and the secret race room's code
    hidden_cards: set[str]  # face-down or in the stock when alice finished
    values: dict[str, list[str]]  # what the crawl puts in each URL parameter
    refusals: list[dict[str, Any]]


def build_world() -> World:
    alice, bob = make_player("alice"), make_player("bob")
    session, created = services.start_session(player=alice, daily=VARIANT)
    assert created and session.ranked
    code = session.stored_code.code
    plan = legal_plan(code, 6)
    for token in plan:
        services.apply_action(player=alice, session_id=session.pk, token=token)
    refusals = []
    for bad in ("7:3>1", "1:1>1", "1:2>3", "D D"):  # refused: the messages must not name hidden cards
        try:
            services.apply_action(player=alice, session_id=session.pk, token=bad)
        except Exception as refusal:  # noqa: BLE001 - any refusal's text is checked
            refusals.append({"message": str(refusal)})
    services.finish_session(player=alice, session_id=session.pk)
    practice, _ = services.start_session(player=alice, daily=VARIANT)  # the second attempt: practice
    assert not practice.ranked
    bobs, _ = services.start_session(player=bob, daily=VARIANT)
    room = rooms.create_room(host=alice, variant="SD1-S4")
    game = Game.from_code(code)
    for token in plan:
        game.apply(token)
    state = game.state()
    hidden = {card for column in state["columns"] for card in column["down"]} | set(state["stock"])
    assert len(hidden) > 20
    result = Result.objects.get(session=session)
    board = session.board
    assert board is not None and board.startswith("daily:")
    assert BoardEntry.objects.filter(board=f"{board}:clean", player=alice).exists()  # her game is clean
    return World(
        alice=alice,
        bob=bob,
        session=session,
        result=result,
        board=board,
        secrets=[code, code.rsplit("-", 1)[1], str(GameCode.parse(code).number), room.code],
        hidden_cards=hidden,
        values={
            "session_id": [str(session.pk), str(practice.pk), str(bobs.pk)],
            # Each board and its clean twin (alice's game had no undo: she is ranked on both).
            "board": [board, f"{board}:clean", f"code:{VARIANT}-AAAAAAA", f"code:{VARIANT}-AAAAAAA:clean"],
            "name": ["alice", "bob"],
            "result_id": [str(result.pk)],
            "room_id": [str(room.pk)],
            "challenge_id": ["1"],
            "game": ["spider", "spiderette", "russian", "SP", "SD", "RU"],
            "variant": [VARIANT, "SD1-S4"],
            "token_id": ["0000000000000000"],  # the address answers DELETE only
        },
        refusals=refusals,
    )


def assert_keeps_the_secret(world: World, where: str, text: str) -> None:
    for secret in world.secrets:
        assert not re.search(rf"(?<![A-Za-z0-9]){re.escape(secret)}(?![A-Za-z0-9])", text, re.IGNORECASE), (
            f"{where} reveals {secret}"
        )
    leaked = cards_named(text) & world.hidden_cards
    assert not leaked, f"{where} names hidden cards {sorted(leaked)}"


def clients(world: World) -> dict[str, Client]:
    as_alice, as_bob, browser = Client(), Client(), Client()
    as_alice.defaults["HTTP_AUTHORIZATION"] = f"Token {Token.objects.create(user=world.alice).key}"
    as_bob.defaults["HTTP_AUTHORIZATION"] = f"Token {Token.objects.create(user=world.bob).key}"
    browser.force_login(world.alice)
    return {"alice": as_alice, "alice's browser": browser, "bob": as_bob, "anonymous": Client()}


@pytest.mark.django_db
@pytest.mark.usefixtures("prepared_dailies")
def test_no_get_address_reveals_the_daily_before_its_day_is_over() -> None:
    world = build_world()
    steps = world.result.actions
    extra = [
        "/api/daily?date=" + world.session.daily.date.isoformat(),  # type: ignore[union-attr]
        f"/api/leaderboards/{world.board}?around=me",
        f"/api/leaderboards/{world.board}:clean?around=me",
        "/api/schema/?format=json",
        # Her recap of the attempt, and the games she may continue (the practice attempt is open).
        f"/api/daily/recap?variant={VARIANT}",
        "/api/sessions?open=1",
        *[f"/api/results/{world.result.pk}/replay?step={step}" for step in range(steps + 1)],
        f"/api/leaderboards/archive?variant={VARIANT}",
        *[f"/api/leaderboards/all-time/{VARIANT}?by={by}" for by in ("best", "wins", "streak")],
        # Why a group of the open practice attempt cannot move names only cards the player sees.
        *[f"/api/sessions/{world.values['session_id'][1]}/why?group={c}:{n}" for c in range(1, 11) for n in (1, 2, 6)],
    ]
    crawled = 0
    for who, client in clients(world).items():
        for address in [*addresses(world.values), *extra]:
            response = client.get(address)
            assert response.status_code < 500, (who, address, response.status_code)
            body = b"".join(response) if response.streaming else response.content  # type: ignore[attr-defined]
            assert_keeps_the_secret(world, f"GET {address} as {who}", body.decode("utf-8", "replace"))
            crawled += 1
    assert crawled > 60
    for refusal in world.refusals:
        assert_keeps_the_secret(world, "a refused action", json.dumps(refusal, ensure_ascii=False))


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("socket_cleanup", "prepared_dailies")
async def test_no_socket_reveals_the_daily_before_its_day_is_over() -> None:
    world = await database_sync_to_async(build_world)()
    token = await database_sync_to_async(lambda: Token.objects.create(user=world.alice).key)()
    paths = [
        f"/ws/play/{world.session.pk}/",
        *[f"/ws/play/{sid}/" for sid in world.values["session_id"]],
        f"/ws/leaderboards/{world.board}/",
        f"/ws/leaderboards/{world.board}:clean/",
        f"/ws/rooms/{world.values['room_id'][0]}/",
    ]
    for path in paths:
        for headers in ([(b"authorization", f"Token {token}".encode())], []):
            socket = WebsocketCommunicator(
                application, path, headers=[(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"), *headers]
            )
            connected, _ = await socket.connect(timeout=5)
            assert connected
            first = await socket.receive_output(timeout=5)
            assert_keeps_the_secret(world, f"{path} first message", first.get("text", ""))
            if path.startswith("/ws/play/") and json.loads(first["text"])["type"] == "session":
                await socket.send_json_to({"type": "action", "action": "7:3>1"})
                answer = await socket.receive_output(timeout=5)
                assert_keeps_the_secret(world, f"{path} refusal", answer.get("text", ""))
            await socket.disconnect()
