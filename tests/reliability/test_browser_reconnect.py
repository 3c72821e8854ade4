"""The browser behind the balancer: when its worker stops (SIGTERM) the page's socket is closed with
4012 and the page reconnects at once, without its back-off, to the other worker."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
import requests

from operations.cluster import Cluster, nginx_binary
from operations.drain import CLOSE_RESTARTING
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.loopback import free_port
from tests.reliability.conftest import Stack
from tests.reliability.procs import wait_until

pytestmark = [pytest.mark.slow, pytest.mark.e2e, pytest.mark.postgres, pytest.mark.redis]

BOARD = "code:SP1-S2C-AAAAAKQ"
# Every socket the page opens, and every open and close, with the page's clock.
RECORD_SOCKETS = """
window.__sockets = [];
const NativeSocket = window.WebSocket;
window.WebSocket = class extends NativeSocket {
  constructor(...args) {
    super(...args);
    __sockets.push(["new", performance.now()]);
    this.addEventListener("open", () => __sockets.push(["open", performance.now()]));
    this.addEventListener("close", (event) => __sockets.push(["close", performance.now(), event.code]));
  }
};
"""


def _watchers_on(worker_url: str) -> float:
    http = requests.Session()
    http.trust_env = False
    for line in http.get(f"{worker_url}/metrics", timeout=10).text.splitlines():
        if line.startswith('league_open_sockets{kind="leaderboards"}'):
            return float(line.split()[-1])
    return 0.0


def test_the_page_reconnects_at_once_to_another_worker_when_its_worker_stops(stack: Stack) -> None:
    for missing, what in ((nginx_binary() is None, "nginx"), (not os.path.exists(CHROMIUM), "Debian's chromium")):
        if missing:
            pytest.fail(f"{what} is not installed") if os.environ.get("CI") else pytest.skip(f"{what} is not installed")
    from playwright.sync_api import sync_playwright

    env = stack.env(DEBUG="true")  # static files straight from the apps, as `make run` serves them
    cluster = Cluster(
        worker_ports=[free_port(), free_port()], listen_port=free_port(), env=env, log_dir=Path(stack.log_dir)
    )
    try:
        cluster.start()
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                page = browser.new_page()
                page.add_init_script(RECORD_SOCKETS)
                page.goto(f"{cluster.url}/leaderboards/{BOARD}/")
                # Predicates as functions: a string is evaluated with eval, which the page's CSP forbids.
                page.wait_for_function("() => window.__sockets.some(([kind]) => kind === 'open')", timeout=30_000)
                wait_until(
                    lambda: sum(_watchers_on(w.url) for w in cluster.workers) == 1, timeout=20, what="the socket"
                )
                serving, other = sorted(cluster.workers, key=lambda w: -_watchers_on(w.url))

                serving.signal(signal.SIGTERM)
                page.wait_for_function(
                    "() => window.__sockets.filter(([kind]) => kind === 'open').length === 2", timeout=30_000
                )
                events = page.evaluate("window.__sockets")
                wait_until(lambda: _watchers_on(other.url) == 1, timeout=20, what="the socket on the other worker")
            finally:
                browser.close()
        assert serving.wait(timeout=30) == 0
    finally:
        cluster.stop()

    kinds = [event[0] for event in events]
    assert kinds == ["new", "open", "close", "new", "open"], events
    closed_at, code = events[2][1], events[2][2]
    assert code == CLOSE_RESTARTING
    # The first retry's back-off is 500 ms: on 4012 the page tries again straight away.
    assert events[3][1] - closed_at < 400, events
