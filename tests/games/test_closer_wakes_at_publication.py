"""The closer ends yesterday's open daily attempts at 01:00 UTC itself: no read closes them, so its
next round is due at publication when that comes before its usual interval."""

from __future__ import annotations

import datetime as dt
import time

import pytest

from games.dailies.schedule import next_publication
from games.management.commands import close_dailies


def test_the_next_publication_is_the_next_one_oclock_utc() -> None:
    before = dt.datetime(2026, 12, 6, 0, 59, 30, tzinfo=dt.UTC)
    assert next_publication(before) == dt.datetime(2026, 12, 6, 1, 0, tzinfo=dt.UTC)
    at = dt.datetime(2026, 12, 6, 1, 0, tzinfo=dt.UTC)
    assert next_publication(at) == dt.datetime(2026, 12, 7, 1, 0, tzinfo=dt.UTC)
    helsinki = dt.timezone(dt.timedelta(hours=2))
    assert next_publication(dt.datetime(2026, 12, 6, 2, 30, tzinfo=helsinki)) == at  # 00:30 UTC


def test_a_round_is_due_at_publication_when_it_comes_first(monkeypatch: pytest.MonkeyPatch) -> None:
    now = dt.datetime(2026, 12, 6, 0, 59, 50, tzinfo=dt.UTC)
    monkeypatch.setattr(close_dailies.timezone, "now", lambda: now)
    started = time.monotonic()
    assert close_dailies._next_round(started, 60) - time.monotonic() == pytest.approx(10, abs=0.5)
    monkeypatch.setattr(close_dailies.timezone, "now", lambda: now + dt.timedelta(minutes=5))
    assert close_dailies._next_round(started, 60) == pytest.approx(started + 60)
