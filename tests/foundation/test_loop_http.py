"""Requests served on the event loop (web/loop_http.py) answer as Django's path does: the same
status, body and headers, byte for byte, for every kind of caller, board and refusal; and whatever
the loop cannot answer exactly (a cookie, an unknown or revoked token, an index to repair, Redis
failing, a daily to close) it hands over to Django's path, which answers as it always did.

Each request is sent twice through the ASGI application: as a client sends it, and with the loop
path switched off (Django's lean chain serves it then).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
import redis
from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone
from rest_framework.authtoken.models import Token

from config.asgi import application
from games.engine import DAILY_VARIANTS
from games.models import Player
from leaderboard import rank_index
from tests.conftest import make_player
from tests.foundation.test_asgi_handler import _browser, _token_for, request
from tests.leaderboard.factories import RUSSIAN_WIN, make_result, named, vector_log
from web import http, loop_http

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.usefixtures("socket_cleanup"),
]

BOARD = f"/api/leaderboards/code:{RUSSIAN_WIN}"


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Which path answered each request (True: the loop)."""
    taken: list[bool] = []
    real = loop_http.serve

    async def serve(scope: dict[str, Any], body: bytes) -> Any:
        answer = await real(scope, body)
        taken.append(answer is not None)
        return answer

    monkeypatch.setattr(loop_http, "serve", serve)
    return taken


async def both(
    method: str, path: str, *, body: bytes = b"", headers: dict[str, str] | None = None, app: Any = application
) -> Any:
    """The answer as served (the loop's, where it takes it) and Django's to the same request, each
    without its request id."""
    answers = []
    for on_loop in (True, False):
        with pytest.MonkeyPatch.context() as patch:
            if not on_loop:
                patch.setattr(loop_http, "_taken", lambda scope: None)
            answer = await request(method, path, body=body, headers=headers, app=app)
        answer["headers"].pop("x-request-id", None)
        answers.append(answer)
    return answers


@database_sync_to_async
def _a_played_board() -> Player:
    """Three results on BOARD, one of them the viewer's; returns the viewer."""
    log = vector_log(RUSSIAN_WIN)
    for cut in (40, len(log)):
        make_result(named(), RUSSIAN_WIN, log[:cut])
    viewer = make_player("viewer")
    make_result(viewer, RUSSIAN_WIN, log[:70])
    return viewer


async def test_board_reads_on_the_loop_answer_as_django_does(served: list[bool]) -> None:
    viewer = await _a_played_board()
    token = await _token_for(viewer)
    await request("GET", BOARD, headers={"Authorization": f"Token {token}"})  # Django's path caches the token
    served.clear()
    by_token = {"Authorization": f"Token {token}"}
    callers: list[dict[str, str]] = [
        {},
        by_token,
        {**by_token, "Accept-Language": "fi"},
        {"Accept-Language": "hr;q=0.9, en;q=0.5"},
        {"Accept": "application/json"},
    ]
    today = timezone.now().date().isoformat()
    paths = [
        BOARD,
        f"{BOARD}:clean",
        f"{BOARD}?limit=2",
        f"{BOARD}?around=me&limit=1",
        f"{BOARD}?limit=0",
        f"{BOARD}?limit=1x",
        f"{BOARD}?around=you",
        f"{BOARD}?cursor=",
        f"{BOARD}?cursor=not-a-cursor",
        f"/api/leaderboards/daily:{today}:{DAILY_VARIANTS[0]}",
        f"/api/leaderboards/daily:2999-01-01:{DAILY_VARIANTS[0]}",  # not out yet: 404
        "/api/leaderboards/daily:2026-13-01:SP1-S4C",
        "/api/leaderboards/code:SP1-S4C-AAAAAAZZ",
        "/api/leaderboards/x",
        "/api/leaderboards/%E2%80%A8:x",  # echoed in the refusal: U+2028 escaped as DRF does
    ]
    for headers in callers:
        for path in paths:
            loop, django = await both("GET", path, headers=headers)
            assert loop == django, (headers, path)
    # Each comparison is a pair: the loop's answer, then Django's (the loop switched off).
    assert all(served[0::2]) and not any(served[1::2]), "the loop did not serve these: nothing was compared"
    page, _ = await both("GET", f"{BOARD}?limit=2", headers=by_token)
    assert page["status"] == 200 and b'"next_cursor":"' in page["body"] and b'"me":{"rank":2' in page["body"]
    cursor = page["body"].split(b'"next_cursor":"')[1].split(b'"')[0].decode()
    loop, django = await both("GET", f"{BOARD}?limit=2&cursor={cursor}", headers=by_token)
    assert loop == django and loop["status"] == 200


