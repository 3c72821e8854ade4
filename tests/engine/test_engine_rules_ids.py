"""Every refusal names its rule: a stable id of ``rules.RULES`` and params that rebuild the English.

The English sentences below are the ones the engine gave before refusals had
ids: they must not change (clients and docs/notation.md quote them).
"""

from __future__ import annotations

import ast
import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from games.engine import (
    DealRow,
    EngineError,
    FromFoundation,
    Game,
    GameCode,
    IllegalAction,
    InvalidCode,
    MalformedAction,
    Move,
    ToFoundation,
    Undo,
    parse_action,
    parse_variant,
    replay,
)
from games.engine.rules import RULES, english
from tests.engine.engine_helpers import position

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"
SHAPES = "A:N>B, D, U, A>F or Fs>B (for example 3:4>7)"
TWENTY_ONE = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AH 2H 3H 4H 5H 6H 7H 8H"


def _push(game: Game, action: object) -> Callable[[], object]:
    return lambda: game.push(action)  # type: ignore[arg-type]


def _state(**changes: object) -> Callable[[], object]:
    doc: dict[str, object] = {"code": "SD1-S4-AAAAAAA", "columns": [{"down": [], "up": []}] * 7}
    doc.update(changes)
    return lambda: Game.from_state(doc)


def _replay_error(code: str, tokens: object) -> Callable[[], object]:
    def run() -> object:
        result = replay(code, tokens)  # type: ignore[arg-type]
        assert result.error is not None
        raise _AsError(result.error.rule, result.error.params, result.error.message)

    return run


class _AsError(Exception):
    def __init__(self, rule: str, params: dict[str, str | int], message: str) -> None:
        super().__init__(message)
        self.rule, self.params, self.message = rule, params, message


SPIDER_WON = position("SP1-S4C-AAAAAAA", [], removed="S S H H D D C C")

