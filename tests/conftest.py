"""Shared hooks. `make test` runs the suite twice: with DATABASE_URL and REDIS_URL at the real
services, then on the embedded default (SQLite and the in-memory layer) without the tests marked
`postgres` or `redis`.

Nothing of Django is imported here at module level: the Django fixtures (tests/django_fixtures.py)
are loaded only when pytest-django runs, so `pytest tests/engine -p no:django` runs the engine's
tests without Django."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from games.models import Player


def _has_postgres() -> bool:
    from django.db import connections

    return connections["default"].vendor == "postgresql"


def _has_redis() -> bool:
    from django.conf import settings

    return bool(settings.REDIS_URL)


_NEEDS: dict[str, tuple[str, Callable[[], bool], str]] = {
    "postgres": ("PostgreSQL", _has_postgres, "DATABASE_URL"),
    "redis": ("Redis", _has_redis, "REDIS_URL"),
}


def pytest_configure(config: pytest.Config) -> None:
    if config.pluginmanager.has_plugin("django"):
        config.pluginmanager.import_plugin("tests.django_fixtures")


def _missing(item: pytest.Item) -> str | None:
    for marker, (service, present, variable) in _NEEDS.items():
        if item.get_closest_marker(marker) is not None and not present():
            return f"needs {service}: set {variable} (the embedded default has none)"
    return None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test marked `postgres` or `redis` needs that service by nature: on the embedded default
    (SQLite, the in-memory layer) it is skipped, saying why."""
    if os.environ.get("CI"):
        return  # CI runs these tests on the services: see pytest_runtest_setup
    for item in items:
        if reason := _missing(item):
            item.add_marker(pytest.mark.skip(reason=reason))


def pytest_runtest_setup(item: pytest.Item) -> None:
    """In CI a missing service fails the tests that need it (its embedded run deselects them with -m)."""
    if os.environ.get("CI") and (reason := _missing(item)):
        pytest.fail(reason, pytrace=False)


def make_player(name: str = "alice", password: str = "correct horse 9") -> Player:
    from games.models import Player

    player = Player(username=name)
    player.set_password(password)
    player.save()
    return player
