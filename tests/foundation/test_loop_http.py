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

import orjson
import pytest
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


async def test_my_rank_is_of_postgresql_s_key_when_the_index_names_another_member_for_me(served: list[bool]) -> None:
    import redis as redis_client

    viewer = await _a_played_board()
    by_token = {"Authorization": f"Token {await _token_for(viewer)}"}
    before, _ = await both("GET", BOARD, headers=by_token)
    assert b'"me":{"rank":2' in before["body"]
    # The index names a better member for me than PostgreSQL's key (a newer result of mine on its way,
    # as it can be between the two reads): the rank shown is still that of the entry PostgreSQL holds.
    zset, by_player, _ = rank_index.keys(f"code:{RUSSIAN_WIN}")
    index = redis_client.Redis.from_url(settings.REDIS_URL)
    index.zadd(zset, {"0": 0})
    index.hset(by_player, str(viewer.pk), "0")
    served.clear()
    loop, django = await both("GET", f"{BOARD}?limit=5", headers=by_token)
    assert served[0] is True and loop == django
    assert b'"me":{"rank":3' in loop["body"]  # my entry, now behind the member put ahead of it


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


async def test_redis_failing_mid_read_gives_the_sql_answer(served: list[bool], monkeypatch: pytest.MonkeyPatch) -> None:
    await _a_played_board()
    expected = await request("GET", BOARD)
    assert expected["status"] == 200 and served[-1] is True

    async def failing(board: str, **read: Any) -> Any:
        raise rank_index.RankIndexUnavailable("Redis went away")

    monkeypatch.setattr(rank_index, "read_page", failing)
    answered = await request("GET", BOARD)
    assert answered["status"] == 200 and answered["body"] == expected["body"]


async def test_a_daily_with_an_attempt_to_close_is_closed_by_django_first(served: list[bool]) -> None:
    from games import services
    from games.models import GameSession
    from tests.daily_helpers import store_unsettled_dailies

    two_days_ago = timezone.now() - dt.timedelta(days=2)

    @database_sync_to_async
    def open_attempt() -> None:
        store_unsettled_dailies(two_days_ago.date(), DAILY_VARIANTS[:1])
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


# ------------------------------------------------------------------------------------ submissions

JSON = "application/json"
CODE = RUSSIAN_WIN


def _without_ids(answer: dict[str, Any]) -> dict[str, Any]:
    """An answer with the new result's id and time taken out: two submissions make two results."""
    body = orjson.loads(answer["body"])
    if "result" in body:
        body["result"].pop("id"), body["result"].pop("verified_at")
    return {**answer, "body": body, "headers": {k: v for k, v in answer["headers"].items() if k != "content-length"}}


async def _token_player(name: str) -> tuple[Player, dict[str, str]]:
    player = await database_sync_to_async(make_player)(name)
    token = await _token_for(player)
    headers = {"Authorization": f"Token {token}", "Content-Type": JSON}
    await request("GET", BOARD, headers={"Authorization": f"Token {token}"})  # the token cache knows it now
    return player, headers


async def test_submissions_on_the_loop_answer_and_store_as_django_does(served: list[bool]) -> None:
    player, by_token = await _token_player("submitter")
    served.clear()
    log = vector_log(CODE)
    cases: list[tuple[dict[str, str], bytes]] = [
        (by_token, orjson.dumps({"code": CODE, "moves": log})),  # verified: 201
        (by_token, orjson.dumps({"code": CODE, "moves": log[:30], "claimed_score": 1})),  # a wrong claim: 422
        (by_token, orjson.dumps({"code": CODE, "moves": ["99:1>2"]})),  # an illegal move: 422 at index 0
        (by_token, orjson.dumps({"code": "no code", "moves": []})),  # 400, in words
        (by_token, orjson.dumps({"code": CODE, "moves": "D"})),  # the serializer's words: Django's
        (by_token, orjson.dumps({"code": CODE, "moves": ["D"] * 5001})),  # too long: 422
        ({**by_token, "Accept-Language": "fi"}, orjson.dumps({"code": CODE, "moves": ["99:1>2"]})),
        ({**by_token, "Content-Type": "application/json; charset=utf-8"}, orjson.dumps({"code": CODE, "moves": []})),
    ]
    for headers, body in cases:
        loop, django = await both("POST", "/api/submissions", body=body, headers=headers)
        assert _without_ids(loop) == _without_ids(django), (headers, body[:80])
    assert served[0::2] == [True, True, True, True, False, True, True, True]

    @database_sync_to_async
    def stored() -> list[Any]:
        from games.models import Result
        from leaderboard.models import BoardEntry, PlayerStats

        results = list(Result.objects.filter(player=player).order_by("pk").values("score", "moves", "won", "log"))
        entries = BoardEntry.objects.filter(player=player).count()
        return [results, entries, PlayerStats.objects.get(player=player).games]

    results, entries, games = await stored()
    # Both ways stored the win and the empty log alike; the board and its twin hold the best.
    assert [r["won"] for r in results] == [True, True, False, False]
    assert results[0] == results[1] and results[2] == results[3]
    assert entries == 2 and games == 4


