"""The project reaches libraries through their public APIs only (docs/decisions.md, "Public APIs only").

Read from the source with ast, every Python file outside tests/, migrations, bench/ and .venv:
- no import of another package's private module (`pkg._private`, `from pkg import _private`);
- no attribute `x._name` (one leading underscore) that the project itself never defines: its own
  private names are its own business; Django's documented `_meta`, `_default_manager` and the
  model instance's `_state`, and `os._exit`, are public;
- no class based on a daphne, Twisted or autobahn class: a subclass overrides a server's protocol.

Any reach not in ALLOWED fails the test; ALLOWED holds at most three, each with why.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIPPED = {"tests", "bench", "migrations", ".venv", "node_modules", "var"}
SERVERS = ("daphne", "twisted", "autobahn")
DOCUMENTED = {"_meta", "_default_manager", "_state", "_exit"}

# (file, what is reached): each one a hook the library lacks, in one small module that says why.
# None is needed today.
ALLOWED: set[tuple[str, str]] = set()


def sources() -> Iterator[tuple[str, str]]:
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).parts
        if SKIPPED.isdisjoint(parts):
            yield str(path.relative_to(ROOT)), path.read_text()


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def own_names(files: list[tuple[str, str]]) -> set[str]:
    """Every name the project defines: functions, classes, arguments, assigned names, its objects'
    attributes (set on `self` or `cls`) and slots."""
    names: set[str] = set()
    for _, source in files:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                    names.add(node.attr)  # a write to another object's attribute defines nothing
            elif isinstance(node, ast.Assign) and any(
                isinstance(target, ast.Name) and target.id == "__slots__" for target in node.targets
            ):
                names.update(c.value for c in ast.walk(node.value) if isinstance(c, ast.Constant))
    return names


def _project_packages() -> set[str]:
    return {path.name for path in ROOT.iterdir() if (path / "__init__.py").exists()}


def reaches(files: list[tuple[str, str]], own: set[str], project: set[str]) -> list[tuple[str, int, str]]:
    """(file, line, what) of every reach into another package's internals."""
    found: list[tuple[str, int, str]] = []
    servers: dict[str, str] = {}  # names bound to a server's module or class, per file
    for name, source in files:
        tree = ast.parse(source)
        servers.clear()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] not in project and any(map(_private, alias.name.split("."))):
                        found.append((name, node.lineno, f"import {alias.name}"))
                    if alias.name.split(".")[0] in SERVERS:
                        servers[(alias.asname or alias.name).split(".")[0]] = alias.name
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module.split(".")[0] in project:
                    continue
                if any(map(_private, node.module.split("."))):
                    found.append((name, node.lineno, f"from {node.module} import"))
                for alias in node.names:
                    if _private(alias.name):
                        found.append((name, node.lineno, f"from {node.module} import {alias.name}"))
                    if node.module.split(".")[0] in SERVERS:
                        servers[alias.asname or alias.name] = f"{node.module}.{alias.name}"
            elif isinstance(node, ast.Attribute) and _private(node.attr):
                if node.attr not in own and node.attr not in DOCUMENTED:
                    found.append((name, node.lineno, f".{node.attr}"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                for base in node.bases:
                    root = base
                    while isinstance(root, ast.Attribute):
                        root = root.value
                    if isinstance(root, ast.Name) and root.id in servers:
                        found.append((name, node.lineno, f"class {node.name}({ast.unparse(base)})"))
    return found


def test_the_detector_finds_each_kind_of_reach() -> None:
    snippet = (
        "import psycopg._queries\n"
        "from channels_redis import _private\n"
        "from daphne.ws_protocol import WebSocketProtocol\n"
        "from twisted.web import http\n"
        "class Mine(WebSocketProtocol): pass\n"
        "class Request(http.Request): pass\n"
        "def f(layer, model):\n"
        "    model._meta.db_table\n"
        "    self._kept = 1\n"
        "    return layer._group_key('g'), self._kept, obj.__dict__\n"
    )
    own = own_names([("snippet.py", snippet)])
    found = [what for _, _, what in reaches([("snippet.py", snippet)], own, project=set())]
    assert found == [
        "import psycopg._queries",
        "from channels_redis import _private",
        "._group_key",
        "class Mine(WebSocketProtocol)",
        "class Request(http.Request)",
    ]


def test_the_project_reaches_no_library_internals_beyond_its_short_list() -> None:
    files = list(sources())
    assert len(files) > 100  # the walk sees the project
    found = reaches(files, own_names(files), _project_packages())
    assert len(ALLOWED) <= 3
    known = ALLOWED
    unexpected = sorted(f"{name}:{line}: {what}" for name, line, what in found if (name, what) not in known)
    assert unexpected == []
    unused = ALLOWED - {(name, what) for name, _, what in found}
    assert not unused, f"allowed but no longer there: {unused}"
