"""/health/alive and /health/ready: answered by the operations layer before Django, from any Host."""

from __future__ import annotations

from collections.abc import Iterator

import orjson
import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder
from django.test import override_settings

from operations import drain, health
from tests.operations.asgi_client import call

pytestmark = pytest.mark.django_db(transaction=True)

# A worker is probed at its own address, which is no host the service answers to, from its own
# machine (the checks' detail is only for such a probe: tests/security/test_health_detail.py).
PROBE = {"Host": "10.0.3.7:8000"}
HERE = ("127.0.0.1", 40000)


@pytest.fixture
def fresh_migration_check() -> Iterator[None]:
    health._migrated = False
    yield
    health._migrated = False


async def test_alive_answers_from_any_host_without_touching_storage() -> None:
    with override_settings(REDIS_URL="redis://127.0.0.1:1/0"):
        answer = await call("/health/alive", headers=PROBE)
    assert answer["status"] == 200 and orjson.loads(answer["body"]) == {"status": "alive"}
    assert answer["headers"]["cache-control"] == "no-store"


async def test_ready_when_postgres_and_redis_answer_and_migrations_are_applied(fresh_migration_check: None) -> None:
    answer = await call("/health/ready", headers=PROBE, client=HERE)
    assert answer["status"] == 200, answer["body"]
    redis_state = "ok" if settings.REDIS_URL else "not configured"
    assert orjson.loads(answer["body"]) == {
        "status": "ready",
        "checks": {"postgres": "ok", "redis": redis_state, "migrations": "ok"},
    }


async def test_not_ready_while_redis_is_away() -> None:
    with override_settings(REDIS_URL="redis://127.0.0.1:1/0"):  # nothing listens there
        answer = await call("/health/ready", headers=PROBE, client=HERE)
    document = orjson.loads(answer["body"])
    assert answer["status"] == 503 and document["status"] == "not ready"
    assert document["checks"]["redis"].startswith("unreachable") and document["checks"]["postgres"] == "ok"


@sync_to_async
def _unrecord_latest_games_migration() -> tuple[str, str]:
    recorder = MigrationRecorder(connection)
    latest = recorder.migration_qs.filter(app="games").order_by("-name").first()
    assert latest is not None
    latest.delete()
    return latest.app, latest.name


@sync_to_async
def _record(app: str, name: str) -> None:
    MigrationRecorder(connection).record_applied(app, name)


async def test_not_ready_while_a_migration_is_not_applied(fresh_migration_check: None) -> None:
    app, name = await _unrecord_latest_games_migration()
    try:
        answer = await call("/health/ready", headers=PROBE, client=HERE)
    finally:
        await _record(app, name)
    assert answer["status"] == 503
    assert orjson.loads(answer["body"])["checks"]["migrations"] == "1 not applied (run manage.py migrate)"
    assert (await call("/health/ready", headers=PROBE, client=HERE))["status"] == 200


async def test_a_draining_worker_is_alive_but_not_ready() -> None:
    drain.state.draining = True
    try:
        ready = await call("/health/ready", headers=PROBE, client=HERE)
        alive = await call("/health/alive", headers=PROBE)
    finally:
        drain.state.draining = False
    assert ready["status"] == 503 and orjson.loads(ready["body"])["status"] == "draining"
    assert alive["status"] == 200


async def test_a_scope_of_a_type_the_service_does_not_serve_is_refused_as_channels_router_refused_it() -> None:
    from config.asgi import application

    served = application({"type": "lifespan"}, None, None)  # the coroutine the server would run
    with pytest.raises(ValueError, match="lifespan"):
        await served
