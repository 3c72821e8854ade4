"""Schemathesis against /api/schema/, as an outside fuzzer runs it: every check it has, in each of
its phases (coverage, fuzzing, stateful), with a player's token, against a worker of this service on
the test database. No answer is a 5xx, every answer is as the document says, and the document allows
what the service takes and nothing else (tests/fuzz/schemathesis.toml names the few refusals that no
schema can state).

Through its command line: the coverage phase and the checks that need a run's record (use after
free, resource availability) have no public Python API to drive by hand.
"""

from __future__ import annotations

import re
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from django.utils import timezone
from rest_framework.authtoken.models import Token

from games.dailies.schedule import utc_today
from tests.conftest import make_player
from tests.daily_helpers import store_unsettled_dailies
from tests.loopback import free_port, serving, worker_env

CONFIG = Path(__file__).with_name("schemathesis.toml")
SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")
EXAMPLES = 25  # per operation and phase: enough to find what the outside runs found, in a test's time
SEED = "42"  # the same cases each run, so that a failure here is one anyone can replay

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def fuzz(url: str, token: str, workdir: Path, *scope: str) -> subprocess.CompletedProcess[str]:
    """A schemathesis run in `workdir`, where it keeps its cache: nothing learnt in one run steers another."""
    command = [
        str(SCHEMATHESIS),
        "--config-file",
        str(CONFIG),
        "--no-color",
        "run",
        f"{url}/api/schema/",
        "--checks",
        "all",
        "--header",
        f"Authorization: Token {token}",
        "--max-examples",
        str(EXAMPLES),
        "--seed",
        SEED,
        "--generation-database",
        "none",  # nothing kept from an earlier run: each run sends the same cases
        "--continue-on-failure",
        *scope,
    ]
    return subprocess.run(command, cwd=workdir, capture_output=True, text=True, timeout=600, check=False)


def test_every_operation_answers_as_its_schema_says(tmp_path: Path) -> None:
    store_unsettled_dailies(utc_today(timezone.now()))  # a daily started is a game, not a 503 "preparing"
    token = Token.objects.create(user=make_player("fuzzer")).key
    port = free_port()
    url = f"http://127.0.0.1:{port}"

    def answers() -> None:
        urllib.request.urlopen(f"{url}/api/variants", timeout=2).close()

    with serving("config.asgi:application", port=port, env=worker_env(), log=tmp_path / "worker.log", ready=answers):
        # Log-out revokes the token every other call is made with: it goes last, on its own.
        runs = [
            fuzz(url, token, tmp_path, "--exclude-operation-id", "logout"),
            fuzz(url, token, tmp_path, "--include-operation-id", "logout"),
        ]
    for run, logout_only in zip(runs, (False, True), strict=True):
        failures = run.stdout.partition("= FAILURES =")[2].partition("= SUMMARY =")[0]
        assert run.returncode == 0, (failures[:12000] or run.stdout[-4000:]) + run.stderr[-2000:]
        selected = re.search(r"Selected: (\d+)/(\d+)", run.stdout)
        assert selected is not None, run.stdout[-2000:]
        chosen, total = int(selected[1]), int(selected[2])
        assert chosen == (1 if logout_only else total - 1) and f"Tested: {chosen}" in run.stdout, run.stdout[-2000:]