async def test_what_a_submission_on_the_loop_leaves_to_django(served: list[bool]) -> None:
    player, by_token = await _token_player("leaver")
    session, csrf = await _browser(player)
    body = orjson.dumps({"code": CODE, "moves": []})
    handed_over: list[tuple[dict[str, str], bytes]] = [
        (by_token, orjson.dumps({"code": CODE, "moves": [], "key": "k1"})),  # idempotent: its transaction
        (by_token, b'{"code": "RU1-C-MFXTMVO", "moves": [], "claimed_score": 1e400}'),
        (by_token, b'{"code": "RU1-C-MFXTMVO", "moves": [123456789012345678901234567890]}'),
        (by_token, b'{"code": "RU1-C-MFXTMVO", "moves": [], "claimed_score": 12345678901234567890123}'),
        (by_token, b'{"code": "RU1-C-MFXTMVO", "moves": ["\\ud800"]}'),
        (by_token, b"{not json"),
        (by_token, b""),
        ({**by_token, "Content-Type": "text/plain"}, body),  # 415
        ({**by_token, "Content-Type": "application/json; charset=latin-1"}, body),
        ({"Content-Type": JSON}, body),  # nobody: 401
        ({"Cookie": f"{settings.SESSION_COOKIE_NAME}={session}; csrftoken={csrf}", "Content-Type": JSON}, body),
    ]
    for headers, sent in handed_over:
        served.clear()
        loop, django = await both("POST", "/api/submissions", body=sent, headers=headers)
        assert served == [False, False], (headers, sent[:80])
        assert _without_ids(loop)["status"] == _without_ids(django)["status"], (headers, sent[:80])


async def test_submission_limits_are_counted_once_on_the_loop(served: list[bool], settings: Any) -> None:
    settings.RATE_SUBMISSIONS = 2
    _, by_token = await _token_player("limited")
    served.clear()
    body = orjson.dumps({"code": CODE, "moves": ["D"]})
    answers = [await request("POST", "/api/submissions", body=body, headers=by_token) for _ in range(3)]
    assert [a["status"] for a in answers] == [422, 422, 429] and served == [True, True, True]
    assert int(answers[2]["headers"]["retry-after"]) >= 1 and b"Too many submissions." in answers[2]["body"]
    settings.RATE_SUBMISSIONS = 100
    settings.RATE_SUBMISSIONS_PER_ADDRESS = 4  # this address sent three already
    answers = [await request("POST", "/api/submissions", body=body, headers=by_token) for _ in range(2)]
    assert [a["status"] for a in answers] == [422, 429] and b"from this address" in answers[1]["body"]


async def test_a_secret_code_is_refused_on_the_loop_and_nothing_is_stored(served: list[bool]) -> None:
    from games.dailies import utc_today
    from tests.daily_helpers import store_unsettled_dailies
    from tests.security.snapshot import snapshot

    _, by_token = await _token_player("peeker")
    daily = await database_sync_to_async(store_unsettled_dailies)(utc_today(timezone.now()))
    code = daily[0].stored_code.code
    before = await database_sync_to_async(snapshot)()
    body = orjson.dumps({"code": code, "moves": ["D"]})
    refused = await request("POST", "/api/submissions", body=body, headers=by_token)
    assert served[-1] is True and refused["status"] == 422
    assert orjson.loads(refused["body"]) == {
        "error": {"message": "This game code cannot be played now.", "index": 0, "token": None}
    }
    assert await database_sync_to_async(snapshot)() == before


