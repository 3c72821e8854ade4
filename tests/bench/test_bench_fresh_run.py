"""bench/fresh_run.py run for real with a tiny solver budget, so that the script keeps working; no
time is asserted (the figure is in bench/README.md)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def test_fresh_run_bench_times_todays_dailies_and_stops_the_service() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO_"))}
    done = subprocess.run(
        [sys.executable, "bench/fresh_run.py", "--runs", "1", "--budget", "0.1", "--cap", "1"],
        cwd=ROOT,
        env={**env, "DAILY_PREPARE_DAYS": "0"},
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert re.search(r"^run 0: today's 7 dailies stored in [\d.]+ s, [0-7] certified$", done.stdout, re.M), done.stdout
    assert "over 1 runs" in done.stdout
