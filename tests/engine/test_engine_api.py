"""The public surface: names, types, the player's view, and purity of the engine package."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import games.engine as engine
from games.engine import EngineError, Game, IllegalAction, InvalidCode, MalformedAction

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "games" / "engine"


def test_exported_names() -> None:
    for name in (
        "EngineError",
        "InvalidCode",
        "MalformedAction",
        "IllegalAction",
        "MAX_LOG_TOKENS",
        "DAILY_VARIANTS",
        "ALL_VARIANTS",
        "DEAL_NUMBERS",
        "GameCode",
        "parse_variant",
        "Move",
        "DealRow",
        "Undo",
        "ToFoundation",
        "FromFoundation",
        "Action",
        "parse_action",
        "Game",
        "replay",
        "ReplayError",
        "ReplayResult",
    ):
        assert hasattr(engine, name), name
    for error in (InvalidCode, MalformedAction, IllegalAction):
        assert issubclass(error, EngineError) and issubclass(error, ValueError)


def test_view_hides_face_down_cards_and_the_stock() -> None:
    game = Game.from_code("SP1-S4C-AAAAAAA")
    view = game.view()
    state = game.state()
    assert view["stock"] == 50
    assert [c["down"] for c in view["columns"]] == [5, 5, 5, 5, 4, 4, 4, 4, 4, 4]  # type: ignore[attr-defined]
    assert [c["up"] for c in view["columns"]] == [c["up"] for c in state["columns"]]  # type: ignore[attr-defined]
    assert {k: v for k, v in view.items() if k not in ("columns", "stock")} == {
        k: v for k, v in state.items() if k not in ("columns", "stock")
    }
    hidden = {card for c in state["columns"] for card in c["down"]}  # type: ignore[attr-defined]
    hidden |= set(state["stock"])  # type: ignore[call-overload]
    shown = {card for c in state["columns"] for card in c["up"]}  # type: ignore[attr-defined]
    assert not (hidden - shown) & set(str(view).replace("'", " ").split())


def test_counters_of_each_game() -> None:
    spider = Game.from_code("SP1-S4C-AAAAAAA")
    assert (spider.score, spider.moves, spider.undo_available, spider.won) == (500, 0, 0, False)
    assert spider.sequences == 0 and spider.cards_home == 0
    russian = Game.from_code("RU1-C-AAAAABB")
    assert russian.score == 0 and russian.state()["foundations"] == {"S": [], "H": [], "D": [], "C": []}
    assert russian.state()["stock"] == [] and russian.state()["removed"] == []


def test_engine_imports_only_the_standard_library() -> None:
    allowed = set(sys.stdlib_module_names) | {"__future__"}
    for path in ENGINE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert name.split(".")[0] in allowed, f"{path.name} imports {name}"
    done = subprocess.run(
        [sys.executable, "-c", "import sys, games.engine; print('django' in sys.modules)"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.stdout.strip() == "False"


def test_hand_built_values_outside_the_notation_are_refused_not_crashed() -> None:
    from games.engine import FromFoundation, Move

    for code in ("SP1-S4C-AAAAAAA", "RU1-C-AAAAABB"):
        game = Game.from_code(code)
        before = game.state()
        for action in (
            Move(1, 0, 2),
            Move(1, -3, 2),
            Move(0, 1, 2),
            Move(-1, 1, 2),
            FromFoundation("X", 1),
            FromFoundation("s", 1),
        ):
            assert not game.is_legal(action)
            try:
                game.push(action)
            except IllegalAction as error:
                assert error.message
            else:
                raise AssertionError(f"{action!r} was accepted")
        assert game.state() == before
