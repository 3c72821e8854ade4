"""The closer's round tasks: long work that other apps hand the closer (manage.py close_dailies), so
that no request and no worker of the web process carries it.

An app registers its task from its AppConfig.ready, as the race listeners subscribe
(games.rooms.race_events); the closer does not know whose tasks it runs. Each round runs them after
the dailies are closed and prepared, so the dailies never wait behind them. A task works until it has
nothing left or `should_stop()` says the closer's next round is due (asked between two pieces of its
work, so a round waits for one piece at most), and answers a line for the terminal, or None when it
did nothing. A task keeps its queue in the database: what a closer that died left undone is simply
found by the next round.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

log = logging.getLogger(__name__)

ShouldStop = Callable[[], bool]
RoundTask = Callable[[ShouldStop], str | None]

_tasks: list[RoundTask] = []


def register(task: RoundTask) -> None:
    """Run `task` in every closer round from now on (registering twice changes nothing)."""
    if task not in _tasks:
        _tasks.append(task)


def run_round_tasks(should_stop: ShouldStop) -> list[str]:
    """Run every task in the order registered, each on its own: one's failure is logged, and the
    round goes on (the task's queue is still there for the next round). The lines they answered."""
    lines: list[str] = []
    for task in tuple(_tasks):
        if should_stop():
            break
        try:
            line = task(should_stop)
        except Exception:  # noqa: BLE001 - the closer keeps closing; the task tries again next round
            log.exception("a closer round task failed")
            continue
        if line:
            lines.append(line)
    return lines
