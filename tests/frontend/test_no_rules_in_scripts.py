"""The browser renders what the server sends and holds no rules (docs/decisions.md, "What the
browser counts comes from the engine"): no script names a variant, a game's prefix, a deal size
or a goal. These are the constants the scripts once carried; each came back as a server field."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "frontend" / "static" / "frontend" / "js"

FORBIDDEN = {
    # the daily list and the picker's variants, now GET /api/variants
    "a variant id": re.compile(r"\b(SP|SD|RU)1-[A-Z0-9]+"),
    "a game's prefix": re.compile(r"""["'`/](SP|SD|RU)1?\b|startsWith\(\s*["'](SP|SD|RU)"""),
    "the game names": re.compile(r"Spiderette|Russian Solitaire|GAME_NAMES"),
    "the suit levels": re.compile(r"""gettext\(\s*["'](Easy|Medium|Hard)["']"""),
    # deals left (table.deals_left) and the stock's rows (table.deals)
    "a deal size": re.compile(r"dealsLeft|stock\s*/\s*(7|10)\b|Math\.ceil\(\s*\(?\s*stock"),
    # the goal (table.goal, table.goal_total)
    "a sequence goal": re.compile(r"\?\s*4\s*:\s*8\b|\?\s*8\s*:\s*4\b"),
    "the cards of a deck": re.compile(r"(?<![\w.])(52|104)(?![\w.])"),
    # only a single card goes home (table.home_move_cards)
    "a single card going home": re.compile(r"\bn\s*===\s*1\b|src\.n\s*===\s*1|src\.n\s*!==\s*1"),
}


# A comment may name a game: only code is searched.
COMMENT = re.compile(r"^\s*//.*|\s//\s.*$")


def _scripts() -> list[Path]:
    found = sorted(SCRIPTS.rglob("*.js"))
    assert len(found) > 10  # the scripts are where this test looks
    return found


@pytest.mark.parametrize("what", sorted(FORBIDDEN))
def test_no_script_holds_a_rule(what: str) -> None:
    pattern = FORBIDDEN[what]
    hits = [
        f"{path.relative_to(SCRIPTS)}:{number}: {line.strip()}"
        for path in _scripts()
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(COMMENT.sub("", line))
    ]
    assert not hits, f"{what} in the scripts:\n" + "\n".join(hits)


@pytest.mark.parametrize(
    ("what", "old_line"),
    [
        ("a variant id", 'export const DAILY_VARIANTS = ["SP1-S1C", "SP1-S2C", "SP1-S4C", "SD1-S1", "RU1-C"];'),
        ("a game's prefix", 'const russian = (room.variant || "").startsWith("RU");'),
        ("a game's prefix", "const russian = /RU1/.test(board);"),
        ("a deal size", "export function dealsLeft(variant, stock) {"),
        ("a sequence goal", 'sequences: variant().startsWith("SD1") ? 4 : 8'),
        ("a single card going home", "if (!russian() || src.suit || src.n !== 1) return;"),
        ("the game names", 'const GAME_NAMES = { SP1: "Spider", SD1: "Spiderette", RU1: "Russian Solitaire" };'),
    ],
)
def test_the_patterns_catch_the_old_lines(what: str, old_line: str) -> None:
    assert FORBIDDEN[what].search(old_line)
