"""The engine's tests run without Django (tests/engine/conftest.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _django_modules() -> list[str]:
    return sorted(name for name in sys.modules if name == "django" or name.startswith("django."))


@pytest.mark.usefixtures("without_django_plugin")
def test_this_run_imported_nothing_of_django() -> None:
    assert _django_modules() == []


def test_the_conftests_and_the_engine_tests_import_no_django() -> None:
    """What a `-p no:django` run imports, in a fresh interpreter: the conftests on the way and
    every engine test module. Also under pytest-django, which has Django loaded in this process."""
    probe = (
        "import importlib, pathlib, sys\n"
        "import tests.conftest, tests.engine.conftest\n"
        "for path in sorted(pathlib.Path('tests/engine').glob('test_*.py')):\n"
        "    importlib.import_module('tests.engine.' + path.stem)\n"
        "print(sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[]"
