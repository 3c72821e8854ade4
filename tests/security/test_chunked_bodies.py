"""The body cap holds for every body, with or without Content-Length, through the balancer.

nginx (deploy/nginx, as the cluster and docker-compose.yml run it) reads a body before a worker
sees any of it and refuses one over its cap as it arrives: an endless chunked body never reaches
a worker's memory. Under it, a chunked body goes to the worker whole, with its length, and the
worker refuses one over MAX_BODY_BYTES in the client's language, or serves it like any other.
The ASGI application counts too (web/bodies.py), for a server that hands it a body in pieces.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator

from config.asgi import application
from operations import cluster
from tests.conftest import make_player
from tests.loopback import free_port
from tests.security.conftest import Worker
from tests.security.snapshot import snapshot

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]  # a real worker, on the test database
ROOT = Path(__file__).resolve().parents[2]
CAP = 262_144  # MAX_BODY_BYTES's default
PASSWORD = "correct horse 9"


@pytest.fixture(scope="module")
def balancer(worker: Worker) -> Iterator[int]:
    """nginx, as deploy/nginx configures it, in front of the worker: its port."""
    binary = cluster.nginx_binary()
    if binary is None:
        pytest.skip("nginx is not installed (scripts/nginx.sh installs it)")
    port = free_port()
    prefix = Path(tempfile.mkdtemp(prefix="security-nginx-"))
    values = cluster.loopback_values([worker.port], listen=f"127.0.0.1:{port}", access_log="/dev/null")
    cluster.write_prefix(prefix, values)
    nginx = subprocess.Popen([binary, "-p", f"{prefix}/", "-c", "nginx.conf", "-e", "stderr", "-g", "daemon off;"])
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert nginx.poll() is None and time.monotonic() < deadline, "nginx did not start"
                time.sleep(0.05)
        yield port
    finally:
        nginx.terminate()
        nginx.wait(timeout=10)
        shutil.rmtree(prefix, ignore_errors=True)


def chunked(pieces: Iterable[bytes]) -> Iterator[bytes]:
    for piece in pieces:
        yield b"%x\r\n%s\r\n" % (len(piece), piece)
    yield b"0\r\n\r\n"


def exchange(port: int, head: bytes, body: Iterable[bytes] = ()) -> tuple[int, bytes, int]:
    """Send `head` and then `body` while reading the answer: (status, answer body, bytes of body sent)."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=30)
    sent = 0

    def send_body() -> None:
        nonlocal sent
        try:
            for piece in body:
                connection.sendall(piece)
                sent += len(piece)
        except OSError:
            pass  # the worker hung up: that is the point

    connection.sendall(head)
    sender = threading.Thread(target=send_body, daemon=True)
    sender.start()
    answer = b""
    try:
        while b"\r\n\r\n" not in answer or len(answer) < _expected_length(answer):
            data = connection.recv(65536)
            if not data:
                break
            answer += data
    finally:
        sender.join(timeout=30)
        connection.close()
    status_line, _, rest = answer.partition(b"\r\n")
    head, _, body = rest.partition(b"\r\n\r\n")
    if b"transfer-encoding: chunked" in head.lower():
        body = _unchunked(body)
    return int(status_line.split()[1]), body, sent


def _unchunked(data: bytes) -> bytes:
    body = b""
    while data:
        size_line, _, data = data.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        body, data = body + data[:size], data[size + 2 :]
    return body


def _expected_length(answer: bytes) -> int:
    head, _, _ = answer.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(head) + 4 + int(value)
    return 1 << 62  # read to the close


def post_head(path: str, *, length: int | None = None, language: str = "en") -> bytes:
    framing = f"Content-Length: {length}" if length is not None else "Transfer-Encoding: chunked"
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Accept-Language: {language}\r\nConnection: close\r\n{framing}\r\n\r\n"
    ).encode()


