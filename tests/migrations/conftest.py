"""The migration tests' shared fixture."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.migrations.steps import migrate_to_the_latest


@pytest.fixture
def back_to_the_latest() -> Iterator[None]:
    """Whatever happens, the test database ends at the latest migrations, as every later test needs."""
    yield
    migrate_to_the_latest()
