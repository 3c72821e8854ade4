"""Action tokens (docs/notation.md): parse, round-trip, and every kind of malformed token."""

from __future__ import annotations

import pytest

from games.engine import (
    DealRow,
    FromFoundation,
    MalformedAction,
    Move,
    ToFoundation,
    Undo,
    move_of,
    parse_action,
)


@pytest.mark.parametrize(
    ("token", "action", "canonical"),
    [
        ("3:4>7", Move(3, 4, 7), "3:4>7"),
        ("10:13>1", Move(10, 13, 1), "10:13>1"),
        ("D", DealRow(), "D"),
        ("d", DealRow(), "D"),
        ("U", Undo(), "U"),
        (" u ", Undo(), "U"),
        ("4>F", ToFoundation(4), "4>F"),
        ("4>f", ToFoundation(4), "4>F"),
        ("FH>3", FromFoundation("H", 3), "FH>3"),
        ("fc>1", FromFoundation("C", 1), "FC>1"),
        ("\t1:1>2\n", Move(1, 1, 2), "1:1>2"),
    ],
)
def test_parse_and_round_trip(token: str, action: object, canonical: str) -> None:
    parsed = parse_action(token)
    assert parsed == action
    assert str(parsed) == canonical
    assert parse_action(str(parsed)) == parsed
    assert parse_action(token) == parsed  # cached path gives the same


def test_actions_are_small_frozen_values() -> None:
    move = Move(1, 2, 3)
    with pytest.raises(AttributeError):
        move.count = 3  # type: ignore[misc]
    assert {Move(1, 2, 3), Move(1, 2, 3), DealRow(), DealRow()} == {Move(1, 2, 3), DealRow()}


def test_a_kept_move_is_the_same_value_as_a_new_one_and_writes_the_same_token() -> None:
    kept = move_of(4, 2, 9)
    assert move_of(4, 2, 9) is kept  # made once, then handed out again
    assert kept == Move(4, 2, 9) == parse_action("4:2>9") and hash(kept) == hash(Move(4, 2, 9))
    assert str(kept) == "4:2>9" and repr(kept) == "Move(source=4, count=2, target=9)"
    match kept:
        case Move(source, count, target):
            assert (source, count, target) == (4, 2, 9)
    with pytest.raises(AttributeError):
        kept.target = 1  # type: ignore[misc]


@pytest.mark.parametrize(
    ("token", "words"),
    [
        ("1:01>2", "leading zeros"),
        ("01:1>2", "leading zeros"),
        ("1:1>02", "leading zeros"),
        ("05>F", "leading zeros"),
        ("FH>03", "leading zeros"),
        ("1:0>2", "start at 1"),
        ("0:1>2", "start at 1"),
        ("1:1>0", "start at 1"),
        ("0>F", "start at 1"),
        ("FS>0", "start at 1"),
        ("3:4>3", "onto itself"),
        ("3: 4>7", "spaces"),
        ("3 :4>7", "spaces"),
        ("D D", "spaces"),
        ("3:4\t>7", "spaces"),
        ("１:1>2", "ASCII"),  # fullwidth digit one
        ("3:٣>7", "ASCII"),  # Arabic-Indic three
        ("3:4>７", "ASCII"),
        ("ｄ", "ASCII"),
        ("fſ>1", "ASCII"),  # 'ſ'.upper() == 'S'
        ("", "empty"),
        ("   ", "empty"),
        ("X", "not an action"),
        ("DU", "not an action"),
        ("3:4", "not an action"),
        ("3>4", "not an action"),
        ("3:4>7>8", "not an action"),
        ("-1:1>2", "not an action"),
        ("+1:1>2", "not an action"),
        ("1:1>F", "not an action"),
        ("F>1", "not an action"),
        ("FX>1", "no foundation"),
        ("FSH>1", "not an action"),
        ("1:1>2\x00", "spaces"),
        ("1234567890:1>2", "too large"),
    ],
)
def test_malformed_tokens(token: str, words: str) -> None:
    with pytest.raises(MalformedAction) as info:
        parse_action(token)
    assert words in info.value.message


@pytest.mark.parametrize("value", [None, 3, 3.5, True, b"D", ["D"], {"a": 1}, DealRow()])
def test_non_string_tokens(value: object) -> None:
    with pytest.raises(MalformedAction, match="text"):
        parse_action(value)


def test_a_token_nested_too_deeply_to_show_is_refused_with_words_not_a_recursion_error() -> None:
    from games.engine.actions import token_text

    deep: list[object] = []
    for _ in range(5_000):  # deeper than the interpreter's recursion limit
        deep = [deep]
    with pytest.raises(MalformedAction) as refused:
        parse_action(deep)
    assert token_text(deep) == "a list nested too deeply to show"
    assert refused.value.rule == "malformed_not_text"
