"""`make run` serves: its worker command starts from a shell with nothing set, as a new user's does."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.loopback import free_port

ROOT = Path(__file__).resolve().parents[2]


def _run_recipe_worker_command(port: int) -> list[str]:
    """The Makefile's `run` recipe's last line (the worker), with its variables filled in."""
    recipe = (ROOT / "Makefile").read_text().split("\nrun:", 1)[1].split("\n\n", 1)[0]
    line = recipe.strip().splitlines()[-1].strip()
    line = line.replace("$(BIN)/python", sys.executable).replace("$(HOST)", "127.0.0.1")
    return shlex.split(line.replace("$(PORT)", str(port)))


def test_the_worker_make_run_starts_answers_without_any_setting() -> None:
    port = free_port()
    command = _run_recipe_worker_command(port)
    assert command[1:3] == ["-m", "operations.server"], command
    # No DJANGO_SETTINGS_MODULE, no storage: what a fresh shell has. /health/alive touches no storage,
    # so the user's db.sqlite3 is not opened.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST", "DATABASE_", "REDIS_"))}
    worker = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            assert worker.poll() is None, worker.stdout.read().decode() if worker.stdout else ""
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health/alive", timeout=2) as answer:
                    assert answer.status == 200
                    return
            except OSError:
                assert time.monotonic() < deadline, "the worker did not answer within 30 s"
                time.sleep(0.2)
    finally:
        worker.terminate()
        worker.wait(timeout=15)