async def test_a_statement_failing_on_the_loop_takes_the_whole_result_back(
    served: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    from games import verified
    from games.models import Result, StoredCode
    from leaderboard.models import BoardEntry

    player, by_token = await _token_player("all-or-nothing")
    failing = verified.Writer(
        statements=lambda event, new: [("SELECT 1 / 0", [])],
        wrote=lambda event, rows: None,
        writes_more=lambda event: False,
    )
    monkeypatch.setattr(verified, "_listeners", [*verified._listeners, failing])
    body = orjson.dumps({"code": "SD1-S1-HJSZOZN", "moves": ["D"]})
    refused = await request("POST", "/api/submissions", body=body, headers=by_token)
    assert served[-1] is True and refused["status"] == 400 and b"cannot be looked up or stored" in refused["body"]

    @database_sync_to_async
    def left() -> list[bool]:
        return [
            Result.objects.filter(player=player).exists(),
            BoardEntry.objects.filter(player=player).exists(),
            StoredCode.objects.filter(code="SD1-S1-HJSZOZN").exists(),
        ]

    assert await left() == [False, False, False]


async def test_a_result_whose_listener_writes_more_is_stored_on_a_thread_in_one_transaction(
    served: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.db import connection

    from games import verified
    from games.models import Result

    player, by_token = await _token_player("writes-more")
    heard: list[tuple[bool, bool]] = []

    def wrote(event: verified.Event, rows: list[Any]) -> None:
        # The ORM refuses to run on the event loop: this listener is heard on a thread, in the
        # result's transaction, where its result is already there to read.
        heard.append((connection.in_atomic_block, Result.objects.filter(pk=event.result.pk).exists()))

    writing = verified.Writer(statements=lambda event, new: [], wrote=wrote, writes_more=lambda event: True)
    monkeypatch.setattr(verified, "_listeners", [*verified._listeners, writing])
    body = orjson.dumps({"code": CODE, "moves": vector_log(CODE)[:10]})
    answer = await request("POST", "/api/submissions", body=body, headers=by_token)
    assert served[-1] is True and answer["status"] == 201
    assert heard == [(True, True)]
    stored = await database_sync_to_async(Result.objects.filter(player=player).count)()
    assert stored == 1


async def test_concurrent_submissions_on_the_loop_are_each_stored_once(served: list[bool]) -> None:
    import asyncio

    from leaderboard.models import BoardEntry

    players = [await _token_player(f"crowd{n}") for n in range(12)]
    served.clear()
    log = vector_log(CODE)
    bodies = [orjson.dumps({"code": CODE, "moves": log[: 20 + n]}) for n in range(len(players))]
    sent = [request("POST", "/api/submissions", body=b, headers=h) for (_, h), b in zip(players, bodies, strict=True)]
    answers = await asyncio.gather(*sent)
    assert [a["status"] for a in answers] == [201] * len(players) and all(served)
    ids = {orjson.loads(a["body"])["result"]["id"] for a in answers}
    assert len(ids) == len(players)
    entries = await database_sync_to_async(BoardEntry.objects.filter(board=f"code:{CODE}").count)()
    assert entries == len(players)


async def test_a_submission_on_the_loop_is_indexed_and_pushed_to_the_boards_watchers(served: list[bool]) -> None:
    from channels.routing import URLRouter
    from channels.testing import WebsocketCommunicator

    from config.routing import websocket_urlpatterns

    _, by_token = await _token_player("watched")
    served.clear()
    watcher = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/leaderboards/code:{CODE}/")
    connected, _ = await watcher.connect()
    assert connected and (await watcher.receive_json_from())["type"] == "snapshot"
    log = vector_log(CODE)
    body = orjson.dumps({"code": CODE, "moves": log})
    answered = await request("POST", "/api/submissions", body=body, headers=by_token)
    assert answered["status"] == 201 and served == [True]
    change = await watcher.receive_json_from(timeout=5)
    assert change["type"] == "change" and change["entry"]["player"] == "watched" and change["entry"]["rank"] == 1
    assert change["entry"]["result"] == orjson.loads(answered["body"])["result"]["id"]
    index = rank_index.RedisRanks(f"code:{CODE}")
    assert await database_sync_to_async(index.total)() == 1  # indexed by the loop, and the clean twin too
    assert await database_sync_to_async(rank_index.RedisRanks(f"code:{CODE}:clean").total)() == 1
    await watcher.disconnect()


def test_requests_asking_the_same_query_share_parameters_none_can_change() -> None:
    shared = loop_http._query(b"limit=2&cursor=x")
    assert loop_http._query(b"limit=2&cursor=x") is shared and shared.get("limit") == "2"
    with pytest.raises(AttributeError):
        shared["limit"] = "100"  # a handler changing it would change the next request's
    with pytest.raises(AttributeError):
        shared.pop("cursor")
    assert loop_http._query(b"limit=2&cursor=x").dict() == {"limit": "2", "cursor": "x"}
