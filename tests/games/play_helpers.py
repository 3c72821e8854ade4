"""Helpers for the play tests: winning logs from the shared vectors, card counting."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

VECTORS = Path(__file__).resolve().parent.parent / "engine" / "vectors" / "replays.json"
CARD = re.compile(r"\b[A2-9TJQK][SHDC]\b")


@cache
def _accepted_cases() -> dict[str, dict[str, Any]]:
    cases = json.loads(VECTORS.read_text())["cases"]
    return {case["code"]: case for case in cases if case["expect"]["ok"]}


def vector_log(code: str) -> list[str]:
    """The move log of the shared vector on `code` that replays without refusal."""
    return [str(token) for token in _accepted_cases()[code]["moves"]]


def winning_log(code: str) -> list[str]:
    assert _accepted_cases()[code]["expect"]["state"]["won"], code
    return vector_log(code)


def expected_state(code: str) -> dict[str, Any]:
    return dict(_accepted_cases()[code]["expect"]["state"])


def visible_cards(view: dict[str, Any]) -> int:
    up = sum(len(column["up"]) for column in view["columns"])
    home = sum(len(pile) for pile in (view.get("foundations") or {}).values())
    return up + home


def card_mentions(document: Any) -> int:
    return len(CARD.findall(json.dumps(document)))
