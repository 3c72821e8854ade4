"""X-Forwarded-For is believed only from the balancer (issue 40, item 7).

A worker run with daphne's `--proxy-headers` took the client's address from the header whoever
sent it: reached directly, it accepted 15 sign-ups with 15 made-up addresses. Now the header is
believed only from a peer in TRUSTED_PROXIES (none by default; `make cluster` and compose name
their nginx), so the per-address limits count the real client, and the cluster still sees each
client's own address through nginx."""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from operations import cluster, forwarded
from tests.loopback import ROOT, database_url_of, free_port, service_env

PASSWORD = "a long passphrase 7"


# ----------------------------------------------------------------------------- which address


def scope(peer: str, *headers: tuple[bytes, bytes], kind: str = "http") -> dict[str, Any]:
    return {
        "type": kind,
        "scheme": "http" if kind == "http" else "ws",
        "client": (peer, 51000),
        "headers": list(headers),
    }


def client_of(scope: dict[str, Any]) -> str:
    return str(forwarded.resolved(scope)["client"][0])


def test_without_trusted_proxies_the_header_is_nobodys_word(settings: Any) -> None:
    settings.TRUSTED_PROXIES = []
    assert client_of(scope("127.0.0.1", (b"x-forwarded-for", b"10.0.0.1"))) == "127.0.0.1"
    assert client_of(scope("203.0.113.9", (b"x-forwarded-for", b"10.0.0.1"))) == "203.0.113.9"


def test_only_a_trusted_peer_names_the_client(settings: Any) -> None:
    settings.TRUSTED_PROXIES = ["10.0.0.5", "192.168.0.0/24"]
    spoofed = (b"x-forwarded-for", b"198.51.100.7")
    assert client_of(scope("10.0.0.5", spoofed)) == "198.51.100.7"
    assert client_of(scope("192.168.0.77", spoofed)) == "198.51.100.7"  # a network
    assert client_of(scope("::ffff:10.0.0.5", spoofed)) == "198.51.100.7"  # the same peer, as IPv6 writes it
    assert client_of(scope("10.0.0.6", spoofed)) == "10.0.0.6"  # next door is nobody's balancer
    assert client_of(scope("10.0.0.5")) == "10.0.0.5"  # the balancer asking itself


def test_a_chain_is_read_from_the_balancers_end(settings: Any) -> None:
    """Whatever the client wrote comes first; the trusted proxies wrote the right-hand end."""
    settings.TRUSTED_PROXIES = ["10.0.0.0/24"]
    chain = (b"x-forwarded-for", b"1.2.3.4, 198.51.100.7, 10.0.0.9")
    assert client_of(scope("10.0.0.5", chain)) == "198.51.100.7"
    twice = [(b"x-forwarded-for", b"1.2.3.4"), (b"x-forwarded-for", b"198.51.100.8")]
    assert client_of(scope("10.0.0.5", *twice)) == "198.51.100.8"
    for garbage in (b"unknown", b"198.51.100.7:1234", b"<script>", b""):
        assert client_of(scope("10.0.0.5", (b"x-forwarded-for", garbage))) == "10.0.0.5"


def test_the_scheme_too_comes_only_from_a_trusted_peer(settings: Any) -> None:
    settings.TRUSTED_PROXIES = ["10.0.0.5"]
    headers = [(b"x-forwarded-for", b"198.51.100.7"), (b"x-forwarded-proto", b"https")]
    assert forwarded.resolved(scope("10.0.0.5", *headers))["scheme"] == "https"
    assert forwarded.resolved(scope("10.0.0.5", *headers, kind="websocket"))["scheme"] == "wss"
    assert forwarded.resolved(scope("10.0.0.6", *headers))["scheme"] == "http"


