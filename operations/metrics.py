"""The service's metrics (prometheus_client), each worker's own, scraped at its `/metrics`
(docs/operations.md, "Metrics"). The hot path only touches counters and histograms: no I/O.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache, wraps
from typing import Any, TypeVar, cast

from prometheus_client import Counter, Gauge, Histogram, disable_created_metrics
from prometheus_client.core import REGISTRY, CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

from web.errors import (
    BadRequest,
    Conflict,
    NotAuthenticated,
    NotFound,
    RateLimited,
    ServiceError,
    Unavailable,
    Unprocessable,
)

F = TypeVar("F", bound=Callable[..., Any])

disable_created_metrics()  # no `_created` series beside every counter: they double the scrape for nothing

# Seconds, around what an action costs and its tail under load (bench/README.md).
_FAST = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.5, 5.0)

ACTIONS = Counter("league_actions", "Actions judged by the referee, by result: applied, or why refused", ["result"])
ACTION_SECONDS = Histogram(
    "league_action_seconds", "Judging and storing one action (the referee's time)", buckets=_FAST
)
HTTP_REQUESTS = Counter("league_http_requests", "HTTP requests answered, by method and status", ["method", "status"])
HTTP_SECONDS = Histogram("league_http_request_seconds", "HTTP requests, first byte in to last byte out", ["method"])
OPEN_SOCKETS = Gauge("league_open_sockets", "WebSockets open now, by kind", ["kind"])
SOCKET_ANSWER_SECONDS = Histogram(
    "league_socket_answer_seconds", "A socket message in to its answer out, by kind", ["kind"], buckets=_FAST
)


@cache
def socket_answer_seconds(kind: str) -> Histogram:
    """SOCKET_ANSWER_SECONDS of one kind of socket (a bounded set): labelled once, not per answer."""
    return SOCKET_ANSWER_SECONDS.labels(kind)


VERIFICATION_SECONDS = Histogram(
    "league_verification_seconds",
    "Replaying a whole log from its deal",
    buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1.0),
)
SUBMISSIONS = Counter("league_submissions", "Batch submissions, by result: verified, or why refused", ["result"])
RANK_INDEX_CATCH_UPS = Counter(
    "league_rank_index_catch_ups", "A reader found a board's rank index behind PostgreSQL and brought it up to date"
)
RANK_INDEX_REBUILDS = Counter("league_rank_index_rebuilds", "Rank indexes rebuilt from PostgreSQL")
PUSHES = Counter("league_pushes", "Changes sent to a live group, by type", ["type"])
PUSH_DELAY_SECONDS = Histogram(
    "league_push_delay_seconds",
    "From a change being sent to this worker reading it for its sockets, by type",
    ["type"],
    buckets=(0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0),
)
PUSH_DELIVERIES = Counter("league_push_deliveries", "Changes handed to a socket of this worker, by type", ["type"])
DRAINING = Gauge("league_draining", "1 while this worker is draining before it stops")

_REFUSALS: tuple[tuple[type[ServiceError], str], ...] = (
    (Unprocessable, "illegal"),
    (Conflict, "conflict"),
    (RateLimited, "rate_limited"),
    (NotFound, "not_found"),
    (NotAuthenticated, "unauthenticated"),
    (BadRequest, "bad_request"),
    (Unavailable, "unavailable"),
)
_APPLIED = ACTIONS.labels("applied")
_VERIFIED = SUBMISSIONS.labels("verified")
for _counter in (ACTIONS, SUBMISSIONS):  # every result shows from the start, at 0 (for rate())
    for _result in ("refused", "error", *(name for _, name in _REFUSALS)):
        _counter.labels(_result)


def refusal_name(error: BaseException) -> str:
    """`illegal`, `conflict`, ...: why a ServiceError refused; `error` for anything else."""
    if isinstance(error, ServiceError):
        for kind, name in _REFUSALS:
            if isinstance(error, kind):
                return name
        return "refused"
    return "error"


def judged_action(func: F) -> F:
    """Count and time each call of the action service (games.services.apply_action)."""

    @wraps(func)
    def counted(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            answer = func(*args, **kwargs)
        except Exception as error:
            action_judged(started, error)
            raise
        action_judged(started)
        return answer

    return counted  # type: ignore[return-value]


def action_judged(started: float, error: BaseException | None = None) -> None:
    """One action judged from `started` (time.perf_counter) on: applied, or refused with `error`."""
    ACTION_SECONDS.observe(time.perf_counter() - started)
    if error is not None:
        ACTIONS.labels(refusal_name(error)).inc()
    else:
        _APPLIED.inc()


@contextmanager
def _submitting() -> Iterator[None]:
    try:
        yield
    except Exception as error:
        SUBMISSIONS.labels(refusal_name(error)).inc()
        raise


def _submitted(answer: Any) -> Any:
    (_VERIFIED if answer[0] == 201 else SUBMISSIONS.labels("illegal")).inc()
    return answer


def submission(func: F) -> F:
    """Count each batch submission (games.results.submissions: (status, body), sync or awaited)."""
    if inspect.iscoroutinefunction(func):

        @wraps(func)
        async def counted_on_loop(*args: Any, **kwargs: Any) -> Any:
            with _submitting():
                answer = await func(*args, **kwargs)
            return _submitted(answer)

        return counted_on_loop  # type: ignore[return-value]

    @wraps(func)
    def counted(*args: Any, **kwargs: Any) -> Any:
        with _submitting():
            answer = func(*args, **kwargs)
        return _submitted(answer)

    return counted  # type: ignore[return-value]


def timed(histogram: Histogram) -> Callable[[F], F]:
    """Observe how long each call of the decorated function takes, refusals included."""
    return cast(Callable[[F], F], histogram.time())


def counts(counter: Counter) -> Callable[[F], F]:
    """Count each call of the decorated function."""

    def decorate(func: F) -> F:
        @wraps(func)
        def counted(*args: Any, **kwargs: Any) -> Any:
            counter.inc()
            return func(*args, **kwargs)

        return counted  # type: ignore[return-value]

    return decorate


def push_sent(message: dict[str, Any]) -> dict[str, Any]:
    """Count a change sent to a group (games.groups) and stamp when it left."""
    PUSHES.labels(message.get("type", "")).inc()
    message["sent_at"] = time.time()
    return message


def push_arrived(message: dict[str, Any]) -> None:
    """A socket is handed a change sent to its group (games.groups). Its delay (across processes'
    clocks) is observed once per change a worker reads: every socket of the group is handed the same
    message (web.sockets.live), and a histogram's observation per socket weighed on the fan-out."""
    delay, deliveries = _push_metrics(message.get("type", ""))
    deliveries.inc()
    if "observed" not in message:
        message["observed"] = True
        delay.observe(max(0.0, time.time() - float(message.get("sent_at", 0.0))))


