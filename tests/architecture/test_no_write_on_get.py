"""A GET changes nothing: every GET of the API (read from the OpenAPI document, so a new endpoint is
covered the day it appears) and every page, asked by a player with a finished race, a waiting quick
match, a pending challenge, an open game and yesterday's daily attempt, runs no INSERT, UPDATE or
DELETE. Work a GET used to do on the side (closing an expired daily attempt, queueing a search)
belongs to the closer or to the request that changes something."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.db import connection
from django.test import Client
from django.urls import URLPattern, URLResolver, reverse
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from frontend import urls as page_urls
from games import services
from games.dailies.schedule import utc_today
from games.models import Daily, Player, Room
from races import challenges, matching, review
from races.models import QueueEntry
from tests.leaderboard.factories import RUSSIAN_WIN, daily_of, make_result, named, vector_log
from tests.races.race_helpers import on_commit, open_race, play, walk
from tests.races.test_race_review import SOLVABLE

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

WRITES = ("INSERT", "UPDATE", "DELETE")


@contextmanager
def writes_seen() -> Iterator[list[str]]:
    """The statements that write, of those this connection runs meanwhile."""
    seen: list[str] = []

    def watch(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        if sql.lstrip().upper().startswith(WRITES):
            seen.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(watch):
        yield seen


def _get_operations() -> dict[str, list[str]]:
    """Each GET path of the API with the names of its query parameters."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return {
        path: [p["name"] for p in operations["get"].get("parameters", []) if p["in"] == "query"]
        for path, operations in schema["paths"].items()
        if "get" in operations
    }


def _pages() -> list[URLPattern]:
    found = []
    for pattern in page_urls.urlpatterns:
        assert not isinstance(pattern, URLResolver), "frontend.urls includes another list: walk it here"
        if pattern.name is not None:
            found.append(pattern)
    return found


@pytest.fixture
def world(django_capture_on_commit_callbacks: Any) -> dict[str, Any]:
    """One player's everything: a finished race, a queue entry, a challenge, an open game, results."""
    room, (me, rival) = on_commit(django_capture_on_commit_callbacks, lambda: open_race(2, code=SOLVABLE))
    for racer, steps in ((me, 30), (rival, 10)):
        on_commit(django_capture_on_commit_callbacks, lambda r=racer, s=steps: play(room, r, walk(room, s)))
    assert review.solve_pending(lambda: False) is not None  # the closer's search: the review has its line
    result = make_result(me, RUSSIAN_WIN, vector_log(RUSSIAN_WIN))
    yesterday = utc_today(timezone.now()) - dt.timedelta(days=1)
    before = yesterday - dt.timedelta(days=1)  # a published daily, played and won, with its par
    published = daily_of(before, "RU1-C", RUSSIAN_WIN)
    Daily.objects.filter(pk=published.pk).update(
        certified=True, par=len(vector_log(RUSSIAN_WIN)), par_line=" ".join(vector_log(RUSSIAN_WIN))
    )
    make_result(me, RUSSIAN_WIN, vector_log(RUSSIAN_WIN), daily=published)
    daily = daily_of(yesterday, "RU1-C", RUSSIAN_WIN)
    # Yesterday's attempt left open: closing it is the closer's job, not a reader's.
    noon = dt.datetime.combine(yesterday, dt.time(12), tzinfo=dt.UTC)
    attempt, _ = services.start_session(player=me, daily="RU1-C", now=noon)
    assert attempt.daily_id == daily.pk and not attempt.finished
    open_game, _ = services.start_session(player=me, code="SD1-S1-HJSZOZN")
    waiting = named()
    async_to_sync(matching.ask)(player=me, variant="SD1-S1")
    # Seen a while ago, still in the queue: a reader must not refresh that.
    long_ago = timezone.now() - dt.timedelta(seconds=matching.STALE_SECONDS - 1)
    QueueEntry.objects.filter(player=me).update(seen_at=long_ago)
    challenges.challenge(challenger=waiting, name=me.username, variant="SD1-S1")
    assert Room.objects.filter(pk=room.pk, state=Room.State.FINISHED).exists()
    return {
        "me": me,
        "board": f"code:{RUSSIAN_WIN}",
        "daily_board": f"daily:{before.isoformat()}:RU1-C",
        "date": before.isoformat(),
        "variant": "RU1-C",
        "open": "1",
        "question": {"group": "1:1"},  # /why: exactly one question (form-exploded)
        "name": me.username,
        "game": "SD",
        "result_id": str(result.pk),
        "room_id": str(room.pk),
        "session_id": str(open_game.id),
    }


def _filled(path: str, world: dict[str, Any]) -> str:
    if "/par" in path:  # a par is a daily's
        path = path.replace("{board}", world["daily_board"])
    for name in ("board", "variant", "name", "game", "result_id", "room_id", "session_id"):
        path = path.replace("{" + name + "}", str(world[name]))
    assert "{" not in path, f"no value for a parameter of {path}: add one to the world"
    return path


def test_no_api_get_writes(world: dict[str, Any]) -> None:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=world['me']).key}")
    paths = _get_operations()
    assert "/api/rooms/{room_id}/review" in paths and "/api/match" in paths  # the schema was read
    answers = {}
    for path, parameters in paths.items():
        url = _filled(path, world)
        query: dict[str, Any] = {}
        for name in parameters:  # those the world has a value for; the rest take their defaults
            value = world.get(name)
            query.update(value if isinstance(value, dict) else {} if value is None else {name: value})
        with writes_seen() as writes:
            answers[path] = api.get(url, query).status_code
        assert not writes, f"GET {url} wrote: {writes}"
    assert all(status < 500 for status in answers.values()), answers
    assert all(status == 200 for status in answers.values()), {p: s for p, s in answers.items() if s != 200}


def test_no_page_writes(world: dict[str, Any]) -> None:
    browser = Client()
    browser.force_login(Player.objects.get(pk=world["me"].pk))
    for pattern in _pages():
        kwargs = {name: _filled("{" + name + "}", world) for name in pattern.pattern.converters}
        url = reverse(pattern.name, kwargs=kwargs)
        with writes_seen() as writes:
            status = browser.get(url).status_code
        assert status < 500, url
        assert not writes, f"GET {url} wrote: {writes}"
