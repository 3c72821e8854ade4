"""A worker imports its views when it starts, not during its first request."""

from __future__ import annotations

import os
import subprocess
import sys


def test_loading_the_asgi_application_imports_every_view() -> None:
    probe = (
        "import sys, config.asgi; "
        "print(all(m in sys.modules for m in ('games.api.views', 'leaderboard.api.boards', 'drf_spectacular.views')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "True"
