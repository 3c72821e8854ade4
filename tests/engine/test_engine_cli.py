"""``python -m games.engine``: deal, replay and batch, run as a user would."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        encoding="utf-8",
    )


def test_deal_prints_the_state_document() -> None:
    done = run("deal", "sp1-s4c-aaaaaaa")
    assert done.returncode == 0
    state = json.loads(done.stdout)
    assert state["code"] == "SP1-S4C-AAAAAAA" and len(state["stock"]) == 50


def test_deal_of_an_invalid_code_fails_with_a_message() -> None:
    done = run("deal", "SP1-S1R-AAAAAAA")
    assert done.returncode == 1
    assert "one suit" in json.loads(done.stdout)["error"]["message"]


def test_replay_ok_and_refused() -> None:
    done = run("replay", "SD1-S4-AAAAAAA", "1:1>2", "U")
    assert done.returncode == 0 and json.loads(done.stdout)["ok"] is True
    done = run("replay", "SD1-S4-AAAAAAA", "1:1>2", "2:5>3")
    assert done.returncode == 1
    result = json.loads(done.stdout)
    assert (result["error"]["index"], result["error"]["token"]) == (2, "2:5>3")
    assert result["state"]["moves"] == 1


def test_batch_one_line_per_case_and_bad_lines_get_error_lines() -> None:
    lines = [
        json.dumps({"code": "SD1-S4-AAAAAAA", "moves": ["1:1>2"]}),
        "not json",
        "[1, 2]",
        json.dumps({"code": "SD1-S4-AAAAAAA"}),
        json.dumps({"code": 5, "moves": []}),
        json.dumps({"code": "SD1-S4-AAAAAAA", "moves": "1:1>2"}),
        json.dumps({"code": "XX1-S4-AAAAAAA", "moves": []}),
        json.dumps({"code": "SD1-S4-AAAAAAA", "moves": [None]}),
        "",
        "{" * 100_000,
    ]
    done = run("batch", stdin="\n".join(lines) + "\n")
    assert done.returncode == 0, done.stderr
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(out) == 9  # the blank line is not a case
    assert out[0]["ok"] is True and out[0]["state"]["moves"] == 1
    for bad in out[1:7]:
        assert bad["ok"] is False and bad["state"] is None
        assert bad["error"]["index"] == 0 and bad["error"]["token"] is None
    assert out[7]["error"]["index"] == 1 and out[7]["error"]["token"] == "null"
    assert out[7]["state"]["code"] == "SD1-S4-AAAAAAA"
    assert out[8]["ok"] is False


def test_batch_survives_bytes_that_are_not_utf8() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "games.engine", "batch"],
        input=b'\xff\xfe{"code": 1}\n',
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 0
    assert json.loads(done.stdout)["ok"] is False


def test_deal_prints_a_long_code_as_the_vectors_have_it() -> None:
    done = run("deal", " sd1-s1-abcdefghijklmnopqrst ")
    assert done.returncode == 0
    vectors = json.loads((ROOT / "tests/engine/vectors/deals.json").read_text())["deals"]
    assert json.loads(done.stdout) == next(d for d in vectors if d["code"] == "SD1-S1-ABCDEFGHIJKLMNOPQRST")


def test_deal_refuses_a_code_of_another_length_saying_why() -> None:
    done = run("deal", "SP1-S4C-AAAAAAAAAA")
    assert done.returncode == 1
    assert "7 or 20 letters" in json.loads(done.stdout)["error"]["message"]