# (rule, what refuses, the English sentence, kind of error)
CASES: list[tuple[str, Callable[[], object], str, type[Exception]]] = [
    # ------------------------------------------------------------------- tokens
    (
        "malformed_not_text",
        lambda: parse_action(5),
        "An action is written as text, like 3:4>7; got 5 (int)",
        MalformedAction,
    ),
    ("malformed_empty", lambda: parse_action("  "), f"The action is empty: write {SHAPES}", MalformedAction),
    (
        "malformed_not_ascii",
        lambda: parse_action("1:1>é"),
        f"'1:1>é' is not an action: only ASCII digits and the letters of {SHAPES} may be used, not 'é'",
        MalformedAction,
    ),
    (
        "malformed_blank_inside",
        lambda: parse_action("1: 1>2"),
        "'1: 1>2' is not an action: an action has no spaces or other blank characters inside",
        MalformedAction,
    ),
    (
        "malformed_same_column",
        lambda: parse_action("3:1>3"),
        "'3:1>3' is not an action: a move goes from one column to another, not from column 3 onto itself",
        MalformedAction,
    ),
    (
        "malformed_no_such_foundation",
        lambda: parse_action("fx>2"),
        "'fx>2' is not an action: there is no foundation 'X', only S, H, D and C",
        MalformedAction,
    ),
    ("malformed_token", lambda: parse_action("hello"), f"'hello' is not an action: write {SHAPES}", MalformedAction),
    (
        "malformed_zero",
        lambda: parse_action("0:1>2"),
        "'0:1>2' is not an action: columns and counts start at 1, not 0",
        MalformedAction,
    ),
    (
        "malformed_leading_zero",
        lambda: parse_action("1:01>2"),
        "'1:01>2' is not an action: numbers have no leading zeros ('01')",
        MalformedAction,
    ),
    (
        "malformed_number_too_large",
        lambda: parse_action("1:1234567890>2"),
        "'1:1234567890>2' is not an action: the number 1234567890 is far too large",
        MalformedAction,
    ),
    # --------------------------------------------------------------------- play
    ("game_won", _push(SPIDER_WON, DealRow()), "The game is won: no more moves", IllegalAction),
    ("nothing_to_undo", _push(Game.from_code("SP1-S4C-AAAAAAA"), Undo()), "Nothing to undo", IllegalAction),
    (
        "no_such_column",
        _push(Game.from_code("SP1-S4C-AAAAAAA"), Move(11, 1, 1)),
        "There is no column 11: Spider has 10 columns",
        IllegalAction,
    ),
    (
        "no_such_foundation",
        _push(Game.from_code("RU1-C-AAAAAAA"), FromFoundation("X", 1)),
        "There is no foundation 'X': the foundations are S, H, D and C",
        IllegalAction,
    ),
    (
        "move_no_cards",
        _push(Game.from_code("SP1-S4C-AAAAAAA"), Move(1, 0, 2)),
        "A move takes at least one card",
        IllegalAction,
    ),
    ("column_empty", _push(position("SP1-S4C-AAAAAAA", ["", "9S"]), Move(1, 1, 2)), "Column 1 is empty", IllegalAction),
    (
        "not_enough_face_up",
        _push(position("SP1-S4C-AAAAAAA", ["5S | 9H", "TS"]), Move(1, 2, 2)),
        "Column 1 has only 1 face-up card",
        IllegalAction,
    ),
    (
        "not_a_run",
        _push(position("SP1-S4R-AAAAAAA", ["9H 7H", "TS"]), Move(1, 2, 2)),
        "Only cards in sequence move together: the 7♥ is not one rank below the 9♥",
        IllegalAction,
    ),
    (
        "group_one_suit",
        _push(position("SP1-S4C-AAAAAAA", ["9S 8H", "TS"]), Move(1, 2, 2)),
        "In Classic Spider a group must be one suit: the 8♥ is on the 9♠",
        IllegalAction,
    ),
    (
        "nothing_onto_ace",
        _push(position("SP1-S4C-AAAAAAA", ["5H", "AS"]), Move(1, 1, 2)),
        "The 5♥ doesn't fit on the A♠: nothing goes onto an ace",
        IllegalAction,
    ),
    (
        "doesnt_fit",
        _push(position("SP1-S4C-AAAAAAA", ["5H", "9S"]), Move(1, 1, 2)),
        "The 5♥ doesn't fit on the 9♠: a card goes only onto a card one rank higher",
        IllegalAction,
    ),
    (
        "doesnt_fit_same_suit",
        _push(position("RU1-C-AAAAAAA", ["7H", "8D"]), Move(1, 1, 2)),
        "The 7♥ doesn't fit on the 8♦: in Classic Russian Solitaire a card goes only onto the next higher card "
        "of the same suit",
        IllegalAction,
    ),
    (
        "empty_column_king_only",
        _push(position("RU1-C-AAAAAAA", ["7H", ""]), Move(1, 1, 2)),
        "Only a king can go to an empty column",
        IllegalAction,
    ),
    (
        "group_too_big",
        _push(position("RU1-C-AAAAAAA", [TWENTY_ONE, "9D"]), Move(1, 21, 2)),
        "At most 20 cards can move at once",
        IllegalAction,
    ),
    (
        "stock_empty",
        _push(position("SD1-S4-AAAAAAA", ["AS", "2S", "3S", "4S", "5S", "6S", "7S"]), DealRow()),
        "The stock is empty",
        IllegalAction,
    ),
    (
        "deal_with_empty_column",
        _push(
            position("SP1-S4C-AAAAAAA", ["AS", "2S", "3S", "", "5S", "6S", "7S", "8S", "9S", "TS"], stock="KH"),
            DealRow(),
        ),
        "You can't deal while a column is empty (column 4)",
        IllegalAction,
    ),
    ("no_stock", _push(Game.from_code("RU1-C-AAAAAAA"), DealRow()), "Russian Solitaire has no stock", IllegalAction),
    (
        "no_foundations",
        _push(Game.from_code("SD1-S4-AAAAAAA"), ToFoundation(1)),
        "Spiderette has no foundations",
        IllegalAction,
    ),
    (
        "foundation_not_ready",
        _push(position("RU1-C-AAAAAAA", ["9H"], foundations={"H": "AH 2H 3H 4H 5H 6H"}), ToFoundation(1)),
        "The 9♥ can't go home yet: the ♥ foundation needs a 7 first",
        IllegalAction,
    ),
    (
        "foundation_empty",
        _push(Game.from_code("RU1-R-AAAAAAA"), FromFoundation("H", 1)),
        "The ♥ foundation is empty",
        IllegalAction,
    ),
    # ---------------------------------------------------------------------- logs
    ("moves_not_a_list", _replay_error("SP1-S4C-AAAAAAA", "D"), "The moves must be a list of tokens", _AsError),
    (
        "log_too_long",
        _replay_error("SP1-S4C-AAAAAAA", ["D"] * 10_001),
        "A log has at most 10,000 actions; this one has 10,001",
        _AsError,
    ),
    # --------------------------------------------------------------------- codes
    ("code_not_text", lambda: GameCode.parse(5), "A game code must be text, not int", InvalidCode),
    ("code_empty", lambda: GameCode.parse(" "), "A game code is empty", InvalidCode),
    (
        "code_not_ascii",
        lambda: GameCode.parse("SP1-S4C-ÄAAAAAA"),
        "A game code uses only the letters A-Z, digits and '-'; 'SP1-S4C-ÄAAAAAA' has others",
        InvalidCode,
    ),
    (
        "code_parts",
        lambda: GameCode.parse("sp1-s4c"),
        "A game code has three parts joined by '-', like SP1-S4C-AAAAAAD; 'SP1-S4C' has 2",
        InvalidCode,
    ),
    ("variant_not_text", lambda: parse_variant(None), "A variant must be text, not NoneType", InvalidCode),
    ("variant_empty", lambda: parse_variant(""), "A variant is empty", InvalidCode),
    (
        "variant_not_ascii",
        lambda: parse_variant("SP1-S4Ç"),
        "A variant uses only the letters A-Z, digits and '-'; 'SP1-S4Ç' has others",
        InvalidCode,
    ),
    (
        "variant_parts",
        lambda: parse_variant("SP1-S4C-AAAAAAA"),
        "A variant has two parts joined by '-', like SP1-S4C, SD1-S2 or RU1-C; 'SP1-S4C-AAAAAAA' has 3",
        InvalidCode,
    ),
    ("variant_unknown", lambda: GameCode("SP", 3, "C", 0), "There is no variant SP1-S3C", InvalidCode),
    (
        "code_unknown_game",
        lambda: GameCode.parse("XX1-S4C-AAAAAAA"),
        "Unknown game 'XX1': a code starts with SP1 (Spider), SD1 (Spiderette) or RU1 (Russian Solitaire)",
        InvalidCode,
    ),
    (
        "code_unknown_version",
        lambda: GameCode.parse("SP2-S4C-AAAAAAA"),
        "Unknown deal version '2' in 'SP2': only version 1 exists (SP1)",
        InvalidCode,
    ),
    (
        "code_russian_rule",
        lambda: GameCode.parse("RU1-X-AAAAAAA"),
        "Russian Solitaire's rule is C (Classic) or R (Relaxed), not 'X'",
        InvalidCode,
    ),
    (
        "code_suits_shape",
        lambda: GameCode.parse("SP1-X4C-AAAAAAA"),
        "Spider's variant is S and the number of suits, like S4; not 'X4C'",
        InvalidCode,
    ),
    (
        "code_suits_count",
        lambda: GameCode.parse("SD1-S3-AAAAAAA"),
        "Spiderette is played with 1, 2 or 4 suits, not 3",
        InvalidCode,
    ),
    (
        "code_spiderette_rule",
        lambda: GameCode.parse("SD1-S4C-AAAAAAA"),
        "Spiderette has no rule letter: write SD1-S4, not SD1-S4C",
        InvalidCode,
    ),
    (
        "code_spider_rule_missing",
        lambda: GameCode.parse("SP1-S4-AAAAAAA"),
        "Spider's variant needs a rule after the suits: S4C (Classic) or S4R (Relaxed)",
        InvalidCode,
    ),
    (
        "code_spider_rule",
        lambda: GameCode.parse("SP1-S4X-AAAAAAA"),
        "Spider's rule is C (Classic) or R (Relaxed), not 'X'",
        InvalidCode,
    ),
    (
        "code_one_suit_relaxed",
        lambda: GameCode.parse("SP1-S1R-AAAAAAA"),
        "With one suit Spider has only the Classic rule (C): write SP1-S1C",
        InvalidCode,
    ),
    (
        "code_deal_number",
        lambda: GameCode.from_variant("SP1-S4C", -1),
        "The deal number must be a whole number from 0 to 8031810175",
        InvalidCode,
    ),
    (
        "code_letters_count",
        lambda: GameCode.parse("SP1-S4C-AAAA"),
        "The deal part is 7 or 20 letters A-Z, like AAAAAAD; 'AAAA' has 4",
        InvalidCode,
    ),
    (
        "code_letters",
        lambda: GameCode.parse("SP1-S4C-AAAAAA1"),
        "The deal number is made of the letters A-Z only; 'AAAAAA1' has '1'",
        InvalidCode,
    ),
    # ------------------------------------------------------- hand-made positions
    ("state_columns", _state(columns=[]), "Spiderette needs a list of 7 columns", EngineError),
    ("state_column", _state(columns=[5] * 7), "Each column is an object with 'down' and 'up' lists", EngineError),
    (
        "state_top_card",
        _state(columns=[{"down": ["AS"], "up": []}] * 7),
        "A column's top card is face-up: 'up' is empty above face-down cards",
        EngineError,
    ),
    ("state_removed", _state(removed=["X"]), "'removed' is a list of suit letters S, H, D, C", EngineError),
    ("state_foundation", _state(foundations={"X": []}), "There is no foundation 'X'", EngineError),
    ("state_counters", _state(score="a"), "'score' and 'moves' are whole numbers", EngineError),
    ("state_cards", _state(stock="AS"), "Cards are given as a list of names like 'TS'", EngineError),
    ("state_card", _state(stock=["ZZ"]), "'ZZ' is not a card (write rank then suit, like TS)", EngineError),
]