@cache
def _push_metrics(kind: str) -> tuple[Histogram, Counter]:
    """The push metrics of one type of change (a bounded set): labelled once, not per socket."""
    return PUSH_DELAY_SECONDS.labels(kind), PUSH_DELIVERIES.labels(kind)


# (family, series, help, the pool's stat, its unit): read from psycopg_pool's get_stats().
_POOL_SERIES = (
    (GaugeMetricFamily, "pool_size", "Connections the pool holds", "pool_size", 1),
    (GaugeMetricFamily, "pool_available", "Connections idle in the pool", "pool_available", 1),
    (GaugeMetricFamily, "requests_waiting", "Requests waiting for a connection now", "requests_waiting", 1),
    (CounterMetricFamily, "pool_waits", "Requests that had to wait for a connection", "requests_queued", 1),
    (
        CounterMetricFamily,
        "pool_wait_seconds",
        "Time requests spent waiting for a connection",
        "requests_wait_ms",
        1000,
    ),
    (CounterMetricFamily, "pool_timeouts", "Requests that got no connection in time", "requests_errors", 1),
)


class _PoolCollector(Collector):
    """Read at scrape time, never on a request: the database pool and the sockets' database threads."""

    def describe(self) -> list[Any]:
        return []  # registered without a first reading: that would open the pool as the module is imported

    def collect(self) -> Iterator[GaugeMetricFamily | CounterMetricFamily]:
        from django.db import connections

        from web.sockets.consumer import queued_calls

        # Django's pool (5.1), one per alias and process; None without one (SQLite, no pool configured).
        pool = getattr(connections["default"], "pool", None)
        stats = {} if pool is None else pool.get_stats()
        for family, name, help_text, stat, unit in _POOL_SERIES if pool is not None else ():
            yield family(f"league_db_{name}", help_text, value=stats.get(stat, 0) / unit)
        yield GaugeMetricFamily(
            "league_socket_db_queue",
            "Socket database calls waiting for one of the sockets' threads",
            value=queued_calls(),
        )


REGISTRY.register(_PoolCollector())
