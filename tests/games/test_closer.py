"""One closer at a time (games.dailies.closer_lock): a second closer started by mistake stands by, prepares
and closes nothing while the first holds the lock, and takes over once the first is gone, also
when it was killed. On PostgreSQL the lock is an advisory lock, on SQLite an flock beside the file."""

from __future__ import annotations

import datetime as dt
import io
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection

from games.dailies.closer_lock import FileLock, closer_lock
from games.engine import DAILY_VARIANTS
from games.management.commands.close_dailies import STANDING_BY
from games.models import Daily, DailyCandidate
from tests.loopback import ROOT, database_url_of, service_env
from tests.operations.test_make_run import Output, alive, fresh_env

TAKES_OVER = "the other closer is gone; this one takes over"
READY = r"today's dailies: 7 of 7 ready"
CLOSER = [sys.executable, "manage.py", "close_dailies", "--loop", "1"]


@pytest.fixture(autouse=True)
def _small_solver(settings):  # type: ignore[no-untyped-def]
    settings.DAILY_SOLVER_BUDGET_SECONDS = 0.05
    settings.DAILY_CANDIDATE_CAP = 1
    settings.DAILY_PREPARE_DAYS = 0


@pytest.mark.django_db
def test_the_lock_is_held_by_one_at_a_time_and_let_go_when_released() -> None:
    first, second = closer_lock(), closer_lock()
    try:
        assert first.acquire()
        assert first.acquire()  # held: asking again keeps it
        assert not second.acquire()
        first.release()
        assert second.acquire()
        assert not first.acquire()
    finally:
        first.release()
        second.release()


@pytest.mark.django_db
def test_a_closer_that_finds_the_lock_taken_closes_and_prepares_nothing() -> None:
    other = closer_lock()
    assert other.acquire()
    try:
        out = io.StringIO()
        call_command("close_dailies", stdout=out)
        assert out.getvalue().strip() == STANDING_BY
        assert Daily.objects.count() == DailyCandidate.objects.count() == 0
    finally:
        other.release()
    out = io.StringIO()
    call_command("close_dailies", stdout=out)
    assert Daily.objects.count() == len(DAILY_VARIANTS), out.getvalue()
    assert STANDING_BY not in out.getvalue()


@pytest.fixture(scope="module")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated SQLite file, copied by each test that runs closers on one of its own."""
    directory = tmp_path_factory.mktemp("migrated")
    done = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT,
        env=fresh_env(directory),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return directory / "db.sqlite3"


@pytest.fixture
def sqlite_closers(migrated_sqlite: Path, tmp_path: Path) -> Iterator[list[Output]]:
    """Closers a test starts (appended), on a SQLite file of its own; killed after it."""
    shutil.copyfile(migrated_sqlite, tmp_path / "db.sqlite3")
    started: list[Output] = []
    try:
        yield started
    finally:
        for closer in started:
            closer.stop()


def _rows(database: Path, table: str) -> int:
    with sqlite3.connect(database) as db:
        return int(db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])  # noqa: S608 - the tests' own names


def test_on_sqlite_a_closer_stands_by_behind_the_file_lock_then_takes_over(
    sqlite_closers: list[Output], tmp_path: Path
) -> None:
    database = tmp_path / "db.sqlite3"
    held = FileLock(Path(f"{database}.closer.lock"))  # another closer, as far as the file lock says
    assert held.acquire()
    try:
        closer = Output(CLOSER, fresh_env(tmp_path))
        sqlite_closers.append(closer)
        closer.wait_for(STANDING_BY, 60)
        time.sleep(3)  # three rounds of its loop
        assert _rows(database, "games_dailycandidate") == _rows(database, "games_daily") == 0
        assert closer.lines.count(STANDING_BY) == 1, closer.text  # said once, not every round
    finally:
        held.release()
    closer.wait_for(TAKES_OVER, 10)
    closer.wait_for(READY, 60)
    assert _rows(database, "games_daily") == len(DAILY_VARIANTS)


def test_on_sqlite_a_second_closer_takes_over_when_the_first_is_killed(
    sqlite_closers: list[Output], tmp_path: Path
) -> None:
    first = Output(CLOSER, fresh_env(tmp_path))
    sqlite_closers.append(first)
    first.wait_for(READY, 60)
    second = Output(CLOSER, fresh_env(tmp_path, DAILY_PREPARE_DAYS="1"))  # it would have work: tomorrow's
    sqlite_closers.append(second)
    second.wait_for(STANDING_BY, 60)
    time.sleep(2)
    assert _rows(database := tmp_path / "db.sqlite3", "games_daily") == len(DAILY_VARIANTS)
    first.process.send_signal(signal.SIGKILL)
    first.process.wait(timeout=10)
    second.wait_for(TAKES_OVER, 10)
    second.wait_for(r"\d{4}-\d\d-\d\d \S+: (certified winnable|not certified)", 60)  # tomorrow's, by the second
    assert alive(second.process.pid)
    deadline = time.monotonic() + 60
    while _rows(database, "games_daily") < 2 * len(DAILY_VARIANTS):
        assert time.monotonic() < deadline, second.text
        time.sleep(0.2)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)  # the closer's process sees what this test's connection sees
def test_on_postgresql_a_closer_stands_by_behind_the_advisory_lock_then_takes_over(tmp_path: Path) -> None:
    held = closer_lock()  # another closer, as far as PostgreSQL's advisory lock says
    assert held.acquire()
    env = service_env(
        database_url=database_url_of(connection.settings_dict),
        redis_url="",
        DAILY_SOLVER_BUDGET_SECONDS="0.05",
        DAILY_CANDIDATE_CAP="1",
        DAILY_PREPARE_DAYS="0",
    )
    closer = Output(CLOSER, env)
    try:
        try:
            closer.wait_for(STANDING_BY, 60)
            time.sleep(3)
            assert Daily.objects.count() == DailyCandidate.objects.count() == 0
        finally:
            held.release()
        closer.wait_for(TAKES_OVER, 10)
        closer.wait_for(READY, 60)
        today = dt.datetime.now(dt.UTC).date()
        assert Daily.objects.filter(date=today).count() == len(DAILY_VARIANTS)
    finally:
        closer.stop()
