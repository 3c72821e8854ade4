"""Quick match across two server processes on one database: players ask on either worker and poll
on the other; one race forms, each player in it once, and every poll on either worker says where."""

from __future__ import annotations

import time
import urllib.request
from pathlib import Path

import pytest
from rest_framework.authtoken.models import Token

from games.models import Room, RoomMember
from races.models import QueueEntry
from tests.conftest import make_player
from tests.loopback import free_port, serving, worker_env
from tests.reliability.client import Api

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]

VARIANT = "SP1-S1C"


def test_players_asking_on_two_workers_are_placed_in_one_race(tmp_path: Path) -> None:
    tokens = [Token.objects.create(user=make_player(f"w{i}")).key for i in range(4)]
    ports = [free_port(), free_port()]
    bases = [f"http://127.0.0.1:{port}" for port in ports]

    def ready(base: str) -> None:
        urllib.request.urlopen(f"{base}/api/variants", timeout=2).close()

    env = worker_env()
    with (
        serving(
            "config.asgi:application", port=ports[0], env=env, log=tmp_path / "a.log", ready=lambda: ready(bases[0])
        ),
        serving(
            "config.asgi:application", port=ports[1], env=env, log=tmp_path / "b.log", ready=lambda: ready(bases[1])
        ),
    ):
        players = [Api(bases[i % 2], token) for i, token in enumerate(tokens)]
        for player in players:
            asked = player.post("/api/match", {"variant": VARIANT})
            assert asked.status_code in (200, 202), asked.text
        rooms: dict[str, str] = {}
        deadline = time.monotonic() + 30  # four of one rating race once the first has waited 5 s
        while len(rooms) < len(players) and time.monotonic() < deadline:
            for n, player in enumerate(players):
                answer = player.at(bases[(n + 1) % 2]).get("/api/match")  # polled on the other worker
                assert answer.status_code == 200, answer.text
                if answer.json()["room"]:
                    rooms[player.token or ""] = answer.json()["room"]
            time.sleep(0.5)
    assert len(rooms) == 4 and len(set(rooms.values())) == 1, rooms
    (room,) = Room.objects.all()
    assert room.state == Room.State.RACING and room.code_secret
    members = list(RoomMember.objects.values_list("player__username", flat=True))
    assert sorted(members) == ["w0", "w1", "w2", "w3"]
    assert not QueueEntry.objects.filter(room=None).exists()
