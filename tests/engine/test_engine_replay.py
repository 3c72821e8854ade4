"""replay(): the verification of a whole log; it never raises for bad input."""

from __future__ import annotations

import pytest

from games.engine import MAX_LOG_TOKENS, Game, GameCode, ReplayError, replay


def test_ok_result_and_json() -> None:
    result = replay("SD1-S4-AAAAAAA", ["1:1>2", "U", "1:1>2"])
    assert result.ok and result.error is None and result.game is not None
    doc = result.to_json()
    assert doc["ok"] is True and doc["error"] is None
    assert doc["state"] == result.game.state()
    live = Game.from_code("SD1-S4-AAAAAAA")
    for token in ("1:1>2", "U", "1:1>2"):
        live.apply(token)
    assert live.state() == doc["state"]


def test_first_refusal_ends_the_replay_with_position_token_and_rule() -> None:
    result = replay(GameCode.parse("SD1-S4-AAAAAAA"), ["1:1>2", " 2:5>3 ", "D"])
    assert not result.ok
    assert result.error == ReplayError(2, " 2:5>3 ", "Column 2 has only 2 face-up cards")
    assert str(result.error) == "action 2 ( 2:5>3 ): column 2 has only 2 face-up cards"
    assert result.game is not None and result.game.moves == 1  # the state before the refusal


def test_error_string_in_the_spec_shape() -> None:
    error = ReplayError(17, "3:4>7", "In Classic Spider a group must be one suit")
    assert str(error) == "action 17 (3:4>7): in Classic Spider a group must be one suit"
    assert str(ReplayError(0, None, "Unknown game 'XX1'")) == "Unknown game 'XX1'"


def test_a_refusal_that_begins_with_a_game_s_name_keeps_its_capital() -> None:
    result = replay("RU1-C-AAAAAAA", ["D"])
    assert str(result.error) == "action 1 (D): Russian Solitaire has no stock"


@pytest.mark.parametrize(
    ("token", "echo"),
    [(1, "1"), (None, "null"), (["D"], '["D"]'), ({"a": 1}, '{"a": 1}'), (True, "true"), (1.5, "1.5")],
)
def test_non_string_tokens_are_echoed_as_json(token: object, echo: str) -> None:
    result = replay("SP1-S4C-AAAAAAA", [token])
    assert result.error is not None
    assert (result.error.index, result.error.token) == (1, echo)


def test_malformed_tokens_are_echoed_exactly() -> None:
    result = replay("RU1-C-AAAAABB", ["1:01>2"])
    assert result.error is not None and result.error.token == "1:01>2"
    assert "leading zeros" in result.error.message


def test_invalid_code_is_refused_before_replay() -> None:
    for code in ("SP1-S1R-AAAAAAA", "nonsense", 42, None):
        result = replay(code, ["D"])  # type: ignore[arg-type]
        assert not result.ok and result.game is None
        assert result.error is not None and (result.error.index, result.error.token) == (0, None)
        assert result.to_json()["state"] is None


def test_more_than_10000_tokens_are_refused_before_replay() -> None:
    assert MAX_LOG_TOKENS == 10_000
    result = replay("SP1-S4C-AAAAAAA", ["X"] * 10_001)
    assert result.error is not None and (result.error.index, result.error.token) == (0, None)
    assert result.game is not None and result.game.moves == 0
    result = replay("SP1-S4C-AAAAAAA", ["X"] * 10_000)
    assert result.error is not None and result.error.index == 1  # 10,000 is allowed


@pytest.mark.parametrize("tokens", ["1:1>2", b"D", 7, None])
def test_tokens_must_be_a_list(tokens: object) -> None:
    result = replay("SP1-S4C-AAAAAAA", tokens)  # type: ignore[arg-type]
    assert not result.ok and result.error is not None and result.error.index == 0


def test_nothing_after_a_win_not_even_undo() -> None:
    from tests.engine.engine_helpers import load_vectors

    case = next(c for c in load_vectors("replays.json")["cases"] if c["code"] == "RU1-C-MFXTMVO")
    result = replay(case["code"], case["moves"] + ["U"])
    assert result.error is not None and result.error.index == len(case["moves"]) + 1
    assert result.error.message == "The game is won: no more moves"
    assert result.game is not None and result.game.won


def test_apply_returns_the_parsed_action() -> None:
    game = Game.from_code("SD1-S4-AAAAAAA")
    assert str(game.apply(" 1:1>2 ")) == "1:1>2"
