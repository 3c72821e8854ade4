"""Every deal and every replay of the independent implementation's vectors (shared/vectors)."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import Game, replay
from tests.engine.engine_helpers import load_vectors

DEALS = load_vectors("deals.json")["deals"]
REPLAYS = load_vectors("replays.json")["cases"]


@pytest.mark.parametrize("expected", DEALS, ids=[d["code"] for d in DEALS])
def test_deal_card_for_card(expected: dict[str, Any]) -> None:
    assert Game.from_code(expected["code"]).state() == expected


def test_spec_example_face_up_cards() -> None:
    state = Game.from_code("SP1-S4C-AAAAAAA").state()
    tops = [c["up"][0] for c in state["columns"]]  # type: ignore[attr-defined]
    assert tops == "2D 6S 9H JC JD KD 6H KS 4S QD".split()


@pytest.mark.parametrize("case", REPLAYS, ids=[f"{i}-{c['code']}" for i, c in enumerate(REPLAYS)])
def test_replay_case(case: dict[str, Any]) -> None:
    expect = case["expect"]
    result = replay(case["code"], case["moves"]).to_json()
    assert result["ok"] is expect["ok"]
    if expect["error"] is None:
        assert result["error"] is None
    else:
        error = result["error"]
        assert isinstance(error, dict)
        assert (error["index"], error["token"]) == (expect["error"]["index"], expect["error"]["token"])
        assert isinstance(error["message"], str) and error["message"]
    assert result["state"] == expect["state"]


def test_hjszozn_counts_lower_case_deals_and_undos() -> None:
    """92 tokens: 86 moves, 4 deals (one written 'd'), 2 undos (one 'u') -> 88 counted, 812."""
    case = next(c for c in REPLAYS if c["code"] == "SD1-S1-HJSZOZN")
    tokens = case["moves"]
    assert len(tokens) == 92
    assert sum(t.upper() == "D" for t in tokens) == 4
    assert sum(t.upper() == "U" for t in tokens) == 2
    game = replay(case["code"], tokens).game
    assert game is not None and game.won
    assert game.moves == 86 + 4 - 2 == 88
    assert game.score == 500 - 88 + 400 == 812
