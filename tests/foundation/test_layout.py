"""config/ holds configuration only; web/, the machinery every app shares, knows no app."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = {"accounts", "games", "leaderboard", "races", "frontend"}


def test_config_holds_only_the_settings_urls_and_asgi_modules() -> None:
    found = sorted(path.relative_to(ROOT / "config").as_posix() for path in (ROOT / "config").rglob("*.py"))
    assert found == ["__init__.py", "asgi.py", "env.py", "routing.py", "settings.py", "urls.py"]


def _imported(path: Path) -> set[str]:
    """The top-level packages a module imports, at its top or inside a function."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_web_imports_no_app() -> None:
    modules = sorted((ROOT / "web").rglob("*.py"))
    assert len(modules) > 10  # the walk found the package
    offenders = {path.relative_to(ROOT).as_posix(): sorted(_imported(path) & APPS) for path in modules}
    assert {path: apps for path, apps in offenders.items() if apps} == {}


def test_the_import_walk_sees_a_lazy_import(tmp_path: Path) -> None:
    module = tmp_path / "lazy.py"
    module.write_text("def f():\n    from leaderboard.models import Player\n    import games.sessions.live\n")
    assert _imported(module) == {"leaderboard", "games"}