def test_a_wrong_trusted_proxy_stops_the_service_at_start() -> None:
    env = {"TRUSTED_PROXIES": "10.0.0.5, nginx", "PATH": "/usr/bin:/bin"}
    checked = subprocess.run(
        [sys.executable, "-c", "import django; from django.conf import settings; settings.TRUSTED_PROXIES"],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert checked.returncode != 0 and "TRUSTED_PROXIES: 'nginx'" in checked.stderr


def test_the_worker_refuses_daphnes_proxy_headers() -> None:
    """`--proxy-headers` believes the header from anyone: the worker will not start with it."""
    for option in (["--proxy-headers"], ["--proxy-headers-host", "X-Real-IP"]):
        started = subprocess.run(
            [sys.executable, "-m", "operations.server", "-p", str(free_port()), *option, "config.asgi:application"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert started.returncode == 2 and "TRUSTED_PROXIES" in started.stderr, started.stderr[-2000:]


# ------------------------------------------------------------------- a real worker and cluster


def sign_up(port: int, *, source: str, forwarded_for: str | None = None) -> int:
    """POST /api/auth/signup to 127.0.0.1:`port`, connecting from the loopback address `source`."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))
    headers = {"Content-Type": "application/json", "Host": f"127.0.0.1:{port}"}
    if forwarded_for is not None:
        headers["X-Forwarded-For"] = forwarded_for
    body = json.dumps({"username": f"u{uuid.uuid4().hex[:12]}", "password": PASSWORD})
    try:
        connection.request("POST", "/api/auth/signup", body=body, headers=headers)
        return connection.getresponse().status
    finally:
        connection.close()


def ready_through(port: int) -> tuple[int, dict[str, Any]]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request("GET", "/health/ready", headers={"Host": f"127.0.0.1:{port}"})
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        connection.close()


@pytest.fixture(scope="module")
def services(django_db_setup: None, django_db_blocker: Any) -> dict[str, str]:
    from django.conf import settings
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("the workers run on PostgreSQL (set DATABASE_URL)")
    return service_env(
        database_url=database_url_of(connection.settings_dict), redis_url=settings.REDIS_URL or "", RATE_SIGNUPS="2"
    )


@pytest.fixture(scope="module")
def lone_worker(services: dict[str, str]) -> Iterator[cluster.Worker]:
    """A worker as `make cluster` starts one and the image runs it, with nothing trusted (the default)."""
    env = {key: value for key, value in services.items() if key != "TRUSTED_PROXIES"}
    worker = cluster.Worker(free_port(), env, Path(tempfile.mkdtemp(prefix="lone-worker-")) / "worker.log")
    worker.start()
    try:
        worker.wait_ready()
        yield worker
    finally:
        worker.signal(15)
        worker.wait(timeout=20)


@pytest.fixture(scope="module")
def balanced(services: dict[str, str]) -> Iterator[cluster.Cluster]:
    """`make cluster` in small: nginx in front of one worker."""
    if cluster.nginx_binary() is None:
        pytest.skip("nginx is not installed (scripts/nginx.sh)")
    running = cluster.Cluster(
        worker_ports=[free_port()],
        listen_port=free_port(),
        env=services,
        log_dir=Path(tempfile.mkdtemp(prefix="balanced-")),
    )
    try:
        running.start()
        yield running
    finally:
        running.stop(drain_seconds=20)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)  # the workers' players are gone after each test
def test_a_worker_reached_directly_counts_the_peer_not_the_header(lone_worker: cluster.Worker) -> None:
    """The probe's 15 sign-ups with 15 made-up addresses: past RATE_SIGNUPS (2 here) it is 429."""
    answers = [sign_up(lone_worker.port, source="127.0.0.11", forwarded_for=f"10.9.0.{n}") for n in range(3)]
    assert answers == [201, 201, 429]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)  # the workers' players are gone after each test
def test_the_cluster_sees_each_client_by_its_own_address(balanced: cluster.Cluster) -> None:
    """Through nginx each client is counted by its own address, whatever it claims; the worker's own
    port, reached by anyone but nginx, believes no header either."""
    through = balanced.listen_port
    assert sign_up(through, source="127.0.0.21", forwarded_for="10.8.0.1") == 201
    assert sign_up(through, source="127.0.0.21", forwarded_for="10.8.0.2") == 201
    assert sign_up(through, source="127.0.0.21", forwarded_for="10.8.0.3") == 429  # nginx replaced the header
    assert sign_up(through, source="127.0.0.22") == 201  # another client, seen as itself, not as nginx
    direct = balanced.workers[0].port
    answers = [sign_up(direct, source="127.0.0.23", forwarded_for=f"10.7.0.{n}") for n in range(3)]
    assert answers == [201, 201, 429]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)  # the workers' players are gone after each test
def test_readiness_through_the_balancer_is_the_status_alone(balanced: cluster.Cluster) -> None:
    """Item 8 on the real balancer: its answer carries no check's detail (tests/security/test_health_detail.py)."""
    assert ready_through(balanced.listen_port) == (200, {"status": "ready"})
    status, document = ready_through(balanced.workers[0].port)  # a probe on the worker's own machine
    assert status == 200 and set(document["checks"]) == {"postgres", "redis", "migrations"}
