"""One client flooding the log-in with wrong passwords holds no one else out, on a real worker.

An attacker's loop of log-ins with random names and a wrong password, a few a second, kept the
process's password check busy, and a player with the right password got "Too many log-ins at once"
nearly every time. Now an address has one place in the line at a time, a log-in waits briefly for
a free check, and an address past its failures is refused unchecked: the player gets in.
"""

from __future__ import annotations

import http.client
import json
import secrets
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from tests.conftest import make_player
from tests.loopback import database_url_of, free_port, service_env, serving

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, pytest.mark.redis]
PASSWORD = "a long passphrase 7"
ATTACKER, PLAYER = "127.0.0.2", "127.0.0.3"  # two addresses of loopback, each a client of its own


def log_in(port: int, source: str, name: str, password: str) -> int:
    connection_ = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    try:
        body = json.dumps({"username": name, "password": password})
        connection_.request("POST", "/api/auth/login", body, {"Content-Type": "application/json"})
        answer = connection_.getresponse()
        answer.read()
        return answer.status
    finally:
        connection_.close()


@pytest.mark.parametrize(
    "failures_per_address",
    [
        None,  # production's limits, and its one password check at a time
        "100000",  # no failure limit per address: the line alone lets the player in
    ],
)
def test_a_right_password_gets_in_while_one_address_floods_with_wrong_ones(failures_per_address: str | None) -> None:
    make_player("steady", PASSWORD)
    port = free_port()
    env = service_env(database_url=database_url_of(connection.settings_dict), redis_url=settings.REDIS_URL or "")
    for limit in ("RATE_LOGIN_FAILURES", "RATE_LOGIN_FAILURES_PER_ADDRESS"):
        env.pop(limit, None)
    if failures_per_address is not None:
        env["RATE_LOGIN_FAILURES_PER_ADDRESS"] = failures_per_address
    log = Path(tempfile.mkdtemp(prefix="login-flood-")) / "worker.log"

    def alive() -> None:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/health/alive", timeout=2).close()

    with serving("config.asgi:application", port=port, env=env, log=log, ready=alive):
        stop = threading.Event()
        flood: Counter[int] = Counter()

        def attack() -> None:
            while not stop.is_set():
                flood[log_in(port, ATTACKER, f"x{secrets.token_hex(6)}", "wrong password 1")] += 1
                time.sleep(0.1)

        attackers = [threading.Thread(target=attack, daemon=True) for _ in range(2)]
        for attacker in attackers:
            attacker.start()
        time.sleep(1.5)  # the flood is under way
        got_in = []
        for _ in range(10):
            got_in.append(log_in(port, PLAYER, "steady", PASSWORD))
            time.sleep(0.8)
        stop.set()
        for attacker in attackers:
            attacker.join(35)
    assert got_in.count(200) >= 9, f"the player: {got_in}, the flood: {dict(flood)}"
    assert set(flood) <= {401, 429} and sum(flood.values()) >= 20, flood  # it did flood, and got no 5xx
