"""The server process hands the GIL over more often than Python's default, for the event loop."""

from __future__ import annotations

import sys

from django.conf import settings


def test_the_asgi_entry_point_sets_the_switch_interval_from_settings() -> None:
    import config.asgi  # noqa: F401  (what daphne loads)

    assert sys.getswitchinterval() == settings.GIL_SWITCH_US / 1_000_000
    assert sys.getswitchinterval() < 0.005  # shorter than Python's default
