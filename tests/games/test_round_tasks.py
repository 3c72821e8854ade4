"""The closer's round tasks (games.dailies.round_tasks): other apps' long work runs in the closer's
round after today's dailies are ready, one task's failure does not end the round, and a task is not
started once the next round is due."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from games.dailies import round_tasks
from games.engine import DAILY_VARIANTS
from games.models import Daily


@pytest.fixture(autouse=True)
def _only_these_tasks(monkeypatch: pytest.MonkeyPatch, settings) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(round_tasks, "_tasks", [])
    settings.DAILY_SOLVER_BUDGET_SECONDS = 0.05
    settings.DAILY_CANDIDATE_CAP = 1
    settings.DAILY_PREPARE_DAYS = 0


@pytest.mark.django_db
def test_a_round_runs_the_tasks_after_the_dailies_and_goes_on_past_a_failing_one() -> None:
    dailies_when_run: list[int] = []

    def failing(should_stop: round_tasks.ShouldStop) -> str | None:
        raise RuntimeError("broken")

    def counting(should_stop: round_tasks.ShouldStop) -> str | None:
        dailies_when_run.append(Daily.objects.count())
        return "counted"

    round_tasks.register(failing)
    round_tasks.register(counting)
    round_tasks.register(counting)  # twice changes nothing
    out = io.StringIO()
    call_command("close_dailies", stdout=out)
    assert dailies_when_run == [len(DAILY_VARIANTS)]  # once, with today's dailies all stored
    assert out.getvalue().rstrip().endswith("counted")


def test_no_task_starts_once_the_next_round_is_due() -> None:
    ran: list[str] = []
    round_tasks.register(lambda should_stop: ran.append("first") or "first")
    round_tasks.register(lambda should_stop: ran.append("second") or "second")
    assert round_tasks.run_round_tasks(lambda: bool(ran)) == ["first"]
    assert ran == ["first"]
