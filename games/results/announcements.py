"""The one hook by which the rest of the service hears of a verified result.

The referee announces; whoever keeps something made of results (the leaderboard's boards and
statistics) subscribes, from its AppConfig.ready. The referee does not know who listens.

A listener runs inside the transaction that stored the result, so what it writes commits or rolls
back with the result (a verified result never goes without its board entry); what must follow the
commit (an index, a push) it hands to `after_commit`: an async effect, run once the transaction
commits (through asgiref's async_to_sync), or on the event loop for a result stored there
(games.results.store). A listener whose writes need no
answer first (a Writer) has them sent with the result's own INSERT, in its round trip; the other
listeners hear of the result after the writers. When every listener is a Writer that writes nothing
more for a result (heard_after_commit), the result and the writers' statements are one round trip
that commits by itself, and the writers hear of their rows after it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from asgiref.sync import async_to_sync
from django.db import transaction

from web.storage import Row, fetch_each

if TYPE_CHECKING:
    from games.models import Result


@dataclass(frozen=True)
class Event:
    """`verified`: a result was just stored (once per result). `held_back`: it belongs to a secret
    race, so it must not be shown on a board yet (a board entry would answer questions about a
    deal whose code is secret). `revealed`: such a race has ended, and its result may be ranked now.
    `under_review`: a daily result held by fair play (games.dailies.fair_play), counted nowhere yet;
    `approved`: staff approved such a result, which now counts as a verified one would have (a
    voided one is never announced again). `withdrawn`: staff voided a result approved before, which
    counts nowhere from now on (its listeners take it back out).
    """

    kind: Literal["verified", "revealed", "approved", "withdrawn"]
    result: Result
    held_back: bool = False
    under_review: bool = False

    @property
    def counts(self) -> bool:
        """Whether this event adds the result to its player's statistics and streak."""
        return (self.kind == "verified" and not self.under_review) or self.kind == "approved"

    @property
    def ranks(self) -> bool:
        """Whether this event offers the result to its boards."""
        return self.kind != "withdrawn" and not (self.kind == "verified" and (self.held_back or self.under_review))


@dataclass(frozen=True)
class NewResult:
    """SQL for the result being stored by the statement just before, in the same round trip (its
    id is not known to Python yet): its `id`, and that id as the last digits of a sort key
    (games.ranking.keys.RESULT_ID_WIDTH wide), each an expression for this database."""

    id: str
    key_suffix: str


Statement = tuple[str, Sequence[Any]]


@dataclass(frozen=True)
class Writer:
    """A listener whose writes need no answer from the database before they are sent, so they go
    with the result's own INSERT (games.results.store): `statements(event, new)` gives them (`new` is
    None for a result stored already, whose pk is set), `wrote(event, rows)` takes their rows,
    with the result's pk set."""

    statements: Callable[[Event, NewResult | None], list[Statement]]
    wrote: Callable[[Event, list[Row | None]], None]
    # Whether wrote() writes more for this event (so it must run before the commit); when no
    # listener does, the result and the writers' statements commit in their one round trip.
    writes_more: Callable[[Event], bool] = lambda event: True


Listener = Callable[[Event], None] | Writer

_listeners: list[Listener] = []


def subscribe(listener: Listener) -> None:
    """Hear of every verified result from now on (subscribing twice changes nothing)."""
    if listener not in _listeners:
        _listeners.append(listener)


def announce(event: Event) -> None:
    """Inside the result's transaction, the result stored: tell every listener, in the order they
    subscribed. A listener's error rolls the result back with everything else."""
    for listener in tuple(_listeners):
        if isinstance(listener, Writer):
            listener.wrote(event, fetch_each(listener.statements(event, None)))
        else:
            listener(event)


def heard_after_commit(event: Event) -> bool:
    """Whether every listener may hear of `event` once the statements of announce_with have
    committed: each is a Writer whose wrote() writes nothing more for it (what must follow the
    commit, it puts on transaction.on_commit, which then runs at once)."""
    return all(isinstance(listener, Writer) and not listener.writes_more(event) for listener in _listeners)


def announce_with(event: Event, new: NewResult) -> tuple[list[Statement], Callable[[list[Row | None]], None]]:
    """For a result about to be stored: the writers' statements, to run right after its INSERT in
    the same round trip, and what to call with their rows once its pk is set; that call tells the
    writers (their rows, in the order they subscribed), then every other listener."""
    listeners = tuple(_listeners)
    plans = [listener.statements(event, new) if isinstance(listener, Writer) else None for listener in listeners]
    statements = [statement for plan in plans if plan is not None for statement in plan]

    def told(rows: list[Row | None]) -> None:
        at = 0
        for listener, plan in zip(listeners, plans, strict=True):
            if isinstance(listener, Writer) and plan is not None:
                listener.wrote(event, rows[at : at + len(plan)])
                at += len(plan)
        for listener in listeners:
            if not isinstance(listener, Writer):
                listener(event)

    return statements, told


class AfterCommit(Protocol):
    """What a listener does once the result's transaction committed."""

    async def run(self) -> None: ...


log = logging.getLogger(__name__)
_collected: ContextVar[list[AfterCommit] | None] = ContextVar("after_commit", default=None)


def after_commit(effect: AfterCommit) -> None:
    """Run `effect` once the transaction that stored the result commits (at once outside one), or,
    while the loop collects them (`collected`), leave it to the loop."""
    kept = _collected.get()
    if kept is not None:
        kept.append(effect)
    else:
        transaction.on_commit(async_to_sync(effect.run), robust=True)


@contextmanager
def collected() -> Iterator[list[AfterCommit]]:
    """Within: the listeners' after-commit effects are collected into the list, for a result the
    event loop committed itself (games.results.store.store_submission), which runs them there."""
    kept: list[AfterCommit] = []
    token = _collected.set(kept)
    try:
        yield kept
    finally:
        _collected.reset(token)


async def run_collected(effects: list[AfterCommit]) -> None:
    """Run collected effects on the loop, each on its own: a failure is logged, as on_commit's
    robust callbacks are, and loses only what it would have told."""
    for effect in effects:
        try:
            await effect.run()
        except Exception:  # noqa: BLE001 - the result is committed; the next reader catches up
            log.exception("an after-commit effect failed: %r", effect)
