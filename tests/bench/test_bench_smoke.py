"""Each bench script, run for real on tiny counts, so the scripts keep working.

They start their own stack (a `bench_<pid>` database, daphne on loopback,
Redis db 9 under their own prefix) and clean it up. No test here asserts a
time: the figures belong in bench/README.md.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]  # the machine's, as the benches use


def run(script: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, f"bench/{script}", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "stack: stopped" in done.stdout and "dropped bench_" in done.stdout
    return done.stdout


def test_play_open_loop_answers_every_action() -> None:
    out = run("play.py", "--players", "5", "--rate", "5", "--duration", "2", "--warmup", "0.5", "--workers", "1")
    assert "answered actions: count" in out and "unanswered 0, errors 0" in out
    assert "bytes of an answer: median" in out


def test_play_direct_and_through_the_balancer_in_one_sitting() -> None:
    if not (shutil.which("nginx") or os.path.exists("/usr/sbin/nginx")):
        pytest.skip("nginx is not installed (scripts/nginx.sh)")
    out = run(
        "play.py",
        "--players",
        "4",
        "--rate",
        "5",
        "--duration",
        "2",
        "--warmup",
        "0.5",
        "--workers",
        "2",
        "--via",
        "both",
    )
    assert "refereed play direct to the workers" in out and "refereed play through nginx" in out
    assert (
        out.count("unanswered 0, errors 0") == 2 and "the balancer's cost" in out and "nginx" in out.split("cost")[-1]
    )


def test_play_saturated_with_a_profile(tmp_path: Path) -> None:
    out = run(
        "play.py",
        "--players",
        "3",
        "--saturate",
        "--duration",
        "2",
        "--warmup",
        "0.5",
        "--workers",
        "1",
        "--profile",
        "--profile-dir",
        str(tmp_path),
    )
    assert "saturated (closed loop)" in out and "unanswered 0, errors 0" in out


def test_batch_verification() -> None:
    out = run("submissions.py", "--clients", "3", "--count", "6", "--length", "60", "--workers", "1")
    assert "verified submissions (201): count 6" in out and "statuses {201: 6}" in out


def test_a_run_leaves_no_key_in_redis() -> None:
    """Every key a run made goes with it, its boards' rank index whole (its version too), or expires
    by itself within the minute (the rate limits' counters)."""
    import redis

    client = redis.Redis.from_url("redis://127.0.0.1:6379/14")  # a database no other test uses
    before = set(client.scan_iter(count=1000))
    done = subprocess.run(
        [sys.executable, "bench/submissions.py", "--clients", "3", "--count", "6", "--length", "60", "--workers", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "BENCH_REDIS_DB": "14"},
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    left = set(client.scan_iter(count=1000)) - before
    assert [key for key in left if not 0 < client.ttl(key) <= 60] == []


def test_batch_verification_in_process() -> None:
    out = run("submissions.py", "--clients", "3", "--count", "6", "--length", "60", "--in-process")
    assert "us/submission (this process, no HTTP server)" in out and "statuses {201: 6}" in out
    assert "stopped 0 daphne" in out


def test_leaderboard_read() -> None:
    out = run("leaderboard.py", "--entries", "300", "--requests", "20", "--sql-requests", "3")
    for line in ("GET /api/leaderboards/", "Redis index alone", "SQL fallback"):
        assert line in out


def test_live_push_reaches_every_watcher() -> None:
    out = run("push.py", "--subscribers", "10", "--rounds", "1", "--workers", "1")
    assert "missed: 0" in out


def test_memory() -> None:
    out = run("memory.py", "--sessions", "20", "--actions", "10", "--floor")
    assert "bytes per session" in out and "bytes per open socket, its session's cache entry included" in out
    assert "/bench/raw/" in out and "/bench/echo/" in out  # the floor, before the game keeps anything


def test_floor_measures_the_three_sockets_side_by_side() -> None:
    out = run("floor.py", "--clients", "3", "--duration", "1", "--warmup", "0.3", "--http-requests", "50")
    assert "GET /bench/raw-http/ (6,000 bytes, sequential): count 50" in out and "/request" in out
    for socket in ("/bench/raw/", "/bench/echo/", "/bench/hop/"):
        assert f"{socket:<14}: count" in out and "/message" in out
    assert "refereed play direct to the workers, 3 players" in out and "unanswered 0, errors 0" in out


def test_a_login_burst_beyond_the_cap_gets_429s_and_no_5xx() -> None:
    out = run(
        "login_burst.py",
        *("--burst", "6", "--waves", "1", "--others", "2", "--baseline", "0.5", "--workers", "1"),
        *("--wait", "0"),  # refused at once past the cap
    )
    answers = ast.literal_eval(out.split("burst answers by status: ")[1].splitlines()[0])
    assert answers.get(429) and all(status in (200, 429) for status in answers), answers
    assert "others during the bursts: count" in out


def test_fair_play_screen_on_simulated_days() -> None:
    out = run("fairplay.py", "--days", "1", "--honest", "2", "--strong", "1", "--budget", "2")
    assert "honest: won" in out and "strong: won" in out and "reading a log's blind choices: median" in out
    assert "kind           results  flagged   before" in out
    for kind in ("honest", "strong", "par_fast", "own_fast", "spread", "par_human", "par_elsewhere", "own_elsewhere"):
        assert f"\n{kind:14} " in out, kind
    assert "\nown_padded " in out


def test_quick_match_places_everyone_once() -> None:
    out = run("matching.py", "--players", "8", "--spread", "0", "--workers", "2", "--limit", "45")
    assert "placed: 8 of 8" in out and "all placed within" in out
    assert "placed twice: 0 in two rooms, 0 told two rooms, 0 queue rows naming another room" in out