async def test_what_the_loop_cannot_answer_exactly_goes_to_django(served: list[bool]) -> None:
    viewer = await _a_played_board()
    token = await _token_for(viewer)
    session, _ = await _browser(viewer)
    handed_over: list[dict[str, str]] = [
        {"Cookie": f"{settings.SESSION_COOKIE_NAME}={session}"},  # a browser's session
        {"Authorization": "Token " + "0" * 40},  # unknown: Django refuses it, 401
        {"Authorization": "Bearer x"},
        {"Authorization": "Token a b"},
        {"Accept": "application/json; indent=2"},
        {"Host": "elsewhere.example"},  # Django refuses it, 400
        {"Content-Length": "x"},
    ]
    for headers in handed_over:
        served.clear()
        loop, django = await both("GET", BOARD, headers=headers)
        assert loop == django and served == [False, False], headers
    assert loop["status"] == 400
    served.clear()
    await both("GET", f"{BOARD}?format=json")
    assert served == [False, False]
    served.clear()
    await both("POST", BOARD)  # the view serves GET only: 405, in words
    assert served == [False, False]
    del token


async def test_a_revoked_token_is_refused_at_once(served: list[bool]) -> None:
    player = await database_sync_to_async(make_player)()
    token = await _token_for(player)
    by_token = {"Authorization": f"Token {token}"}
    await request("GET", BOARD, headers=by_token)
    served.clear()
    assert (await request("GET", BOARD, headers=by_token))["status"] == 200 and served == [True]
    await database_sync_to_async(Token.objects.filter(key=token).delete)()
    refused = await request("GET", BOARD, headers=by_token)
    assert refused["status"] == 401 and served[-1] is False


async def test_an_inactive_player_is_refused(served: list[bool]) -> None:
    player = await database_sync_to_async(make_player)()
    token = await _token_for(player)
    by_token = {"Authorization": f"Token {token}"}
    await request("GET", BOARD, headers=by_token)
    player.is_active = False
    await database_sync_to_async(player.save)()
    refused = await request("GET", BOARD, headers=by_token)
    assert refused["status"] == 401 and served[-1] is False


async def test_an_expired_token_is_refused(served: list[bool], settings: Any) -> None:
    player = await database_sync_to_async(make_player)()
    token = await _token_for(player)
    by_token = {"Authorization": f"Token {token}"}
    await request("GET", BOARD, headers=by_token)  # cached, with its creation time
    settings.TOKEN_SECONDS = 0
    refused = await request("GET", BOARD, headers=by_token)
    assert refused["status"] == 401 and b"expired" in refused["body"] and served[-1] is False


async def test_redis_failing_mid_read_hands_over_to_the_sql_answer(
    served: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    await _a_played_board()
    expected = await request("GET", BOARD)
    assert expected["status"] == 200 and served[-1] is True

    async def failing(commands: Any) -> Any:
        raise redis.ConnectionError("Redis went away")

    monkeypatch.setattr(rank_index, "pipelined_on_loop", failing)
    answered = await request("GET", BOARD)
    assert served[-1] is False and answered["status"] == 200 and answered["body"] == expected["body"]


async def test_a_daily_with_an_attempt_to_close_is_closed_by_django_first(served: list[bool]) -> None:
    from games import services
    from games.models import GameSession

    two_days_ago = timezone.now() - dt.timedelta(days=2)

    @database_sync_to_async
    def open_attempt() -> None:
        services.start_session(player=make_player("late"), daily=DAILY_VARIANTS[0], now=two_days_ago)
        assert GameSession.objects.filter(finished_at=None, daily__isnull=False).count() == 1

    await open_attempt()
    board = f"/api/leaderboards/daily:{two_days_ago.date().isoformat()}:{DAILY_VARIANTS[0]}"
    answered = await request("GET", board)
    assert answered["status"] == 200 and served[-1] is False
    closed = await database_sync_to_async(GameSession.objects.filter(finished_at=None).count)()
    assert closed == 0
    again = await request("GET", board)
    assert again == {**answered, "headers": {**answered["headers"], "x-request-id": again["headers"]["x-request-id"]}}
    assert served[-1] is True


@pytest.mark.parametrize("proto", ["https", "http"])
async def test_production_headers_and_redirects_as_django(served: list[bool], settings: Any, proto: str) -> None:
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 31536000
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    settings.SECURE_HSTS_PRELOAD = True
    settings.DEBUG = False
    app = http.ASGIHandler()  # Django's middleware reads these settings when it is made
    loop, django = await both("GET", BOARD, headers={"X-Forwarded-Proto": proto}, app=app)
    assert loop == django
    if proto == "https":
        assert served == [True, False] and "strict-transport-security" in loop["headers"]
    else:
        assert served == [False, False] and loop["status"] == 301