def rss_kib(process: subprocess.Popen[bytes]) -> int:
    for line in Path(f"/proc/{process.pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_an_endless_chunked_body_is_refused_as_it_arrives(worker: Worker, balancer: int) -> None:
    before, rows = rss_kib(worker.process), snapshot()
    endless = chunked(b"x" * 65536 for _ in range(3200))  # 200 MB if nothing stopped it
    status, body, _ = exchange(balancer, post_head("/api/auth/login"), endless)  # nginx reads the rest away
    assert status == 413
    assert json.loads(body) == {"error": {"message": "The body is too large.", "index": None, "token": None}}
    assert rss_kib(worker.process) - before < 32 * 1024  # and the worker kept none of it
    assert snapshot() == rows


def test_the_workers_refusal_is_in_the_clients_language(balancer: int) -> None:
    port = balancer
    status, body, _ = exchange(port, post_head("/api/auth/signup", language="fi"), chunked([b" " * (CAP + 1)]))
    assert status == 413
    assert json.loads(body)["error"]["message"] == f"Sisältö on liian suuri: enintään {CAP} tavua hyväksytään."


def test_a_content_length_over_the_balancers_cap_is_answered_before_the_body(balancer: int) -> None:
    rows = snapshot()
    status, body, _ = exchange(balancer, post_head("/api/auth/signup", length=1_000_000))
    assert status == 413
    assert json.loads(body)["error"]["message"] == "The body is too large."
    assert snapshot() == rows


def test_a_body_with_its_length_over_the_cap_is_refused_in_the_clients_language(balancer: int) -> None:
    rows = snapshot()
    head = post_head("/api/auth/signup", length=CAP + 1, language="hr")
    status, body, _ = exchange(balancer, head, [b" " * (CAP + 1)])
    assert status == 413
    assert json.loads(body)["error"]["message"] == f"Tijelo je preveliko: prihvaća se najviše {CAP} bajtova."
    assert snapshot() == rows


def test_a_small_chunked_body_is_served(balancer: int) -> None:
    port = balancer
    make_player("carol", PASSWORD)
    document = json.dumps({"username": "carol", "password": PASSWORD}).encode()
    status, body, _ = exchange(port, post_head("/api/auth/login"), chunked([document[:7], document[7:]]))
    assert status == 200, body
    assert json.loads(body)["token"]


def test_a_chunked_body_at_the_cap_is_served(balancer: int) -> None:
    port = balancer
    document = json.dumps({"username": "dora", "password": PASSWORD}).encode()
    padded = document + b" " * (CAP - len(document))  # JSON allows trailing space: exactly the cap
    status, body, _ = exchange(port, post_head("/api/auth/signup"), chunked([padded[:100_000], padded[100_000:]]))
    assert status == 201, body


async def asgi_post(path: str, pieces: list[bytes]) -> tuple[int, Any]:
    scope = {
        "type": "http",
        "method": "POST",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(b"host", b"testserver"), (b"content-type", b"application/json")],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }
    app = ApplicationCommunicator(application, scope)
    for index, piece in enumerate(pieces):
        await app.send_input({"type": "http.request", "body": piece, "more_body": index < len(pieces) - 1})
    start = await app.receive_output(timeout=10)
    answer = await app.receive_output(timeout=10)
    await app.wait(timeout=10)
    return start["status"], json.loads(answer["body"])


@pytest.mark.usefixtures("socket_cleanup")
async def test_the_asgi_application_counts_a_body_in_pieces_too() -> None:
    status, body = await asgi_post("/api/auth/login", [b" " * 100_000] * 3)
    assert status == 413
    assert body["error"]["message"] == f"The body is too large: at most {CAP} bytes are accepted."


@pytest.mark.usefixtures("socket_cleanup")
async def test_the_asgi_application_reads_a_body_without_content_length() -> None:
    from channels.db import database_sync_to_async

    await database_sync_to_async(make_player)("erin", PASSWORD)
    document = json.dumps({"username": "erin", "password": PASSWORD}).encode()
    status, body = await asgi_post("/api/auth/login", [document[:5], document[5:]])
    assert status == 200, body
    assert body["token"]


def test_the_cluster_and_compose_put_nginx_and_its_cap_in_front_of_the_workers() -> None:
    template = (ROOT / "deploy" / "nginx" / "league.conf.template").read_text()
    assert "client_max_body_size 320k;" in template and "error_page 413 @too_large;" in template
    compose = (ROOT / "docker-compose.yml").read_text()
    assert "deploy/nginx" in compose
