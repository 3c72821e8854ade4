"""The games and variants a player can choose, from the engine, named in the player's language.

The browser holds no rules: the picker, the daily list and every variant's name come from here
(``GET /api/variants``); what the table counts rides in the session and replay documents
(``games.selectors.table_counts``).
"""

from __future__ import annotations

import functools
from typing import Any

from django.utils.translation import gettext, gettext_noop

from games.engine import ALL_VARIANTS, DAILY_VARIANTS, GameCode
from games.engine.layout import LAYOUTS

SUITS = {1: gettext_noop("1 suit"), 2: gettext_noop("2 suits"), 4: gettext_noop("4 suits")}
LEVELS = {1: gettext_noop("Easy"), 2: gettext_noop("Medium"), 4: gettext_noop("Hard")}
RULES = {"C": gettext_noop("Classic"), "R": gettext_noop("Relaxed")}
# What each rule means in a game where it is a choice.
RULE_NOTES = {
    ("SP", "C"): gettext_noop("(groups of one suit)"),
    ("SP", "R"): gettext_noop("(groups of any suits)"),
    ("RU", "C"): gettext_noop("Same suit"),
    ("RU", "R"): gettext_noop("Mixed suits"),
}
PAGES = {"SP": "spider", "SD": "spiderette", "RU": "russian"}
# The games' names as the engine's layouts give them, marked here for the catalogues: the names a
# player reads are these, in the player's language.
GAME_NAMES = (gettext_noop("Spider"), gettext_noop("Spiderette"), gettext_noop("Russian Solitaire"))


def _parts(variant: str) -> GameCode:
    return GameCode.from_variant(variant, 0)


@functools.cache  # a few dozen variants exist; a board read asks once per entry
def goal_of(variant: str) -> str:
    """What a win of `variant` counts, as results name it: ``sequences`` or ``cards_home`` (the layout's)."""
    return LAYOUTS[_parts(variant).game].goal


def variant_name(variant: str) -> str:
    """``Spider · 2 suits (Medium) · Relaxed``, ``Russian Solitaire · Classic (Same suit)``."""
    code = _parts(variant)
    parts = [gettext(code.game_name)]
    if code.game == "RU":
        parts.append(f"{gettext(RULES[code.rule])} ({gettext(RULE_NOTES[('RU', code.rule)])})")
        return " · ".join(parts)
    parts.append(f"{gettext(SUITS[code.suits])} ({gettext(LEVELS[code.suits])})")
    if _rule_is_a_choice(code.game, code.suits):
        parts.append(gettext(RULES[code.rule]))
    return " · ".join(parts)


def _rule_is_a_choice(game: str, suits: int) -> bool:
    rules = {c.rule for c in map(_parts, ALL_VARIANTS) if c.game == game and (game == "RU" or c.suits == suits)}
    return len(rules) > 1


def _note(game: str, rule: str) -> str:
    note = RULE_NOTES.get((game, rule))
    # gettext("") would be the catalogue's header; the notes are shown in parentheses of their own.
    return gettext(note).strip("()") if note else ""


def catalogue() -> dict[str, Any]:
    """The games (with the suits and rules they offer) and every variant, named in the active language."""
    codes = [_parts(variant) for variant in ALL_VARIANTS]
    games = []
    for game in dict.fromkeys(code.game for code in codes):
        mine = [code for code in codes if code.game == game]
        layout = LAYOUTS[game]
        suits = sorted({code.suits for code in mine})
        rules = sorted({code.rule for code in mine})
        games.append(
            {
                "prefix": mine[0].variant.split("-")[0],
                "key": PAGES[game],
                "name": gettext(layout.name),
                "columns": layout.columns,
                "sequences": layout.sequences,
                "deals": layout.deals,
                "goal": layout.goal,
                "goal_total": layout.goal_total,
                "suits": [{"suits": n, "name": gettext(SUITS[n]), "level": gettext(LEVELS[n])} for n in suits]
                if len(suits) > 1
                else [],
                "rules": [{"rule": r, "name": gettext(RULES[r]), "note": _note(game, r)} for r in rules]
                if len(rules) > 1
                else [],
            }
        )
    variants = [
        {
            "id": code.variant,
            "game": code.variant.split("-")[0],
            "suits": code.suits,
            "rule": code.rule,
            "daily": code.variant in DAILY_VARIANTS,
            "name": variant_name(code.variant),
        }
        for code in codes
    ]
    return {"games": games, "variants": variants, "daily": list(DAILY_VARIANTS)}
