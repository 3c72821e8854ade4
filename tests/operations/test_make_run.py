"""`make run` serves and keeps the closer: its recipe's commands, run as a new user's shell runs them
(nothing set but a fresh SQLite file in a temporary directory, and a small solver budget), start a
worker that answers and a closer that stores today's dailies; Ctrl-C stops both, and a closer
that dies is started again."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shlex
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from games.engine import DAILY_VARIANTS
from tests.loopback import free_port

ROOT = Path(__file__).resolve().parents[2]
PIDS = re.compile(r"run: the worker \(pid (\d+)\) and the closer \(pid (\d+)\) are running")


def run_recipe(port: int) -> list[list[str]]:
    """The Makefile's `run` recipe (migrate, then the worker and the closer), its variables filled in."""
    recipe = (ROOT / "Makefile").read_text().split("\nrun:", 1)[1].split("\n\n", 1)[0]
    lines = [line.strip() for line in recipe.strip().splitlines()[1:]]
    filled = (line.replace("$(BIN)/python", sys.executable).replace("$(HOST)", "127.0.0.1") for line in lines)
    return [shlex.split(line.replace("$(PORT)", str(port))) for line in filled]


def fresh_env(directory: Path, **extra: str) -> dict[str, str]:
    """What a fresh shell has (no DJANGO_ settings, no storage), a SQLite file of the test's own,
    and a solver budget small enough for a test."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST", "DATABASE_", "REDIS_"))}
    env.update(SQLITE_PATH=str(directory / "db.sqlite3"), DAILY_SOLVER_BUDGET_SECONDS="0.2", DAILY_CANDIDATE_CAP="2")
    env.update(DAILY_PREPARE_DAYS="0", PYTHONUNBUFFERED="1")
    env.update(extra)
    return env


class Output:
    """A process started with its output read line by line on a thread, to wait for a line."""

    def __init__(self, command: list[str], env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def wait_for(self, pattern: str, timeout: float, *, after: int = 0) -> re.Match[str]:
        """The first line from index `after` on that matches `pattern`, waiting up to `timeout` s."""
        deadline = time.monotonic() + timeout
        while True:
            for line in self.lines[after:]:
                if found := re.search(pattern, line):
                    return found
            assert self.process.poll() is None or time.monotonic() < deadline, f"exited:\n{self.text}"
            assert time.monotonic() < deadline, f"no line like {pattern!r} in {timeout:.0f} s:\n{self.text}"
            time.sleep(0.1)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


def alive(pid: int) -> bool:
    """Whether `pid` is a process that has not ended (a zombie has ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health/alive", timeout=2) as answer:
            return bool(answer.status == 200)
    except OSError:
        return False


def todays_dailies(directory: Path) -> list[tuple[str, int]]:
    today = dt.datetime.now(dt.UTC).date().isoformat()
    with sqlite3.connect(directory / "db.sqlite3") as db:
        return db.execute("SELECT variant, certified FROM games_daily WHERE date = ?", [today]).fetchall()


def start_make_run(directory: Path, **extra: str) -> tuple[Output, int]:
    """`make run`'s recipe on a fresh SQLite file: (the running service's output, its port)."""
    port = free_port()
    *before, command = run_recipe(port)
    env = fresh_env(directory, **extra)
    for step in before:
        done = subprocess.run(step, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
    return Output(command, env), port


@pytest.fixture
def make_run(tmp_path: Path) -> Iterator[tuple[Output, int]]:
    service, port = start_make_run(tmp_path)
    try:
        yield service, port
    finally:
        service.stop()


def ask(port: int, path: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"Accept-Language": "en"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_from_its_first_second_make_run_says_todays_dailies_are_being_prepared_until_they_are(
    tmp_path: Path,
) -> None:
    """The home page and GET /api/daily, asked from the worker's first answer on while the closer
    prepares (a budget that keeps the 4-suit dailies in preparation for some seconds): never an
    error, "preparing" with Retry-After until the closer stores each, then all ready; no read stores
    a daily (what the closer stores is all there is)."""
    service, port = start_make_run(tmp_path, DAILY_SOLVER_BUDGET_SECONDS="2", DAILY_CANDIDATE_CAP="3")
    try:
        deadline = time.monotonic() + 30
        while not answers(port):
            assert time.monotonic() < deadline, f"the worker did not answer within 30 s:\n{service.text}"
            time.sleep(0.1)
        seen: list[list[str]] = []
        deadline = time.monotonic() + 120
        while not seen or "preparing" in seen[-1]:
            assert time.monotonic() < deadline, f"today's dailies were not ready in 120 s:\n{service.text}"
            home, _, page = ask(port, "/")
            assert home == 200 and b"data-dailies" in page
            status, headers, body = ask(port, "/api/daily")
            assert status == 200, body
            entries = json.loads(body)["dailies"]
            assert [e["variant"] for e in entries] == list(DAILY_VARIANTS)
            statuses = [e["status"] for e in entries]
            assert ("Retry-After" in headers) == ("preparing" in statuses)
            stored = {variant for variant, _ in todays_dailies(tmp_path)}  # read after the answer
            assert {e["variant"] for e in entries if e["status"] == "ready"} <= stored
            seen.append(statuses)
            time.sleep(0.3)
        assert "preparing" in seen[0], seen  # the first answers came while the closer was at work
        assert {e for e in seen[-1]} == {"ready"}
        final = json.loads(ask(port, "/api/daily")[2])["dailies"]
        assert all(e["certification"] in ("certified", "none_won") for e in final)
        # Each daily stored was stored by the closer, which names each on the terminal as it stores it.
        named = [line for line in service.lines if re.match(r"\d{4}-\d\d-\d\d \S+: ", line)]
        assert len(named) == len(todays_dailies(tmp_path)) == len(DAILY_VARIANTS), service.text
    finally:
        service.stop()


def test_the_recipe_migrates_then_runs_the_worker_and_the_closer() -> None:
    steps = run_recipe(8000)
    assert [step[1:] for step in steps[:-1]] == [["manage.py", "migrate", "--noinput"]]
    assert steps[-1][1:3] == ["-m", "operations.run"], steps
    assert steps[-1][3:] == ["-b", "127.0.0.1", "-p", "8000", "config.asgi:application"]


def test_make_run_serves_and_stores_todays_dailies_then_ctrl_c_stops_everything(
    make_run: tuple[Output, int], tmp_path: Path
) -> None:
    service, port = make_run
    worker, closer = (int(pid) for pid in service.wait_for(PIDS.pattern, 30).groups())
    deadline = time.monotonic() + 30
    while not answers(port):
        assert time.monotonic() < deadline, f"the worker did not answer within 30 s:\n{service.text}"
        time.sleep(0.2)
    ready = service.wait_for(r"today's dailies: (\d+) of (\d+) ready in \d+ s", 120)
    assert ready.groups() == (str(len(DAILY_VARIANTS)),) * 2
    stored = todays_dailies(tmp_path)
    assert sorted(variant for variant, _ in stored) == sorted(DAILY_VARIANTS)
    # One line a daily as it is stored: its date, variant, verdict and time, nothing of its code.
    lines = [line for line in service.lines if re.match(r"\d{4}-\d\d-\d\d ", line)]
    assert len(lines) == len(DAILY_VARIANTS), service.text
    assert all(re.fullmatch(r"\S+ \S+: (certified winnable|not certified) \(\d+ s\)", line) for line in lines)
    with sqlite3.connect(tmp_path / "db.sqlite3") as db:
        codes = [code for (code,) in db.execute("SELECT code FROM games_dailycandidate")]
    assert codes and not any(code in service.text for code in codes)

    # What the terminal's Ctrl-C sends to the foreground group (the children have groups of their own).
    service.process.send_signal(signal.SIGINT)
    assert service.process.wait(timeout=60) == 0, service.text
    assert not alive(worker) and not alive(closer), service.text


def test_a_closer_that_dies_is_started_again_and_said_so(make_run: tuple[Output, int]) -> None:
    service, _ = make_run
    worker, closer = (int(pid) for pid in service.wait_for(PIDS.pattern, 30).groups())
    service.wait_for(r"today's dailies: ", 120)
    os.kill(closer, signal.SIGKILL)
    service.wait_for(r"run: the closer was killed by SIGKILL; starting it again in \d+ s", 10)
    again = int(service.wait_for(r"run: the closer started again \(pid (\d+)\)", 20).group(1))
    assert again != closer and alive(again) and alive(worker)
    # The closer started again finds today's dailies stored already.
    service.wait_for(r"today's dailies: \d+ of \d+ ready \(prepared before\)", 60)
    service.process.send_signal(signal.SIGINT)
    assert service.process.wait(timeout=60) == 0, service.text
    assert not alive(again) and not alive(worker)


def test_the_service_stops_when_its_worker_ends(make_run: tuple[Output, int]) -> None:
    service, _ = make_run
    worker, closer = (int(pid) for pid in service.wait_for(PIDS.pattern, 30).groups())
    os.kill(worker, signal.SIGKILL)
    assert service.process.wait(timeout=30) != 0
    assert "run: the worker was killed by SIGKILL; stopping the closer" in service.text
    deadline = time.monotonic() + 10
    while alive(closer):
        assert time.monotonic() < deadline, "the closer outlived the service"
        time.sleep(0.1)
