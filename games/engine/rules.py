"""The closed set of refusals: a stable rule id, its parameters, and its English sentence.

Every ``EngineError`` carries ``rule`` (a key of ``RULES``) and ``params`` (a
small dict of ``str | int``), and builds its English ``message`` from them only
when asked. Clients and translators key on the rule id; the English text is
what it always was.

Parameters are named by what they hold, and the name says how English shows it:

- ``card``, ``below``, ``top``: a card as written in docs/rules.md (``"8H"``), shown ``8♥``;
- ``needs``: the card a foundation needs next (``"7H"``), shown by rank (``a 7``);
- ``suit``: a foundation's suit letter (``"H"``), shown as its symbol ``♥``;
- ``text``, ``char``, ``digits``, ``letter``, ``head``, ``version``, ``body``,
  ``letters``: text as it was given, shown quoted (Python ``repr``);
- ``limit``, ``count``: numbers of actions, shown grouped (``10,000``);
- ``up``: a count of face-up cards (the sentence says card or cards);
- ``game``: a game's name (``Spider``, ``Spiderette``, ``Russian Solitaire``);
- anything else (``column``, ``columns``, ``number``, ...): shown as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, TypeAlias

from .cards import CARD_OF_NAME, SUIT_SYMBOLS, SUITS, display, rank_word

Params: TypeAlias = dict[str, str | int]

SHAPES: Final = "A:N>B, D, U, A>F or Fs>B (for example 3:4>7)"
_EXAMPLE_CODE: Final = "SP1-S4C-AAAAAAD"

RULES: Final[dict[str, str]] = {
    # ---------------------------------------------------------- tokens (MalformedAction)
    "malformed_not_text": "An action is written as text, like 3:4>7; got {token} ({type})",
    "malformed_empty": "The action is empty: write " + SHAPES,
    "malformed_not_ascii": (
        "{text} is not an action: only ASCII digits and the letters of " + SHAPES + " may be used, not {char}"
    ),
    "malformed_blank_inside": "{text} is not an action: an action has no spaces or other blank characters inside",
    "malformed_same_column": (
        "{text} is not an action: a move goes from one column to another, not from column {column} onto itself"
    ),
    "malformed_no_such_foundation": "{text} is not an action: there is no foundation {letter}, only S, H, D and C",
    "malformed_token": "{text} is not an action: write " + SHAPES,
    "malformed_zero": "{text} is not an action: columns and counts start at 1, not 0",
    "malformed_leading_zero": "{text} is not an action: numbers have no leading zeros ({digits})",
    "malformed_number_too_large": "{text} is not an action: the number {number} is far too large",
    # ------------------------------------------------------------ play (IllegalAction)
    "game_won": "The game is won: no more moves",
    "nothing_to_undo": "Nothing to undo",
    "no_such_column": "There is no column {column}: {game} has {columns} columns",
    "no_such_foundation": "There is no foundation {letter}: the foundations are S, H, D and C",
    "move_no_cards": "A move takes at least one card",
    "column_empty": "Column {column} is empty",
    "not_enough_face_up": "Column {column} has only {up} face-up {cards}",
    "not_a_run": "Only cards in sequence move together: the {card} is not one rank below the {below}",
    "group_one_suit": "In {ruleset} a group must be one suit: the {card} is on the {below}",
    "nothing_onto_ace": "The {card} doesn't fit on the {top}: nothing goes onto an ace",
    "doesnt_fit": "The {card} doesn't fit on the {top}: a card goes only onto a card one rank higher",
    "doesnt_fit_same_suit": (
        "The {card} doesn't fit on the {top}: in Classic Russian Solitaire a card goes only onto the next "
        "higher card of the same suit"
    ),
    "empty_column_king_only": "Only a king can go to an empty column",
    "group_too_big": "At most {limit} cards can move at once",
    "stock_empty": "The stock is empty",
    "deal_with_empty_column": "You can't deal while a column is empty (column {column})",
    "no_stock": "{game} has no stock",
    "no_foundations": "{game} has no foundations",
    "foundation_not_ready": "The {card} can't go home yet: the {suit} foundation needs {needs} first",
    "foundation_empty": "The {suit} foundation is empty",
    # ------------------------------------------------------------------------ logs
    "moves_not_a_list": "The moves must be a list of tokens",
    "log_too_long": "A log has at most {limit} actions; this one has {count}",
    # ------------------------------------------------------------ codes (InvalidCode)
    "code_not_text": "A game code must be text, not {type}",
    "code_empty": "A game code is empty",
    "code_not_ascii": "A game code uses only the letters A-Z, digits and '-'; {text} has others",
    "code_parts": "A game code has three parts joined by '-', like " + _EXAMPLE_CODE + "; {text} has {parts}",
    "variant_not_text": "A variant must be text, not {type}",
    "variant_empty": "A variant is empty",
    "variant_not_ascii": "A variant uses only the letters A-Z, digits and '-'; {text} has others",
    "variant_parts": "A variant has two parts joined by '-', like SP1-S4C, SD1-S2 or RU1-C; {text} has {parts}",
    "variant_unknown": "There is no variant {variant}",
    "code_unknown_game": (
        "Unknown game {head}: a code starts with SP1 (Spider), SD1 (Spiderette) or RU1 (Russian Solitaire)"
    ),
    "code_unknown_version": "Unknown deal version {version} in {head}: only version 1 exists ({prefix}1)",
    "code_russian_rule": "Russian Solitaire's rule is C (Classic) or R (Relaxed), not {body}",
    "code_suits_shape": "{game}'s variant is S and the number of suits, like S4; not {body}",
    "code_suits_count": "{game} is played with 1, 2 or 4 suits, not {number}",
    "code_spiderette_rule": "Spiderette has no rule letter: write SD1-S{suits}, not SD1-{written}",
    "code_spider_rule_missing": (
        "Spider's variant needs a rule after the suits: S{suits}C (Classic) or S{suits}R (Relaxed)"
    ),
    "code_spider_rule": "Spider's rule is C (Classic) or R (Relaxed), not {letter}",
    "code_one_suit_relaxed": "With one suit Spider has only the Classic rule (C): write SP1-S1C",
    "code_deal_number": "The deal number must be a whole number from 0 to {highest}",
    "code_letters_count": "The deal part is {short} or {long} letters A-Z, like AAAAAAD; {letters} has {given}",
    "code_letters": "The deal number is made of the letters A-Z only; {letters} has {char}",
    # ----------------------------------------------- hand-made positions (EngineError)
    "state_columns": "{game} needs a list of {columns} columns",
    "state_column": "Each column is an object with 'down' and 'up' lists",
    "state_top_card": "A column's top card is face-up: 'up' is empty above face-down cards",
    "state_removed": "'removed' is a list of suit letters S, H, D, C",
    "state_foundation": "There is no foundation {letter}",
    "state_counters": "'score' and 'moves' are whole numbers",
    "state_cards": "Cards are given as a list of names like 'TS'",
    "state_card": "{name} is not a card (write rank then suit, like TS)",
}

CARD_PARAMS: Final = frozenset({"card", "below", "top"})
QUOTED_PARAMS: Final = frozenset({"text", "char", "digits", "letter", "head", "version", "body", "letters"})
GROUPED_PARAMS: Final = frozenset({"limit", "count"})
_RULESETS: Final[dict[str, str]] = {"Spider": "Classic Spider", "Spiderette": "Spiderette"}


def english_values(rule: str, params: Mapping[str, str | int]) -> dict[str, str]:
    """Every parameter as English shows it, plus the words the sentence derives from them."""
    values: dict[str, str] = {}
    for key, value in params.items():
        if key in CARD_PARAMS:
            values[key] = display(CARD_OF_NAME[str(value)])
        elif key == "needs":
            values[key] = rank_word(CARD_OF_NAME[str(value)] % 13)
        elif key == "suit":
            values[key] = SUIT_SYMBOLS[SUITS.index(str(value))]
        elif key in QUOTED_PARAMS:
            values[key] = repr(value)
        elif key in GROUPED_PARAMS and type(value) is int:
            values[key] = f"{value:,}"
        else:
            values[key] = str(value)
    if "up" in params:
        values["cards"] = "card" if params["up"] == 1 else "cards"
    if rule == "group_one_suit":
        values["ruleset"] = _RULESETS.get(str(params.get("game")), str(params.get("game")))
    return values


def english(rule: str, params: Mapping[str, str | int]) -> str:
    """The English sentence of a refusal; the rule id itself if it is not one of ``RULES``."""
    template = RULES.get(rule)
    if template is None:
        return rule
    return template.format_map(english_values(rule, params))
