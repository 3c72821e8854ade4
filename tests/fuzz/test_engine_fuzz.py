"""Fuzzing the engine with what a hostile client may send: only the documented refusals, never a crash.

`Game.apply` refuses with an EngineError subclass (and then the game is unchanged);
`replay` and `GameCode.parse` never raise anything else, whatever they are given.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    ALL_VARIANTS,
    DEAL_NUMBERS,
    EngineError,
    Game,
    GameCode,
    InvalidCode,
    replay,
)

FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
every_variant = pytest.mark.parametrize("variant", ALL_VARIANTS)

numbers = st.integers(-3, 14).map(str) | st.sampled_from(["0", "01", "007", "", "+1", "1.0", "٣", "9" * 30])
token_like = st.one_of(
    st.builds(lambda a, n, b: f"{a}:{n}>{b}", numbers, numbers, numbers),
    st.builds(lambda a: f"{a}>F", numbers),
    st.builds(lambda s, b: f"F{s}>{b}", st.sampled_from(list("SHDCXshdc") + ["", "SS", "♠"]), numbers),
    st.sampled_from(["D", "U", "d", "u", " D ", "DD", "", " ", "D\n", "U\x00", "1:1 > 2", "1:1>2>3"]),
)
# Mostly well-formed tokens on small columns (so some are legal), then anything at all.
tokens = st.one_of(token_like, token_like, st.text(max_size=16))
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)


def deal(variant: str, number: int) -> Game:
    return Game.from_code(GameCode.from_variant(variant, number))


@every_variant
@FUZZ
@given(number=st.integers(0, DEAL_NUMBERS - 1), sequence=st.lists(tokens, max_size=40))
def test_apply_accepts_or_refuses_with_an_engine_error_and_a_refusal_changes_nothing(
    variant: str, number: int, sequence: list[str]
) -> None:
    game = deal(variant, number)
    applied = 0
    for token in sequence:
        before = game.state()
        try:
            game.apply(token)
        except EngineError as refusal:
            assert refusal.message and game.state() == before
        else:
            applied += 1
    # The replay of the same log agrees: it stops at the first refusal, or plays it all.
    result = replay(game.code, sequence)
    assert result.ok == (applied == len(sequence))


@every_variant
@FUZZ
@given(number=st.integers(0, DEAL_NUMBERS - 1), sequence=st.lists(json_values | tokens, max_size=20))
def test_replay_never_raises_on_any_json(variant: str, number: int, sequence: list[Any]) -> None:
    result = replay(str(GameCode.from_variant(variant, number)), sequence)
    if not result.ok:
        assert result.error is not None and result.error.message
        assert 1 <= result.error.index <= len(sequence)


@FUZZ
@given(code=json_values | st.text(max_size=24), moves=json_values)
def test_replay_never_raises_on_any_code_or_log(code: Any, moves: Any) -> None:
    result = replay(code, moves)
    assert result.ok or (result.error is not None and result.error.message)


@FUZZ
@given(text=st.text(max_size=24) | st.from_regex(r"\s*(sp|sd|ru|xx)1-(s[0-9]|[crx])?[cr]?-?[a-z]{0,8}\s*"))
def test_a_code_parses_or_is_refused_as_invalid(text: str) -> None:
    try:
        code = GameCode.parse(text)
    except InvalidCode as refusal:
        assert refusal.message
    else:
        assert str(GameCode.parse(str(code))) == str(code)
