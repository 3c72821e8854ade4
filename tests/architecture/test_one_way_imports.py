"""The dependencies between the apps go one way (docs/decisions.md): the referee (games) never
imports the leaderboard, the races or the accounts, and config imports no app beyond the URL and
socket routes.

Read from the source with ast, so an import inside a function or under TYPE_CHECKING counts too.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONFIG_MAY_IMPORT = {
    "accounts.api.urls",
    "games.routing",
    "games.api.urls",
    "leaderboard.routing",
    "leaderboard.api.urls",
    "races.routing",
}
APPS = ("accounts", "games", "leaderboard", "races")


def imported(source: str) -> Iterator[tuple[int, str]]:
    """(line, module) of every import statement anywhere in `source`, `from x import y` as x and x.y."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module
            for alias in node.names:
                yield node.lineno, f"{node.module}.{alias.name}"


def _modules(package: str) -> Iterator[Path]:
    for path in sorted((ROOT / package).rglob("*.py")):
        if "migrations" not in path.relative_to(ROOT).parts:
            yield path


def _of_app(module: str, app: str) -> bool:
    return module == app or module.startswith(app + ".")


def test_the_walk_sees_imports_in_functions_and_under_type_checking() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from leaderboard.models import BoardEntry\n"
        "def late():\n    import leaderboard.services\n"
        "from leaderboard import selectors\n"
    )
    found = sorted(module for _, module in imported(source) if _of_app(module, "leaderboard"))
    assert found == [
        "leaderboard",
        "leaderboard.models",
        "leaderboard.models.BoardEntry",
        "leaderboard.selectors",
        "leaderboard.services",
    ]


def _imports_of(package: str, app: str) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in _modules(package)
        for line, module in imported(path.read_text())
        if _of_app(module, app)
    ]


def test_games_never_imports_the_leaderboard() -> None:
    assert _imports_of("games", "leaderboard") == []


def test_games_never_imports_the_races() -> None:
    # The referee runs rooms; rating them, matching racers and challenges are the races' own.
    assert _imports_of("games", "races") == []


def test_games_never_imports_the_accounts() -> None:
    # The accounts app is made of the referee's players (games.models.Player, games.players) and
    # imports them; what the referee needs of a player (the signed-in player, a guest made by a first
    # game, a new game counted against its limit) stays in games.players, so there is no cycle.
    assert _imports_of("games", "accounts") == []


def test_races_never_import_the_leaderboard() -> None:
    # The player page shows a rating by asking the races (leaderboard -> races -> games).
    assert _imports_of("races", "leaderboard") == []


def test_config_imports_only_the_apps_routes() -> None:
    offending = []
    for path in _modules("config"):
        for line, module in imported(path.read_text()):
            if not any(_of_app(module, app) for app in APPS):
                continue
            # `from games import routing` names games and games.routing: the module is what counts.
            if module in CONFIG_MAY_IMPORT or any(allowed.startswith(module + ".") for allowed in CONFIG_MAY_IMPORT):
                continue
            if any(module.startswith(allowed + ".") for allowed in CONFIG_MAY_IMPORT):
                continue  # a name imported from an allowed module
            offending.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert offending == []