@pytest.mark.parametrize(("rule", "refuse", "sentence", "kind"), CASES, ids=[case[0] for case in CASES])
def test_each_refusal_has_its_rule_id_and_unchanged_english(
    rule: str, refuse: Callable[[], object], sentence: str, kind: type[Exception]
) -> None:
    with pytest.raises(kind) as info:
        refuse()
    error = info.value
    assert error.rule == rule  # type: ignore[attr-defined]
    assert error.message == sentence  # type: ignore[attr-defined]
    assert str(error) == sentence
    params = error.params  # type: ignore[attr-defined]
    assert all(isinstance(k, str) and type(v) in (str, int) for k, v in params.items()), params
    assert json.loads(json.dumps(params)) == params
    assert english(rule, params) == sentence  # the params alone rebuild the sentence


def test_the_cases_cover_the_whole_closed_set() -> None:
    assert sorted({case[0] for case in CASES}) == sorted(RULES)


def test_spiderette_names_its_own_group_rule() -> None:
    game = position("SD1-S4-AAAAAAA", ["9S 8H", "TS"])
    error = game.refusal_error(Move(1, 2, 2))
    assert error is not None and error.rule == "group_one_suit"
    assert error.params == {"game": "Spiderette", "card": "8H", "below": "9S"}
    assert error.message == "In Spiderette a group must be one suit: the 8♥ is on the 9♠"


