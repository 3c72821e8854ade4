"""bench/solver.py run for real on tiny counts, so that the script keeps working; no time is asserted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_solver_bench_prints_a_line_per_variant() -> None:
    done = subprocess.run(
        [sys.executable, "bench/solver.py", "--budget", "2", "--deals", "2", "--variants", "RU1-R,SD1-S1", "--verbose"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert lines[0] == "solver: 2 deals per variant, budget 2 s each, one core"
    rows = {line.split()[0]: line.split() for line in lines if line.startswith(("RU1-R ", "SD1-S1 "))}
    assert set(rows) == {"RU1-R", "SD1-S1"}
    for row in rows.values():
        assert sum(int(n) for n in row[1:4]) == 2
    assert sum(1 for line in lines if line.startswith("  RU1-R-")) == 2


def test_solver_bench_refuses_a_budget_out_of_range() -> None:
    done = subprocess.run(
        [sys.executable, "bench/solver.py", "--budget", "0"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and "--budget" in done.stderr
