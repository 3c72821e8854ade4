"""The API as the server serves it (config.asgi: Django's ASGI handler and middleware, the views on the
event loop where they are async): what a client sees of a board read, of Django's own refusals and of
the headers every answer carries: statuses, the error shape, language, Vary, CSP, the security
headers, the host check, HSTS and the redirect to https."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import orjson
import pytest
import redis
import redis.asyncio
from channels.db import database_sync_to_async
from django.conf import settings
from django.core.asgi import get_asgi_application
from django.utils import timezone
from rest_framework.authtoken.models import Token

from games.engine import DAILY_VARIANTS
from games.models import Player
from leaderboard.ranking import rank_index
from tests.asgi_requests import browser, request, token_for
from tests.conftest import make_player
from tests.leaderboard.factories import RUSSIAN_WIN, make_result, named, vector_log
from tests.loopback import free_port
from web.bodies import WithLength

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.usefixtures("socket_cleanup"),
]

BOARD = f"/api/leaderboards/code:{RUSSIAN_WIN}"


@database_sync_to_async
def _a_played_board() -> Player:
    """Three results on BOARD, the viewer's second best; returns the viewer."""
    log = vector_log(RUSSIAN_WIN)
    for cut in (40, len(log)):
        make_result(named(), RUSSIAN_WIN, log[:cut])
    viewer = make_player("viewer")
    make_result(viewer, RUSSIAN_WIN, log[:70])
    return viewer


def _refused(answer: dict[str, Any], status: int) -> str:
    """The refusal's message, once its status and shape are checked."""
    assert answer["status"] == status, answer
    assert answer["headers"]["content-type"] == "application/json"
    error = orjson.loads(answer["body"])["error"]
    assert set(error) >= {"message", "index", "token"}, error
    return str(error["message"])


