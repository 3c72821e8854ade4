"""/health/ready tells a client nothing internal (issue 40, item 8).

Through the balancer it answered anyone `unreachable: Error 111 connecting to 127.0.0.1:6399`.
Now the answer is the status alone, except to a probe on the worker's own machine (from loopback,
passed on by no proxy); what failed goes to the log. The real balancer's answer is checked in
tests/security/test_forwarded_for.py."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import orjson
import pytest
from django.test import override_settings

from operations import health
from tests.operations.asgi_client import call

pytestmark = pytest.mark.django_db(transaction=True)

AWAY = "redis://127.0.0.1:6399/0"  # nothing listens there
THROUGH_NGINX = {"Host": "league.example", "X-Forwarded-For": "198.51.100.7"}  # as deploy/nginx sends it


@pytest.fixture(autouse=True)
def nothing_logged_yet() -> Iterator[None]:
    health._logged = None
    yield
    health._logged = None


async def ready(headers: dict[str, str], client: tuple[str, int]) -> tuple[int, dict]:
    with override_settings(REDIS_URL=AWAY):
        answer = await call("/health/ready", headers=headers, client=client)
    return answer["status"], orjson.loads(answer["body"])


@pytest.mark.parametrize(
    ("headers", "client"),
    [
        (THROUGH_NGINX, ("127.0.0.1", 40000)),  # nginx beside the worker (make cluster)
        (THROUGH_NGINX, ("172.30.80.10", 40000)),  # nginx on the network (compose)
        ({"Host": "10.0.3.7:8000"}, ("203.0.113.9", 40000)),  # anyone reaching a worker's port
        ({"Host": "10.0.3.7:8000"}, ("10.0.3.1", 40000)),  # a neighbour on the private network
    ],
)
async def test_a_client_gets_the_status_alone(headers: dict[str, str], client: tuple[str, int]) -> None:
    status, document = await ready(headers, client)
    assert (status, document) == (503, {"status": "not ready"})


async def test_a_probe_on_the_workers_machine_gets_the_detail() -> None:
    status, document = await ready({"Host": "127.0.0.1:8000"}, ("127.0.0.1", 40000))
    assert status == 503 and document["checks"]["redis"].startswith("unreachable: ")


async def test_what_failed_goes_to_the_log_once_while_it_lasts(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="operations.health"):
        for _ in range(3):
            await ready(THROUGH_NGINX, ("127.0.0.1", 40000))
        lines = [record for record in caplog.records if record.name == "operations.health"]
        assert len(lines) == 1 and lines[0].levelno == logging.WARNING
        assert "redis unreachable: " in lines[0].getMessage() and "6399" in lines[0].getMessage()
        answer = await call("/health/ready", headers=THROUGH_NGINX, client=("127.0.0.1", 40000))
    assert answer["status"] == 200 and orjson.loads(answer["body"]) == {"status": "ready"}
    assert [record.getMessage() for record in caplog.records if record.name == "operations.health"][-1] == (
        "ready again"
    )
