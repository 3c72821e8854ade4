"""nginx in front of three workers (operations.cluster), on loopback: 50 players play through the
balancer while 200 watchers follow their board; one worker is stopped (SIGTERM) and another
killed (SIGKILL) in the middle of play. Every acknowledged action is stored once, every player
goes on after reconnecting, and every watcher ends up seeing every change of the board."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import requests
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from operations.cluster import Cluster, nginx_binary
from operations.drain import CLOSE_RESTARTING
from tests.games.play_helpers import follow
from tests.leaderboard.watchers import apply_message
from tests.loopback import free_port
from tests.reliability.client import origin_of
from tests.reliability.conftest import Stack
from tests.reliability.db import legal_plan, rows, stored_log
from tests.reliability.procs import manage

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]  # a private PostgreSQL and Redis each

CODE = "SP1-S2C-AAAAAKQ"
BOARD = f"code:{CODE}"
PLAYERS = 50
WATCHERS = 200
PLAN = legal_plan(CODE, 40)


def steps_of(n: int) -> int:
    """How many actions player n plays before giving up: scores differ, so the board changes order."""
    return 30 + n % 10


@dataclass
class Tally:
    acknowledged: int = 0  # actions answered, all players
    closes: Counter[int] = field(default_factory=Counter)  # close codes players and watchers saw
    errors: list[str] = field(default_factory=list)


def _players(env: dict[str, str]) -> list[str]:
    """Players with tokens, straight into the database (sign-up's password hashing is not under test)."""
    code = (
        "import json; from rest_framework.authtoken.models import Token; from games.models import Player; "
        f"ps = Player.objects.bulk_create([Player(username=f'c{{i}}', password='!') for i in range({PLAYERS})]); "
        "print(json.dumps([Token.objects.create(user=p).key for p in ps]))"
    )
    done = manage(env, "shell", "-c", code)
    assert done.returncode == 0, done.stderr[-2000:]
    return list(json.loads(done.stdout.strip().splitlines()[-1]))


async def _open(url: str, token: str | None = None) -> ClientConnection:
    """A socket through the balancer, retried while no worker takes it (one is starting or stopping)."""
    headers = {"Authorization": f"Token {token}"} if token else {}
    for attempt in range(100):
        try:
            return await connect(url, origin=origin_of(url), additional_headers=headers, proxy=None, open_timeout=20)  # type: ignore[arg-type]
        except (OSError, InvalidStatus, TimeoutError):
            await asyncio.sleep(0.05 * min(attempt + 1, 10))
    raise AssertionError(f"could not open {url}")


async def _play(cluster: Cluster, n: int, token: str, session_id: str, tally: Tally) -> dict[str, Any]:
    """Play `steps_of(n)` actions then give up, like the browser: every action carries `at`, and
    after a reconnect the session's `actions` says where the game is."""
    steps = steps_of(n)
    rng = random.Random(n)
    reconnects = 0
    while True:
        socket = await _open(f"{cluster.ws}/ws/play/{session_id}/", token)
        try:
            document = json.loads(await socket.recv())
            assert document["type"] == "session", document
            while not document["finished"]:
                done = document["actions"]
                message = (
                    {"type": "action", "action": PLAN[done], "at": done + 1} if done < steps else {"type": "finish"}
                )
                await socket.send(json.dumps(message))
                answer = json.loads(await socket.recv())
                if answer["type"] not in {"session", "delta"}:
                    tally.errors.append(f"player {n}: {answer}")
                    return answer
                if answer["actions"] != done + (message["type"] == "action"):
                    tally.errors.append(f"player {n} expected {done + 1} actions, got {answer['actions']}")
                tally.acknowledged += message["type"] == "action"
                document = {"type": "session", **follow(document, answer)}
                await asyncio.sleep(rng.uniform(0.02, 0.08))
            await socket.close()
            return {**document, "reconnects": reconnects}
        except ConnectionClosed as closed:
            tally.closes[closed.rcvd.code if closed.rcvd is not None else 1006] += 1
            reconnects += 1


@dataclass
class Watcher:
    entries: list[dict[str, Any]] = field(default_factory=list)
    snapshots: int = 0
    changes: int = 0


async def _watch(cluster: Cluster, watcher: Watcher, tally: Tally, stop: asyncio.Event) -> None:
    while not stop.is_set():
        socket = await _open(f"{cluster.ws}/ws/leaderboards/{BOARD}/?limit=100")
        try:
            while not stop.is_set():
                try:
                    message = json.loads(await asyncio.wait_for(socket.recv(), timeout=0.5))
                except TimeoutError:
                    continue
                if message["type"] == "error":  # "live updates paused": not expected here
                    tally.errors.append(f"watcher: {message}")
                    continue
                watcher.entries = apply_message(watcher.entries, message)
                watcher.snapshots += message["type"] == "snapshot"
                watcher.changes += message["type"] == "change"
            await socket.close()
        except ConnectionClosed as closed:
            tally.closes[closed.rcvd.code if closed.rcvd is not None else 1006] += 1


def _seen(entries: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(e["rank"], e["player"], e["score"], e["moves"]) for e in entries]


async def _run(cluster: Cluster, tokens: list[str], sessions: list[str]) -> tuple[Tally, list[Any], list[Watcher]]:
    tally = Tally()
    stop = asyncio.Event()
    watchers = [Watcher() for _ in range(WATCHERS)]
    watching = [asyncio.create_task(_watch(cluster, w, tally, stop)) for w in watchers]
    while sum(w.snapshots for w in watchers) < WATCHERS:
        await asyncio.sleep(0.1)
    total = sum(steps_of(n) for n in range(PLAYERS))
    playing = [asyncio.create_task(_play(cluster, n, tokens[n], sessions[n], tally)) for n in range(PLAYERS)]
    stopped, killed = cluster.workers[0], cluster.workers[1]
    while tally.acknowledged < total // 4:
        await asyncio.sleep(0.05)
    stopped.signal(signal.SIGTERM)
    while tally.acknowledged < total // 2:
        await asyncio.sleep(0.05)
    killed.signal(signal.SIGKILL)
    results = await asyncio.wait_for(asyncio.gather(*playing), timeout=300)
    # The board's last change is pushed after its commit: give the watchers a moment to converge.
    http = requests.Session()
    http.trust_env = False  # loopback only
    truth = await asyncio.to_thread(lambda: http.get(f"{cluster.url}/api/leaderboards/{BOARD}?limit=100").json())
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(_seen(w.entries) != _seen(truth["entries"]) for w in watchers):
        await asyncio.sleep(0.2)
    stop.set()
    await asyncio.gather(*watching)
    return tally, [results, truth], watchers


def test_players_and_watchers_through_the_balancer_lose_nothing_when_workers_stop_and_die(stack: Stack) -> None:
    if nginx_binary() is None:
        message = "nginx is not installed (scripts/nginx.sh installs it)"
        pytest.fail(message) if os.environ.get("CI") else pytest.skip(message)
    log_dir = Path(stack.log_dir)
    env = stack.env(LOG_LEVEL="INFO", LOG_FORMAT="json", DRAIN_SECONDS="15")
    cluster = Cluster(worker_ports=[free_port() for _ in range(3)], listen_port=free_port(), env=env, log_dir=log_dir)
    try:
        cluster.start()
        tokens = _players(env)
        http = requests.Session()
        http.trust_env = False
        sessions = []
        for token in tokens:
            started = http.post(
                f"{cluster.url}/api/sessions", json={"code": CODE}, headers={"Authorization": f"Token {token}"}
            )
            assert started.status_code == 201, started.text
            sessions.append(started.json()["id"])
        request_id = started.headers["X-Request-ID"]
        assert http.get(f"{cluster.url}/metrics").status_code == 404  # each worker is scraped directly, not here

        tally, (results, truth), watchers = asyncio.run(_run(cluster, tokens, sessions))

        stopped, killed, survivor = cluster.workers
        assert stopped.wait(timeout=30) == 0, "the stopped worker did not drain cleanly"
        assert killed.process is not None and killed.process.poll() == -signal.SIGKILL
        assert survivor.process is not None and survivor.process.poll() is None
    finally:
        cluster.stop()

    assert not tally.errors, tally.errors[:5]
    # Every player went on after its worker went away, and finished its game.
    assert all(r["finished"] and r["result"]["actions"] == steps_of(n) for n, r in enumerate(results)), results[:3]
    assert tally.closes[CLOSE_RESTARTING] > 0, f"nobody was told to reconnect: {tally.closes}"
    assert tally.closes[1006] > 0, f"nobody was cut off by the killed worker: {tally.closes}"
    assert sum(r["reconnects"] for r in results) > 0
    # Every acknowledged action is stored once, in order; every game has exactly one result.
    for n, session_id in enumerate(sessions):
        assert stored_log(stack.database_url, session_id) == list(enumerate(PLAN[: steps_of(n)], start=1))
    counts = rows(
        stack.database_url,
        "SELECT count(*) FROM leaderboard_result WHERE session_id = ANY(%s::uuid[]) GROUP BY session_id",
        sessions,
    )
    assert len(counts) == PLAYERS and all(count == 1 for (count,) in counts)
    # Every watcher sees the board as it is: every player's change reached it, through any worker.
    assert truth["total"] == PLAYERS
    behind = [n for n, w in enumerate(watchers) if _seen(w.entries) != _seen(truth["entries"])]
    assert not behind, f"{len(behind)} watchers are behind the board"
    assert sum(w.snapshots for w in watchers) > WATCHERS, "no watcher was moved to another worker"
    # One request followed across the balancer and a worker by its id.
    nginx_lines = [json.loads(line) for line in (log_dir / "nginx-access.log").read_text().splitlines()]
    (at_nginx,) = [line for line in nginx_lines if line["request_id"] == request_id]
    assert at_nginx["method"] == "POST" and at_nginx["status"] == 201 and at_nginx["uri"] == "/api/sessions"
    worker_port = int(at_nginx["upstream"].rsplit(":", 1)[1])
    worker_lines = [
        json.loads(line)
        for line in (log_dir / f"worker-{worker_port}.log").read_text().splitlines()
        if line.startswith("{")
    ]
    (at_worker,) = [line for line in worker_lines if line.get("request_id") == request_id]
    assert at_worker["path"] == "/api/sessions" and at_worker["status"] == 201
