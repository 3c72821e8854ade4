"""Settings come from the environment; production refuses to start without real secrets."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(__file__)))


def _load_settings(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY"}}
    clean.update(env)
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.DATABASES['default']['ENGINE'], settings.CHANNEL_LAYERS['default']['BACKEND'], settings.DEBUG)"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_embedded_default_is_sqlite_and_in_memory_layer() -> None:
    out = _load_settings({})
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["django.db.backends.sqlite3", "channels.layers.InMemoryChannelLayer", "True"]


def test_urls_switch_to_postgresql_and_redis() -> None:
    out = _load_settings({"DATABASE_URL": "postgres://u@127.0.0.1:5432/x", "REDIS_URL": "redis://127.0.0.1:6379/0"})
    assert out.returncode == 0, out.stderr
    # PostgreSQL through Django's own backend, with its pool (DB_POOL, the default).
    assert out.stdout.split()[:2] == ["django.db.backends.postgresql", "channels_redis.pubsub.RedisPubSubChannelLayer"]
    out = _load_settings({"DATABASE_URL": "postgres://u@127.0.0.1:5432/x", "DB_POOL": "false"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[0] == "django.db.backends.postgresql"


@pytest.mark.parametrize(
    "env, complaint",
    [
        ({}, "SECRET_KEY"),
        ({"SECRET_KEY": "dev-insecure-secret-key-only-for-the-embedded-run"}, "SECRET_KEY"),
        ({"SECRET_KEY": "x" * 40}, "DAILY_SECRET"),
        ({"SECRET_KEY": "x" * 40, "DAILY_SECRET": "y" * 20}, "ALLOWED_HOSTS"),
        ({"SECRET_KEY": "x" * 40, "DAILY_SECRET": "y" * 20, "ALLOWED_HOSTS": "a.example", "DEBUG": "1"}, "DEBUG"),
    ],
)
def test_production_refuses_to_start_without_real_secrets(env: dict[str, str], complaint: str) -> None:
    out = _load_settings({"APP_ENV": "production", **env})
    assert out.returncode != 0
    assert "ImproperlyConfigured" in out.stderr and complaint in out.stderr


def test_production_starts_with_real_secrets() -> None:
    out = _load_settings(
        {"APP_ENV": "production", "SECRET_KEY": "k" * 50, "DAILY_SECRET": "d" * 32, "ALLOWED_HOSTS": "league.example"}
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[-1] == "False"


@pytest.mark.django_db
def test_the_test_database_is_never_the_one_make_run_serves() -> None:
    from django.conf import settings
    from django.db import connection

    name = str(connection.settings_dict["NAME"])
    if connection.vendor == "sqlite":  # a file in the temporary directory (tests/conftest.py)
        path = Path(name).resolve()
        assert path.is_relative_to(Path(tempfile.gettempdir()).resolve()) and path.is_file()
        assert path != (Path(settings.BASE_DIR) / "db.sqlite3").resolve()
    else:
        assert name.startswith("test_")


@pytest.mark.parametrize(
    ("env", "complaint"),
    [
        ({"DAILY_SOLVER_BUDGET_SECONDS": "soon"}, "DAILY_SOLVER_BUDGET_SECONDS must be a number"),
        ({"DAILY_SOLVER_BUDGET_SECONDS": "0"}, "DAILY_SOLVER_BUDGET_SECONDS must be above 0"),
        ({"DAILY_CANDIDATE_CAP": "0"}, "DAILY_CANDIDATE_CAP at least 1"),
        ({"DAILY_PREPARE_DAYS": "-1"}, "DAILY_PREPARE_DAYS 0 or more"),
    ],
)
def test_the_daily_solver_settings_refuse_what_cannot_work(env: dict[str, str], complaint: str) -> None:
    out = _load_settings(env)
    assert out.returncode != 0 and complaint in out.stderr


def test_the_daily_solver_settings_come_from_the_environment() -> None:
    env = {"DAILY_SOLVER_BUDGET_SECONDS": "2.5", "DAILY_CANDIDATE_CAP": "7", "DAILY_PREPARE_DAYS": "0"}
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.DAILY_SOLVER_BUDGET_SECONDS, s.DAILY_CANDIDATE_CAP, s.DAILY_PREPARE_DAYS)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, **env, "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["2.5", "7", "0"]
