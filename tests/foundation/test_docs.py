"""The repository cites its own documents: every document under docs/ that it names exists, and nothing cites
the outside contract the docs were written from (a user's clone does not have it)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# What .gitignore leaves out: environments, caches, generated files.
SKIPPED_DIRS = frozenset(
    {
        ".git",
        ".venv",
        "__pycache__",
        ".pytest_cache",
        ".mypy_cache",
        ".ruff_cache",
        ".hypothesis",
        "var",
        "staticfiles",
        "node_modules",
        "out",
        "screenshots",
    }
)
# Spelled in two parts so that this file is not a citation itself.
OUTSIDE_NAME = "SP" + "EC"
OUTSIDE = re.compile(rf"\b{OUTSIDE_NAME}\b")
CITED_DOC = re.compile(r"\bdocs/([A-Za-z0-9_-]+)\.md\b")


def text_files() -> Iterator[tuple[Path, str]]:
    for path in sorted(ROOT.rglob("*")):
        relative = path.relative_to(ROOT)
        if any(part in SKIPPED_DIRS for part in relative.parts[:-1]) or not path.is_file():
            continue
        if path.suffix in {".png", ".mo", ".sqlite3", ".pyc"} or path.stat().st_size > 2_000_000:
            continue
        try:
            yield relative, path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue


def test_nothing_cites_the_outside_contract() -> None:
    found = [
        f"{path}:{number}: {line.strip()}"
        for path, text in text_files()
        for number, line in enumerate(text.splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert not found, "cite docs/*.md instead:\n" + "\n".join(found)


def test_every_cited_doc_exists() -> None:
    missing = sorted(
        {
            f"{path}: docs/{name}.md"
            for path, text in text_files()
            for name in CITED_DOC.findall(text)
            if not (ROOT / "docs" / f"{name}.md").is_file()
        }
    )
    assert not missing, "cited but missing:\n" + "\n".join(missing)


def test_the_readme_links_every_doc() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Documentation", 1)
    assert len(section) == 2, "README.md has a Documentation section"
    listed = set(CITED_DOC.findall(section[1].split("\n## ", 1)[0]))
    present = {path.stem for path in (ROOT / "docs").glob("*.md")}
    assert listed == present, f"unlisted: {sorted(present - listed)}; listed but missing: {sorted(listed - present)}"


# `make X` in backticks, or at the start of a line of a code block.
MAKE_COMMAND = re.compile(r"(?:`(?:[A-Z_]+=\S+ )*|^)make ([a-z][a-z-]*)", re.MULTILINE)


def test_the_make_commands_the_docs_name_are_the_makefiles() -> None:
    targets = set(re.findall(r"^([a-z][a-z-]*):", (ROOT / "Makefile").read_text(encoding="utf-8"), re.MULTILINE))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert {"run", "test"} <= set(MAKE_COMMAND.findall(readme)), "the README gives `make run` and `make test`"
    named = {
        f"{path}: make {name}"
        for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
        for name in MAKE_COMMAND.findall(path.read_text(encoding="utf-8"))
        if name not in targets
    }
    assert not named, "not a Makefile target:\n" + "\n".join(sorted(named))
