"""A race's review, once it is over: each racer's game beside the solver's winning line for the deal.

A race's fresh deal is not certified when it is dealt, so its line is found after the race ends:
the end records the review, pending, in its own transaction (`on_race_event`); the closer searches
the pending reviews, oldest first, each once within SOLVE_SECONDS, in its rounds once the dailies are
ready (`solve_pending`, a round task: games.dailies.round_tasks), never a worker of the web process.
The review says so when no win was found in that time. A search lost with a closer that died leaves
its review pending, and the next round takes it up. A look at the review only reads: a race with no
review yet reads as pending.
Each racer's line is marked where it first leaves the solver's line: the first of their actions
that is not the solver's action at that step. That is exact, and says only that they played
differently from this one winning line, not that they lost a win there (another line may win too).
Nothing is shown before the race is over: its deal is secret until then.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext

from games.engine import Game
from games.models import Result, Room
from games.rooms import race_events, rooms
from games.selectors import table_counts
from games.solver import Solution, solve
from races.models import DealReview
from web.errors import BadRequest, Conflict, NotFound

log = logging.getLogger(__name__)

SOLVE_SECONDS = 30.0
_PENDING = DealReview.Status.PENDING


def on_race_event(event: race_events.Event) -> None:
    """Inside the end's transaction: the race's review, pending (once, however often the end is heard)."""
    if isinstance(event, race_events.Ending):
        DealReview.objects.bulk_create(
            [DealReview(room_id=event.room_id, created_at=timezone.now())], ignore_conflicts=True
        )


def solve_pending(should_stop: Callable[[], bool]) -> str | None:
    """The closer's round task: search the pending reviews, oldest first, until none is left or
    `should_stop()` says the next round is due. A line for the closer's terminal, None if none was due."""
    solved = 0
    while not should_stop():
        room_id = DealReview.objects.filter(status=_PENDING).order_by("created_at").values_list("pk", flat=True).first()
        if room_id is None:
            break
        solve_deal(room_id)
        solved += 1
    if not solved:
        return None
    left = DealReview.objects.filter(status=_PENDING).count()
    return f"race reviews: {solved} searched, {left} still pending."


def solve_deal(room_id: uuid.UUID) -> None:
    """Search the race's deal once, within SOLVE_SECONDS, and keep what was found."""
    review = DealReview.objects.select_related("room").filter(room_id=room_id, status=_PENDING).first()
    if review is None:
        return
    started = time.monotonic()
    try:
        solution = solve(review.room.code, SOLVE_SECONDS)
    except Exception:  # noqa: BLE001 - kept as no win found, so one deal the solver fails on never holds up the queue
        log.exception("could not search race %s's deal", room_id)
        solution = Solution(status="unknown", actions=(), par=None, seconds=time.monotonic() - started, nodes=0)
    DealReview.objects.filter(pk=room_id, status=_PENDING).update(
        status=solution.status,
        line=" ".join(solution.actions),
        par=solution.par,
        seconds=solution.seconds,
        solved_at=timezone.now(),
    )


def first_departure(tokens: list[str], line: list[str]) -> int | None:
    """The step (1 = the first action) of the first action that is not the line's action there;
    None if the tokens follow the line all the way (a prefix of it, or the whole of it)."""
    for step, token in enumerate(tokens, start=1):
        if step > len(line) or token != line[step - 1]:
            return step
    return None


def _finished_room(room_id: object) -> Room:
    room = rooms.room_for(room_id)
    if room.state != Room.State.FINISHED:
        raise Conflict(gettext("A race's review opens when the race is over."))
    return room


def _review_of(room: Room) -> DealReview:
    """The race's review as kept; one not recorded yet reads as pending (nothing is written here)."""
    return DealReview.objects.filter(room=room).first() or DealReview(room=room)


def review_document(*, room_id: object) -> dict[str, Any]:
    room = _finished_room(room_id)
    review = _review_of(room)
    line = review.line.split()
    won = review.status == DealReview.Status.WON
    players = []
    for _, row in rooms.table_of(room):
        result = row["result"]
        tokens = _log_of(result)
        players.append(
            {
                "player": row["player"],
                "result": result,
                "won": row["won"],
                "steps": len(tokens),
                "left_line_at": first_departure(tokens, line) if won else None,
            }
        )
    return {
        "room": str(room.pk),
        "code": room.code,
        "variant": room.variant,
        "solver": {"status": review.status, "par": review.par, "steps": len(line), "seconds_budget": SOLVE_SECONDS},
        "players": players,
    }


def _log_of(result_id: int | None) -> list[str]:
    if result_id is None:
        return []
    return (Result.objects.filter(pk=result_id).values_list("log", flat=True).first() or "").split()


def line_document(*, room_id: object, step: object) -> dict[str, Any]:
    """The solver's line for a finished race's deal after `step` actions, shown as a replay is."""
    room = _finished_room(room_id)
    review = _review_of(room)
    if review.status != DealReview.Status.WON:
        raise NotFound(
            gettext("The solver is still looking for a winning line on this deal.")
            if review.status == DealReview.Status.PENDING
            else gettext("The solver found no winning line on this deal.")
        )
    tokens = review.line.split()
    position = _step(step, len(tokens))
    game = Game.from_code(room.code)
    refusal = game.run(tokens[:position])
    if refusal is not None:  # the line was replayed by the solver before it was kept
        raise RuntimeError(f"the solver's line of {room.code} refused at {refusal[0]}")
    return {
        "race": {"room": str(room.pk), "code": room.code, "variant": room.variant, "par": review.par},
        "step": position,
        "steps": len(tokens),
        "token": tokens[position - 1] if position else None,
        "state": game.state(),
        "table": table_counts(game),
    }


def _step(step: object, steps: int) -> int:
    if step is None:
        return 0
    text = str(step)
    position = int(text) if text.isascii() and text.isdigit() and len(text) < 9 else -1
    if not 0 <= position <= steps:
        words = gettext("step is a whole number from 0 to %(steps)s: the actions of this line replayed so far.")
        if position > steps:
            raise NotFound(words % {"steps": steps})
        raise BadRequest(words % {"steps": steps})
    return position
