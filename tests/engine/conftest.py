"""The engine is pure Python and so are its tests: `pytest tests/engine -p no:django` runs them
with nothing of Django imported (the root conftest loads the Django fixtures only under
pytest-django). Nothing here may import Django, the apps outside games.engine, or web."""

from __future__ import annotations

import pytest


@pytest.fixture
def without_django_plugin(pytestconfig: pytest.Config) -> None:
    """Skips a test that needs the run to be free of Django: pytest-django sets Django up for the
    whole run when it is loaded."""
    if pytestconfig.pluginmanager.has_plugin("django"):
        pytest.skip("pytest-django set Django up for this run: run `pytest tests/engine -p no:django`")
