"""Redis stopped in the middle of play: play and verification go on (sessions live in PostgreSQL),
boards are answered from PostgreSQL, and when Redis is back pushes resume and the rank index
agrees with PostgreSQL again."""

from __future__ import annotations

import json
from typing import Any

import pytest
import redis
from websockets.sync.client import ClientConnection, connect

from tests.reliability.client import TIMEOUT, Api, origin_of, play_socket, receive
from tests.reliability.conftest import Stack
from tests.reliability.db import legal_plan, rows, stored_log
from tests.reliability.procs import manage

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]  # a private PostgreSQL and Redis each

CODE = "SD1-S2-AAAAAAB"
BOARD = f"code:{CODE}"


def board_socket(ws_base: str) -> ClientConnection:
    return connect(f"{ws_base}/ws/leaderboards/{BOARD}/", origin=origin_of(ws_base), proxy=None, open_timeout=TIMEOUT)  # type: ignore[arg-type]


def play(api: Api, steps: int) -> dict[str, Any]:
    """A whole game over HTTP: start on CODE, `steps` legal actions, give up. Returns the finished session."""
    started = api.post("/api/sessions", {"code": CODE})
    assert started.status_code == 201, started.text
    session_id = started.json()["id"]
    for count, token in enumerate(legal_plan(CODE, steps), start=1):
        answer = api.post(f"/api/sessions/{session_id}/actions", {"action": token})
        assert answer.status_code == 200 and answer.json()["actions"] == count, answer.text
    finished = api.post(f"/api/sessions/{session_id}/finish")
    assert finished.status_code == 200, finished.text
    return dict(finished.json())


def sql_board(stack: Stack) -> list[tuple[str, int]]:
    return [
        (str(key), int(player))
        for key, player in rows(
            stack.database_url,
            "SELECT sort_key, player_id FROM leaderboard_boardentry WHERE board = %s ORDER BY sort_key",
            BOARD,
        )
    ]


def redis_board(stack: Stack) -> list[tuple[str, int]]:
    client = redis.Redis.from_url(stack.redis.url, decode_responses=True)
    members = client.zrange(f"lb:rank:{BOARD}", 0, -1)
    owners = {key: int(player) for player, key in client.hgetall(f"lb:rank-player:{BOARD}").items()}
    client.close()
    return [(key, owners.get(key, -1)) for key in members]


def ranked_names(api: Api) -> list[str]:
    answer = api.get(f"/api/leaderboards/{BOARD}")
    assert answer.status_code == 200, answer.text
    entries = answer.json()["entries"]
    assert [entry["rank"] for entry in entries] == list(range(1, len(entries) + 1))
    assert answer.json()["total"] == len(entries)
    return [entry["player"] for entry in entries]


def test_play_goes_on_without_redis_and_the_boards_come_back_right(stack: Stack) -> None:
    server = stack.daphne()
    bob, alice = Api(server.http), Api(server.http)
    bob_name, alice_name = bob.sign_up(), alice.sign_up()
    play(bob, 3)  # 497 points: on the board before the outage
    assert ranked_names(Api(server.http)) == [bob_name]

    stack.redis.stop(keep_data=True)

    # Play over HTTP and over the socket, a finish and a batch submission: all verified, all stored.
    finished = play(alice, 1)  # 499 points: first place
    assert finished["result"]["score"] == 499 and finished["result"]["board"] == BOARD
    socket_game = alice.post("/api/sessions", {"code": CODE}).json()["id"]
    assert alice.token is not None
    with play_socket(server.ws, socket_game, alice.token) as socket:
        assert receive(socket)["type"] == "session"
        socket.send(json.dumps({"type": "action", "action": legal_plan(CODE, 1)[0]}))
        assert receive(socket)["actions"] == 1
    assert stored_log(stack.database_url, socket_game) == [(1, legal_plan(CODE, 1)[0])]
    submitted = alice.post("/api/submissions", {"code": CODE, "moves": legal_plan(CODE, 2)})
    assert submitted.status_code == 201 and submitted.json()["result"]["score"] == 498
    # The board is answered from PostgreSQL, in PostgreSQL's order.
    assert ranked_names(Api(server.http)) == [alice_name, bob_name]

    stack.redis.start()  # back with the data it had: its index does not know alice's result

    assert ranked_names(Api(server.http)) == [alice_name, bob_name]
    rebuilt = manage(stack.env(), "rebuild_ranks")
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert redis_board(stack) == sql_board(stack)

    # Pushes resume: a watcher hears of the next change.
    with board_socket(server.ws) as watcher:
        snapshot = receive(watcher)
        assert snapshot["type"] == "snapshot" and [e["player"] for e in snapshot["entries"]] == [alice_name, bob_name]
        play(bob, 0)  # 500 points: bob takes first place
        change = receive(watcher)
        assert change["type"] in {"change", "snapshot"}, change
        entry = change["entry"] if change["type"] == "change" else change["entries"][0]
        assert entry["player"] == bob_name and entry["rank"] == 1 and entry["score"] == 500
    assert redis_board(stack) == sql_board(stack)


def test_another_process_does_not_trust_an_index_that_missed_the_outage(stack: Stack) -> None:
    writer, reader = stack.daphne(), stack.daphne()
    bob, alice = Api(writer.http), Api(writer.http)
    bob_name, alice_name = bob.sign_up(), alice.sign_up()
    play(bob, 3)
    assert ranked_names(Api(reader.http)) == [bob_name]
    stack.redis.stop(keep_data=True)
    play(alice, 1)
    stack.redis.start()
    # The reader never saw the failed index update; it must still answer what PostgreSQL holds.
    assert ranked_names(Api(reader.http)) == [alice_name, bob_name]