async def test_a_board_read_for_each_kind_of_caller() -> None:
    viewer = await _a_played_board()
    by_token = {"Authorization": f"Token {await token_for(viewer)}"}
    session, _ = await browser(viewer)
    mine = await request("GET", BOARD, headers=by_token)
    assert mine["status"] == 200
    document = orjson.loads(mine["body"])
    assert [e["rank"] for e in document["entries"]] == [1, 2, 3] and document["total"] == 3
    assert document["me"]["rank"] == 2 and document["me"]["player"] == "viewer"
    headers = mine["headers"]
    assert headers["content-type"] == "application/json" and headers["allow"] == "GET, HEAD, OPTIONS"
    assert headers["x-content-type-options"] == "nosniff" and headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "same-origin" and headers["cross-origin-opener-policy"] == "same-origin"
    assert "default-src 'self'" in headers["content-security-policy"]
    assert headers["content-language"] == "en" and "Accept-Language" in headers["vary"]
    assert "strict-transport-security" not in headers  # HSTS over https only
    nobody = await request("GET", BOARD)
    assert nobody["status"] == 200 and orjson.loads(nobody["body"])["me"] is None
    assert "Cookie" in nobody["headers"]["vary"]  # a session would have changed the answer
    by_session = await request("GET", BOARD, headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={session}"})
    assert by_session["status"] == 200 and orjson.loads(by_session["body"])["me"]["rank"] == 2
    other_scheme = await request("GET", BOARD, headers={"Authorization": "Bearer x"})
    assert other_scheme["status"] == 200 and orjson.loads(other_scheme["body"])["me"] is None
    croatian = await request("GET", BOARD, headers={**by_token, "Accept-Language": "hr;q=0.9, en;q=0.5"})
    assert croatian["status"] == 200 and croatian["headers"]["content-language"] == "hr"
    assert croatian["body"] == mine["body"]
    head = await request("HEAD", BOARD)
    assert head["status"] == 200  # the server sends no body
    options = await request("OPTIONS", BOARD)
    assert options["status"] == 200 and options["headers"]["allow"] == "GET, HEAD, OPTIONS"


async def test_pages_follow_their_cursor_and_around_me_centres_on_my_entry() -> None:
    viewer = await _a_played_board()
    by_token = {"Authorization": f"Token {await token_for(viewer)}"}
    first = orjson.loads((await request("GET", f"{BOARD}?limit=2", headers=by_token))["body"])
    assert [e["rank"] for e in first["entries"]] == [1, 2] and first["next_cursor"]
    rest = await request("GET", f"{BOARD}?limit=2&cursor={first['next_cursor']}", headers=by_token)
    assert [e["rank"] for e in orjson.loads(rest["body"])["entries"]] == [3]
    around = orjson.loads((await request("GET", f"{BOARD}?around=me&limit=1", headers=by_token))["body"])
    assert [e["player"] for e in around["entries"]] == ["viewer"]
    clean = await request("GET", f"{BOARD}:clean", headers=by_token)
    assert clean["status"] == 200 and orjson.loads(clean["body"])["board"] == f"code:{RUSSIAN_WIN}:clean"


async def test_board_read_refusals_in_the_error_shape_and_the_callers_language() -> None:
    today = timezone.now().date()
    for path, status in [
        (f"{BOARD}?limit=0", 400),
        (f"{BOARD}?limit=1x", 400),
        (f"{BOARD}?around=you", 400),
        (f"{BOARD}?cursor=", 400),
        (f"{BOARD}?cursor=not-a-cursor", 400),
        (f"/api/leaderboards/daily:{today + dt.timedelta(days=3)}:{DAILY_VARIANTS[0]}", 404),  # not out yet
        ("/api/leaderboards/daily:2026-13-01:SP1-S4C", 400),
        ("/api/leaderboards/x", 400),
    ]:
        _refused(await request("GET", path), status)
    english = _refused(await request("GET", f"{BOARD}?limit=0"), 400)
    finnish = await request("GET", f"{BOARD}?limit=0", headers={"Accept-Language": "fi"})
    assert _refused(finnish, 400) != english and finnish["headers"]["content-language"] == "fi"
    # A board id is echoed in its refusal: U+2028 escaped, as a JSON answer must be for a script.
    echoed = await request("GET", "/api/leaderboards/x%E2%80%A8y:z")
    assert _refused(echoed, 400) and b"\\u2028" in echoed["body"] and "\u2028".encode() not in echoed["body"]
    refused = await request("POST", BOARD, headers={"Content-Type": "application/json"}, body=b"{}")
    assert _refused(refused, 405) and refused["headers"]["allow"] == "GET, HEAD, OPTIONS"
    assert _refused(await request("GET", BOARD, headers={"Accept": "text/html"}), 406)


async def test_tokens_that_do_not_stand_are_refused_at_once() -> None:
    player = await database_sync_to_async(make_player)()
    token = await token_for(player)
    by_token = {"Authorization": f"Token {token}"}
    assert (await request("GET", BOARD, headers=by_token))["status"] == 200  # and now cached
    for header in ("Token " + "0" * 40, "Token a b", "Token"):
        _refused(await request("GET", BOARD, headers={"Authorization": header}), 401)
    await database_sync_to_async(Token.objects.filter(key=token).delete)()
    _refused(await request("GET", BOARD, headers=by_token), 401)  # revoked

    other = await database_sync_to_async(make_player)("bob")
    by_token = {"Authorization": f"Token {await token_for(other)}"}
    assert (await request("GET", BOARD, headers=by_token))["status"] == 200
    other.is_active = False
    await database_sync_to_async(other.save)()
    _refused(await request("GET", BOARD, headers=by_token), 401)


async def test_an_expired_token_is_refused_in_words(settings: Any) -> None:
    player = await database_sync_to_async(make_player)()
    by_token = {"Authorization": f"Token {await token_for(player)}"}
    assert (await request("GET", BOARD, headers=by_token))["status"] == 200  # cached, with its creation time
    settings.TOKEN_SECONDS = 0
    assert "expired" in _refused(await request("GET", BOARD, headers=by_token), 401)


async def test_my_rank_is_that_of_the_entry_postgresql_holds() -> None:
    viewer = await _a_played_board()
    by_token = {"Authorization": f"Token {await token_for(viewer)}"}
    assert orjson.loads((await request("GET", BOARD, headers=by_token))["body"])["me"]["rank"] == 2
    # The index names a better member for me than PostgreSQL's key (a newer result of mine on its way,
    # as it can be between the two reads): the rank shown is still that of the entry PostgreSQL holds.
    zset, by_player, _ = rank_index.keys(f"code:{RUSSIAN_WIN}")
    index = redis.Redis.from_url(settings.REDIS_URL)
    index.zadd(zset, {"0": 0})
    index.hset(by_player, str(viewer.pk), "0")
    answer = orjson.loads((await request("GET", f"{BOARD}?limit=5", headers=by_token))["body"])
    assert answer["me"]["rank"] == 3  # my entry, now behind the member put ahead of it


async def test_redis_failing_mid_read_answers_from_sql(monkeypatch: pytest.MonkeyPatch) -> None:
    await _a_played_board()
    expected = await request("GET", BOARD)
    assert expected["status"] == 200

    away = redis.asyncio.Redis.from_url(f"redis://127.0.0.1:{free_port()}/0")  # nothing listens there
    monkeypatch.setattr(rank_index, "loop_client", lambda: away)
    answered = await request("GET", BOARD)
    assert answered["status"] == 200 and answered["body"] == expected["body"]


async def test_djangos_own_refusals_in_the_error_shape() -> None:
    assert "address" in _refused(await request("GET", "/api/no-such-thing"), 404)
    _refused(await request("GET", BOARD, headers={"Content-Length": "x"}), 400)
    elsewhere = await request("GET", BOARD, headers={"Host": "elsewhere.example"})  # not an allowed host
    assert elsewhere["status"] == 400
    too_big = settings.MAX_BODY_BYTES + 1
    big = await request(
        "POST",
        "/api/submissions",
        body=b" " * too_big,
        headers={"Content-Type": "application/json", "Content-Length": str(too_big)},
    )
    assert "too large" in _refused(big, 413)


async def test_a_session_needs_the_csrf_token_to_post() -> None:
    player = await database_sync_to_async(make_player)()
    session, csrf = await browser(player)
    cookie = f"{settings.SESSION_COOKIE_NAME}={session}; csrftoken={csrf}"
    me = await request("GET", "/api/auth/me", headers={"Cookie": cookie})
    assert me["status"] == 200 and orjson.loads(me["body"])["username"] == "alice"
    refused = await request("POST", "/api/auth/logout", headers={"Cookie": cookie, "Content-Type": "application/json"})
    assert "CSRF" in _refused(refused, 403)
    logged_out = await request(
        "POST", "/api/auth/logout", headers={"Cookie": cookie, "X-CSRFToken": csrf, "Origin": "http://testserver"}
    )
    assert logged_out["status"] == 200


@pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous iterators")  # Django's
async def test_a_static_file_is_served_whole() -> None:
    path = Path(settings.BASE_DIR) / "frontend/static/frontend/css/base.css"
    for _ in range(2):
        answer = await request("GET", "/static/frontend/css/base.css")
        assert answer["status"] == 200 and answer["body"] == path.read_bytes()


@pytest.mark.parametrize("proto", ["https", "http"])
async def test_production_sends_hsts_over_https_and_redirects_plain_http(settings: Any, proto: str) -> None:
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 31536000
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    settings.SECURE_HSTS_PRELOAD = True
    settings.DEBUG = False
    app = WithLength(get_asgi_application())  # Django's middleware reads these settings when it is made
    answer = await request("GET", BOARD, headers={"X-Forwarded-Proto": proto}, app=app)
    if proto == "https":
        assert answer["status"] == 200
        assert answer["headers"]["strict-transport-security"] == "max-age=31536000; includeSubDomains; preload"
    else:
        assert answer["status"] == 301 and answer["headers"]["location"] == f"https://testserver{BOARD}"


async def test_a_token_dropped_from_this_process_between_check_and_read_is_asked_of_the_database(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from accounts.token_auth import CachedTokenAuthentication

    viewer = await _a_played_board()
    by_token = {"Authorization": f"Token {await token_for(viewer)}"}
    monkeypatch.setattr(CachedTokenAuthentication, "answers_at_once", lambda self, request: True)  # a stale check
    # Its first read: neither this process nor Redis holds the token, only the database can answer.
    answer = await request("GET", BOARD, headers=by_token)
    assert answer["status"] == 200 and orjson.loads(answer["body"])["me"]["rank"] == 2
