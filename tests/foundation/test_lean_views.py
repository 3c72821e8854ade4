"""The lean path of the hottest views (web/lean.py, web/lean_chain.py) answers as DRF's dispatch and
Django's whole middleware chain do: the same status, body and headers, for players by token and by
session (with CSRF for a POST), refusals, languages and rate limits.

Each request is sent twice through the ASGI application: as a client sends it (served leanly), and
with an Accept header the lean path leaves to DRF (`application/json; q=0.9`, which DRF answers
with the same plain JSON), through Django's whole chain. The event loop's path, which would take
some of these first, is switched off here: tests/foundation/test_loop_http.py compares it with this one.
"""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.test import RequestFactory

from config.asgi import django_asgi_app
from tests.conftest import make_player
from tests.foundation.test_asgi_handler import _browser, _token_for, request
from web import loop_http
from web.lean_chain import LeanHandler, lean_middleware

pytestmark = pytest.mark.django_db(transaction=True)

BOARD = "/api/leaderboards/code:SP1-S4C-AAAAAAD"
BY_DRF = "application/json; q=0.9"
JSON = "application/json"


@pytest.fixture(autouse=True)
def _no_loop_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loop_http, "_taken", lambda scope: None)


@pytest.fixture(autouse=True)
def _chains(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Which chain each request took (True: the lean one)."""
    taken: list[bool] = []
    real = LeanHandler.takes

    def takes(request: Any) -> bool:
        taken.append(real(request))
        return taken[-1]

    monkeypatch.setattr(LeanHandler, "takes", staticmethod(takes))
    return taken


async def both(method: str, path: str, *, body: bytes = b"", headers: dict[str, str] | None = None) -> Any:
    """The lean answer and DRF's to the same request, without the request id each answer has."""
    answers = []
    for accept in ("*/*", BY_DRF):
        answer = await request(method, path, body=body, headers={**(headers or {}), "Accept": accept})
        answer["headers"].pop("x-request-id")
        answers.append(answer)
    return answers


def test_the_comparison_takes_each_chain(_chains: list[bool]) -> None:
    from asgiref.sync import async_to_sync

    async_to_sync(both)("GET", BOARD)
    assert _chains == [True, False]


async def test_board_reads_answer_as_drf_does_for_every_kind_of_caller() -> None:
    player = await database_sync_to_async(make_player)()
    token = await _token_for(player)
    session, _ = await _browser(player)
    callers: list[dict[str, str]] = [
        {},
        {"Authorization": f"Token {token}"},
        {"Authorization": "Token " + "0" * 40},  # refused: 401
        {"Cookie": f"{settings.SESSION_COOKIE_NAME}={session}"},
        {"Accept-Language": "fi"},
        {"Host": "elsewhere.example"},  # not an allowed host: 400
    ]
    paths = [BOARD, f"{BOARD}?limit=0", f"{BOARD}?around=you", f"{BOARD}?around=me&limit=5", "/api/leaderboards/x"]
    for headers in callers:
        for path in paths:
            lean, drf = await both("GET", path, headers=headers)
            assert lean == drf, (headers, path)
    elsewhere, _ = await both("GET", BOARD, headers={"Host": "elsewhere.example"})
    assert elsewhere["status"] == 400
    lean, _ = await both("GET", BOARD, headers={"Accept-Language": "hr"})
    assert lean["status"] == 200 and lean["headers"]["content-language"] == "hr"
    assert lean["headers"]["allow"] == "GET, HEAD, OPTIONS"
    assert "content-security-policy" in lean["headers"] and lean["headers"]["x-frame-options"] == "DENY"


async def test_submission_refusals_answer_as_drf_does() -> None:
    player = await database_sync_to_async(make_player)()
    token = await _token_for(player)
    by_token = {"Authorization": f"Token {token}", "Content-Type": JSON}
    cases: list[tuple[dict[str, str], bytes]] = [
        ({"Content-Type": JSON}, b'{"code": "SP1-S4C-AAAAAAD", "moves": []}'),  # no player: 401
        (by_token, b'{"code": "SP1-S4C-AAAAAAD", "moves": ["99:1>2"]}'),  # an illegal move: 422
        (by_token, b'{"code": "no code", "moves": []}'),
        (by_token, b'{"code": "SP1-S4C-AAAAAAD"}'),  # the serializer words it
        (by_token, b'{"code": "SP1-S4C-AAAAAAD", "moves": [], "claimed_score": 1.5}'),
        (by_token, b"{not json"),
        (by_token, b"[" * 100_000),  # nested too deeply
        (by_token, b""),
        ({"Authorization": f"Token {token}", "Content-Type": "text/plain"}, b'{"moves": []}'),  # 415
        ({**by_token, "Accept-Language": "fi"}, b'{"code": "no code", "moves": []}'),
    ]
    for headers, body in cases:
        lean, drf = await both("POST", "/api/submissions", body=body, headers=headers)
        assert lean == drf, (headers, body)
        assert lean["status"] >= 400 and lean["body"].startswith(b'{"error":{"message":')


async def test_a_session_player_submits_with_the_csrf_token_only(settings: Any) -> None:
    player = await database_sync_to_async(make_player)()
    session, csrf = await _browser(player)
    cookie = {"Cookie": f"{settings.SESSION_COOKIE_NAME}={session}; csrftoken={csrf}", "Content-Type": JSON}
    body = b'{"code": "SP1-S4C-AAAAAAD", "moves": []}'
    lean, drf = await both("POST", "/api/submissions", body=body, headers=cookie)
    assert lean == drf and lean["status"] == 403 and b"CSRF" in lean["body"]
    with_token = {**cookie, "X-CSRFToken": csrf, "Origin": "http://testserver"}
    lean, drf = await both("POST", "/api/submissions", body=body, headers=with_token)
    assert lean["status"] == drf["status"] == 201
    assert lean["headers"] == {**drf["headers"], "content-length": lean["headers"]["content-length"]}


async def test_the_rate_limits_hold_on_the_lean_path(settings: Any) -> None:
    settings.RATE_SUBMISSIONS = 1
    player = await database_sync_to_async(make_player)()
    token = await _token_for(player)
    headers = {"Authorization": f"Token {token}", "Content-Type": JSON}
    body = b'{"code": "SP1-S4C-AAAAAAD", "moves": []}'
    first = await request("POST", "/api/submissions", body=body, headers=headers)
    assert first["status"] == 201
    lean, drf = await both("POST", "/api/submissions", body=body, headers=headers)
    assert lean == drf and lean["status"] == 429 and "retry-after" in lean["headers"]


def test_the_lean_chain_is_djangos_less_what_the_lean_views_do_not_need() -> None:
    assert lean_middleware(settings.MIDDLEWARE) == [
        "web.middleware.BodySizeLimitMiddleware",
        "django.middleware.security.SecurityMiddleware",
        "csp.middleware.CSPMiddleware",
        "django.contrib.sessions.middleware.SessionMiddleware",
        "django.middleware.locale.LocaleMiddleware",
        "web.middleware.ResolvedCommonMiddleware",
        "django.middleware.csrf.CsrfViewMiddleware",
        "django.contrib.auth.middleware.AuthenticationMiddleware",
        "django.middleware.clickjacking.XFrameOptionsMiddleware",
    ]
    assert isinstance(django_asgi_app.lean, LeanHandler)


def test_only_the_requests_a_lean_view_serves_itself_take_the_lean_chain() -> None:
    factory = RequestFactory()
    assert LeanHandler.takes(factory.get(BOARD))
    assert LeanHandler.takes(factory.post("/api/submissions", b"{}", content_type=JSON))
    for other in (
        factory.head(BOARD),
        factory.options(BOARD),
        factory.get(BOARD, HTTP_ACCEPT="text/html"),
        factory.get(BOARD, {"format": "json"}),
        factory.get(f"{BOARD}/par"),
        factory.get("/api/submissions"),
        factory.get("/api/no-such-thing"),
        factory.get("/"),
    ):
        assert not LeanHandler.takes(other), other
