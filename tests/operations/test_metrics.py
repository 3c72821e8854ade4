"""Metrics: each instrumentation point moves its series, and `/metrics` serves them in Prometheus's format."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import redis
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families
from rest_framework.test import APIClient

from config.asgi import application
from games.models import Player
from games.ranking.boards import parse_board
from games.services import start_session
from leaderboard import selectors
from operations import drain, metrics
from tests.games.test_play_socket import open_socket, token_of
from tests.leaderboard.factories import SPIDERETTE_WIN, legal_walk, make_result, named, vector_log
from tests.operations.asgi_client import call

CODE = "SD1-S4-AAAAAAA"
ORIGIN = (b"origin", b"http://127.0.0.1")
HOST = (b"host", b"127.0.0.1")  # the origin check compares the Origin with the address the socket was opened on


def value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


@pytest.mark.django_db
def test_actions_are_counted_by_result_and_timed(player_api: APIClient, unlimited_actions: None) -> None:
    applied, illegal = value("league_actions_total", result="applied"), value("league_actions_total", result="illegal")
    timed = value("league_action_seconds_count")
    session = player_api.post("/api/sessions", {"code": CODE}, format="json").json()["id"]
    first = legal_walk(CODE, 1)[0]
    assert player_api.post(f"/api/sessions/{session}/actions", {"action": first}, format="json").status_code == 200
    assert player_api.post(f"/api/sessions/{session}/actions", {"action": "2:5>3"}, format="json").status_code == 422
    assert value("league_actions_total", result="applied") == applied + 1
    assert value("league_actions_total", result="illegal") == illegal + 1
    assert value("league_action_seconds_count") == timed + 2


@pytest.mark.django_db
def test_submissions_and_their_verification_are_counted(player_api: APIClient) -> None:
    verified, refused = (
        value("league_submissions_total", result="verified"),
        value("league_submissions_total", result="illegal"),
    )
    replays = value("league_verification_seconds_count")
    good = player_api.post("/api/submissions", {"code": CODE, "moves": legal_walk(CODE, 5)}, format="json")
    bad = player_api.post("/api/submissions", {"code": CODE, "moves": ["2:5>3"]}, format="json")
    assert (good.status_code, bad.status_code) == (201, 422)
    assert value("league_submissions_total", result="verified") == verified + 1
    assert value("league_submissions_total", result="illegal") == refused + 1
    assert value("league_verification_seconds_count") == replays + 2  # a refused replay is timed too


@pytest.mark.django_db
@pytest.mark.redis  # the rank index
def test_a_reader_catching_up_a_rank_index_that_missed_a_change_is_counted() -> None:
    board = f"code:{SPIDERETTE_WIN}"
    log = vector_log(SPIDERETTE_WIN)
    for n in range(3):
        make_result(named(f"c{n}"), SPIDERETTE_WIN, log[: 5 * n + 3])
    redis.Redis.from_url(settings.REDIS_URL).set(f"lb:rank-version:{board}", 2)  # it missed change 3
    before = value("league_rank_index_catch_ups_total")
    assert selectors.leaderboard(board=parse_board(board), viewer=None)["total"] == 3
    assert value("league_rank_index_catch_ups_total") == before + 1
    selectors.leaderboard(board=parse_board(board), viewer=None)
    assert value("league_rank_index_catch_ups_total") == before + 1  # in step now: nothing to catch up


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("socket_cleanup")
async def test_open_sockets_pushes_and_their_delay_are_counted() -> None:
    board = f"code:{SPIDERETTE_WIN}"
    before = value("league_open_sockets", kind="leaderboards")
    pushes, arrived = (
        value("league_pushes_total", type="board.change"),
        value("league_push_delay_seconds_count", type="board.change"),
    )
    delivered = value("league_push_deliveries_total", type="board.change")
    watchers = [WebsocketCommunicator(application, f"/ws/leaderboards/{board}/", headers=[ORIGIN, HOST]) for _ in "ab"]
    for watcher in watchers:
        assert (await watcher.connect())[0]
        assert (await watcher.receive_json_from())["type"] == "snapshot"
    assert value("league_open_sockets", kind="leaderboards") == before + 2
    await database_sync_to_async(lambda: make_result(named("pusher"), SPIDERETTE_WIN, vector_log(SPIDERETTE_WIN)[:9]))()
    for watcher in watchers:
        assert (await watcher.receive_json_from(timeout=5))["type"] == "change"
    # The board and its clean twin: on Redis each is pushed whoever listens, in memory only the watched one.
    assert value("league_pushes_total", type="board.change") == pushes + (2 if settings.REDIS_URL else 1)
    # The delay once for the change this worker read, the deliveries once for each of its two sockets.
    assert value("league_push_delay_seconds_count", type="board.change") == arrived + 1
    assert value("league_push_deliveries_total", type="board.change") == delivered + 2
    for watcher in watchers:
        await watcher.disconnect()
    assert value("league_open_sockets", kind="leaderboards") == before


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("socket_cleanup")
async def test_a_play_socket_times_each_answer(player: Player, unlimited_actions: None) -> None:
    session, _ = await database_sync_to_async(start_session)(player=player, code=CODE)
    answered = value("league_socket_answer_seconds_count", kind="play")
    socket = await open_socket(session.id, await token_of(player))
    assert (await socket.receive_json_from())["actions"] == 0  # the document on connect answers no message
    assert value("league_socket_answer_seconds_count", kind="play") == answered
    await socket.send_json_to({"type": "action", "action": legal_walk(CODE, 1)[0], "at": 1})
    assert (await socket.receive_json_from())["actions"] == 1
    assert value("league_socket_answer_seconds_count", kind="play") == answered + 1
    await socket.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("socket_cleanup")
async def test_a_drain_closes_an_idle_socket_with_the_restart_code(player: Player) -> None:
    session, _ = await database_sync_to_async(start_session)(player=player, code=CODE)
    socket = await open_socket(session.id, await token_of(player))
    assert (await socket.receive_json_from())["type"] == "session"
    try:
        draining = asyncio.ensure_future(drain.drain(seconds=5))
        closed = await socket.receive_output(timeout=5)
        await socket.send_input({"type": "websocket.disconnect", "code": closed["code"]})  # as daphne does
        left = await draining
        assert value("league_draining") == 1
    finally:
        drain.state.draining = False
        metrics.DRAINING.set(0)
    assert closed == {"type": "websocket.close", "code": drain.CLOSE_RESTARTING}
    assert left == (0, 0)  # nothing was in flight, and the socket has ended


@pytest.mark.django_db(transaction=True)
async def test_the_scrape_is_prometheus_text_with_every_series(player: Player) -> None:
    await database_sync_to_async(lambda: APIClient().get("/api/daily"))()  # the pool exists once used
    answer = await call("/metrics", headers={"Host": "10.0.3.7:8000"})
    assert answer["status"] == 200 and answer["headers"]["content-type"].startswith("text/plain")
    names = {family.name for family in text_string_to_metric_families(answer["body"].decode())}
    expected = {
        "league_actions",
        "league_action_seconds",
        "league_http_requests",
        "league_http_request_seconds",
        "league_open_sockets",
        "league_socket_answer_seconds",
        "league_verification_seconds",
        "league_submissions",
        "league_rank_index_catch_ups",
        "league_rank_index_rebuilds",
        "league_pushes",
        "league_push_delay_seconds",
        "league_push_deliveries",
        "league_draining",
        "league_socket_db_queue",
        "process_cpu_seconds",
    }
    if settings.DATABASES["default"].get("OPTIONS", {}).get("pool"):
        expected |= {
            "league_db_pool_size",
            "league_db_requests_waiting",
            "league_db_pool_waits",
            "league_db_pool_wait_seconds",
        }
    assert expected <= names, expected - names
    assert "_created" not in answer["body"].decode()


def test_the_operations_guide_describes_every_series_served() -> None:
    guide = (Path(__file__).resolve().parents[2] / "docs" / "operations.md").read_text()
    served = {family.name for family in REGISTRY.collect() if family.name.startswith("league_")}
    assert served, "no league_ series"
    missing = sorted(name for name in served if f"`{name}" not in guide)
    assert not missing, f"docs/operations.md does not describe {missing}"
