"""The one hook by which the rest of the service hears of a verified result.

The referee announces; whoever keeps something made of results (the leaderboard's boards and
statistics) subscribes, from its AppConfig.ready. The referee does not know who listens.

A listener runs inside the transaction that stored the result, so what it writes commits or rolls
back with the result (a verified result never goes without its board entry); what must follow the
commit (an index, a push) it puts on transaction.on_commit itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from games.models import Result


@dataclass(frozen=True)
class Event:
    """`verified`: a result was just stored (once per result). `held_back`: it belongs to a secret
    race, so it must not be shown on a board yet (a board entry would answer questions about a
    deal whose code is secret). `revealed`: such a race has ended, and its result may be ranked now.
    """

    kind: Literal["verified", "revealed"]
    result: Result
    held_back: bool = False


Listener = Callable[[Event], None]

_listeners: list[Listener] = []


def subscribe(listener: Listener) -> None:
    """Hear of every verified result from now on (subscribing twice changes nothing)."""
    if listener not in _listeners:
        _listeners.append(listener)


def announce(event: Event) -> None:
    """Inside the result's transaction: tell every listener, in the order they subscribed. A
    listener's error rolls the result back with everything else."""
    for listener in tuple(_listeners):
        listener(event)