def test_cards_and_columns_are_codes_and_ints() -> None:
    error = position("SP1-S4C-AAAAAAA", ["5H", "9S"]).refusal_error(Move(1, 1, 2))
    assert error is not None and error.params == {"card": "5H", "top": "9S"}
    error = position("SP1-S4C-AAAAAAA", ["5S | 9H", "TS"]).refusal_error(Move(1, 3, 2))
    assert error is not None and error.params == {"column": 1, "up": 1}
    error = position("RU1-C-AAAAAAA", [], foundations={}).refusal_error(ToFoundation(8))
    assert error is not None and error.params == {"column": 8, "game": "Russian Solitaire", "columns": 7}
    error = position("RU1-C-AAAAAAA", ["8H"]).refusal_error(ToFoundation(1))
    assert error is not None and error.params == {"card": "8H", "suit": "H", "needs": "AH"}
    assert error.message == "The 8♥ can't go home yet: the ♥ foundation needs an ace first"


def test_refusal_in_words_is_the_errors_message() -> None:
    game = position("SP1-S4C-AAAAAAA", ["5H", "9S", "6S"])
    assert game.refusal(Move(1, 1, 2)) == "The 5♥ doesn't fit on the 9♠: a card goes only onto a card one rank higher"
    assert game.refusal(Move(1, 1, 3)) is None and game.refusal_error(Move(1, 1, 3)) is None


