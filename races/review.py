"""A race's review, once it is over: each racer's game beside the solver's winning line for the deal.

A race's fresh deal is not certified when it is dealt, so its line is found after the race ends:
once, off the request path (one worker thread a process, so finished races queue rather than
crowd the server), within SOLVE_SECONDS; the review says so when no win was found in that time. A
search lost with its process (a restart) is queued again by the next look at the review once it has
been pending for REQUEUE_SECONDS, unless this process still has it queued.
Each racer's line is marked where it first leaves the solver's line: the first of their actions
that is not the solver's action at that step. That is exact, and says only that they played
differently from this one winning line, not that they lost a win there (another line may win too).
Nothing is shown before the race is over: its deal is secret until then.
"""

from __future__ import annotations

import datetime as dt
import logging
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.db import close_old_connections, transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.engine import Game
from games.models import Result, Room
from games.rooms import race_events, rooms
from games.selectors import table_counts
from games.solver import solve
from races.models import DealReview
from web.errors import BadRequest, Conflict, NotFound

log = logging.getLogger(__name__)

SOLVE_SECONDS = 30.0
REQUEUE_SECONDS = SOLVE_SECONDS + 30  # pending this long since queued, and not queued here: lost
_worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="race-review")


def _in_worker(call: Callable[[], None]) -> None:
    def run() -> None:
        close_old_connections()
        try:
            call()
        except Exception:  # noqa: BLE001 - the review stays pending; a later look asks again
            log.exception("could not solve a race's deal")
        finally:
            close_old_connections()

    _worker.submit(run)


run_later: Callable[[Callable[[], None]], None] = _in_worker


def on_race_event(event: race_events.Event) -> None:
    if isinstance(event, race_events.Ended):
        ask_for_line(event.room_id)


def ask_for_line(room_id: uuid.UUID, *, now: dt.datetime | None = None) -> DealReview:
    """The deal's review, its search queued if it was never asked for, or queued again if it was
    lost (`requeue_if_lost`)."""
    now = now or timezone.now()
    review, created = DealReview.objects.get_or_create(room_id=room_id, defaults={"created_at": now, "queued_at": now})
    if created or requeue_if_lost(review, now=now):
        _queue_on_commit(room_id)
    return review


def requeue_if_lost(review: DealReview, *, now: dt.datetime) -> bool:
    """Whether `review`'s search is lost and this call takes it over: pending for REQUEUE_SECONDS
    since last queued, not queued in this process, and not taken over meanwhile by another look
    (the update that restarts its clock succeeds once, whichever worker runs it)."""
    if review.status != DealReview.Status.PENDING or review.pk in _queued:
        return False
    stale_before = now - dt.timedelta(seconds=REQUEUE_SECONDS)
    pending = DealReview.objects.filter(pk=review.pk, status=DealReview.Status.PENDING, queued_at__lt=stale_before)
    if not pending.update(queued_at=now):
        return False
    log.warning("the search of race %s's deal was lost (pending since %s): queued again", review.pk, review.queued_at)
    review.queued_at = now
    return True


def _queue_on_commit(room_id: uuid.UUID) -> None:
    def queue() -> None:
        _queued.add(room_id)
        run_later(lambda: _solve_then_forget(room_id))

    transaction.on_commit(queue, robust=True)


def _solve_then_forget(room_id: uuid.UUID) -> None:
    try:
        solve_deal(room_id)
    finally:
        _queued.discard(room_id)


_queued: set[uuid.UUID] = set()  # the searches this process has queued and not yet run


def solve_deal(room_id: uuid.UUID) -> None:
    """Search the race's deal once, within SOLVE_SECONDS, and keep what was found."""
    review = DealReview.objects.select_related("room").filter(room_id=room_id).first()
    if review is None or review.status != DealReview.Status.PENDING:
        return
    solution = solve(review.room.code, SOLVE_SECONDS)
    DealReview.objects.filter(pk=room_id, status=DealReview.Status.PENDING).update(
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


def review_document(*, room_id: object) -> dict[str, Any]:
    room = _finished_room(room_id)
    review = ask_for_line(room.pk)
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
    review = ask_for_line(room.pk)
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