def test_replay_errors_carry_the_rule() -> None:
    result = replay("SD1-S4-AAAAAAA", ["1:1>2", " 2:5>3 "])
    assert result.error is not None
    assert (result.error.rule, result.error.params) == ("not_enough_face_up", {"column": 2, "up": 2})
    invalid = replay("SP1-S1R-AAAAAAA", [])
    assert invalid.error is not None and invalid.error.rule == "code_one_suit_relaxed"
    assert invalid.error.to_json() == {"index": 0, "token": None, "message": invalid.error.message}


@pytest.mark.parametrize("code", ["SP1-S2C-AAAAAAB", "SP1-S4R-AAAAAAC", "SD1-S4-AAAAAAD", "RU1-C-AAAAAAE"])
def test_every_refused_move_in_random_play_names_a_known_rule(code: str) -> None:
    rng = random.Random(code)
    game = Game.from_code(code)
    width = len(game.view()["columns"])  # type: ignore[arg-type]
    seen: set[str] = set()
    for _ in range(60):
        candidates: list[object] = [DealRow(), Undo(), ToFoundation(rng.randint(1, width + 1))]
        candidates += [FromFoundation(s, rng.randint(1, width)) for s in "SHDC"]
        candidates += [
            Move(s, n, t) for s in range(1, width + 1) for n in (1, 2, 3, 7) for t in range(1, width + 1) if s != t
        ]
        for action in candidates:
            error = game.refusal_error(action)  # type: ignore[arg-type]
            if error is None:
                continue
            seen.add(error.rule)
            assert error.rule in RULES
            assert english(error.rule, error.params) == error.message == game.refusal(action)  # type: ignore[arg-type]
        legal = game.legal_actions()
        if not legal:
            break
        game.push(rng.choice(legal))
    assert seen  # refusals were met


def test_every_engine_error_in_the_source_names_a_rule_of_the_set() -> None:
    """No sentence is written at a raise any more: each error is built from a literal rule id."""
    errors = {"EngineError", "IllegalAction", "MalformedAction", "InvalidCode"}
    found: set[str] = set()
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in errors:
                first = node.args[0] if node.args else None
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    assert first.value in RULES, f"{path.name}:{node.lineno}: {first.value!r}"
                    found.add(first.value)
                elif isinstance(first, ast.Name) and first.id.startswith("_") and first.id.endswith("_RULE"):
                    continue  # a module constant holding a rule id (checked by the cases)
                else:  # codes.py: f"{what}_empty" for what in ("code", "variant")
                    assert isinstance(first, ast.JoinedStr), f"{path.name}:{node.lineno}: not a rule id"
    assert found
