"""POST /api/submissions as the server serves it (config.asgi; verified and stored on the event loop):
what is stored, every refusal's status and shape, the limits, a secret code, a result stored whole
or not at all, many at once, and the board's watchers told."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

from games.engine import MAX_LOG_TOKENS
from games.models import Player
from leaderboard.ranking import rank_index
from tests.asgi_requests import browser, request, token_for
from tests.conftest import make_player
from tests.leaderboard.factories import RUSSIAN_WIN, vector_log

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.usefixtures("socket_cleanup"),
]

CODE = RUSSIAN_WIN
JSON = "application/json"


async def _token_player(name: str) -> tuple[Player, dict[str, str]]:
    player = await database_sync_to_async(make_player)(name)
    return player, {"Authorization": f"Token {await token_for(player)}", "Content-Type": JSON}


async def submit(body: bytes, headers: dict[str, str]) -> dict[str, Any]:
    return await request("POST", "/api/submissions", body=body, headers=headers)


def _refused(answer: dict[str, Any], status: int) -> dict[str, Any]:
    assert answer["status"] == status, answer
    error = orjson.loads(answer["body"])["error"]
    assert isinstance(error["message"], str) and set(error) >= {"message", "index", "token"}
    return dict(error)


@database_sync_to_async
def _stored(player: Player) -> tuple[list[dict[str, Any]], int, int]:
    from games.models import Result
    from leaderboard.models import BoardEntry, PlayerStats

    results = list(Result.objects.filter(player=player).order_by("pk").values("score", "moves", "won", "log"))
    games = PlayerStats.objects.filter(player=player).values_list("games", flat=True).first() or 0
    return results, BoardEntry.objects.filter(player=player).count(), games


async def test_a_verified_log_is_stored_and_ranked() -> None:
    player, by_token = await _token_player("submitter")
    log = vector_log(CODE)
    won = await submit(orjson.dumps({"code": CODE, "moves": log}), by_token)
    assert won["status"] == 201 and won["headers"]["content-type"] == "application/json"
    result = orjson.loads(won["body"])["result"]
    assert (result["won"], result["undos"], result["moves"]) == (True, 0, 99)
    short = await submit(
        orjson.dumps({"code": CODE, "moves": []}), {**by_token, "Content-Type": f"{JSON}; charset=utf-8"}
    )
    assert short["status"] == 201
    results, entries, games = await _stored(player)
    assert [(r["won"], r["moves"]) for r in results] == [(True, 99), (False, 0)]
    assert entries == 2 and games == 2  # the board and its clean twin hold the win


async def test_refusals_keep_their_status_and_shape() -> None:
    player, by_token = await _token_player("refused")
    log = vector_log(CODE)
    illegal = _refused(await submit(orjson.dumps({"code": CODE, "moves": ["99:1>2"]}), by_token), 422)
    assert (illegal["index"], illegal["token"], illegal["rule"]) == (1, "99:1>2", "no_such_column")
    claim = _refused(await submit(orjson.dumps({"code": CODE, "moves": log[:30], "claimed_score": 1}), by_token), 422)
    assert "claimed 1 points" in claim["message"]
    too_long = _refused(
        await submit(orjson.dumps({"code": CODE, "moves": ["D"] * (MAX_LOG_TOKENS + 1)}), by_token), 422
    )
    assert too_long["rule"] == "log_too_long"
    assert _refused(await submit(orjson.dumps({"code": "no code", "moves": []}), by_token), 422)["rule"] == "code_parts"
    for body in [
        orjson.dumps({"code": CODE, "moves": "D"}),  # the serializer's words
        orjson.dumps({"code": CODE}),
        orjson.dumps({"code": CODE, "moves": [], "claimed_score": 1.5}),
        b'{"code": "RU1-C-MFXTMVO", "moves": [], "claimed_score": 1e400}',
        b"{not json",
        b"[" * 100_000,  # nested too deeply
        b"",
    ]:
        _refused(await submit(body, by_token), 400)
    body = orjson.dumps({"code": CODE, "moves": []})
    _refused(await submit(body, {**by_token, "Content-Type": "text/plain"}), 415)
    _refused(await submit(body, {"Content-Type": JSON}), 401)  # nobody
    english = illegal["message"]
    finnish = await submit(orjson.dumps({"code": CODE, "moves": ["99:1>2"]}), {**by_token, "Accept-Language": "fi"})
    assert _refused(finnish, 422)["message"] != english and finnish["headers"]["content-language"] == "fi"
    assert await _stored(player) == ([], 0, 0)


async def test_a_key_answers_the_same_twice_and_stores_once() -> None:
    player, by_token = await _token_player("keyed")
    body = orjson.dumps({"code": CODE, "moves": vector_log(CODE)[:20], "key": "k1"})
    first, again = await submit(body, by_token), await submit(body, by_token)
    assert first["status"] == again["status"] == 201 and orjson.loads(first["body"]) == orjson.loads(again["body"])
    other = orjson.dumps({"code": CODE, "moves": [], "key": "k1"})
    _refused(await submit(other, by_token), 409)
    assert len((await _stored(player))[0]) == 1


async def test_a_browser_submits_with_its_csrf_token_only() -> None:
    player = await database_sync_to_async(make_player)()
    session, csrf = await browser(player)
    cookie = {"Cookie": f"{settings.SESSION_COOKIE_NAME}={session}; csrftoken={csrf}", "Content-Type": JSON}
    body = orjson.dumps({"code": CODE, "moves": []})
    assert "CSRF" in _refused(await submit(body, cookie), 403)["message"]
    with_token = {**cookie, "X-CSRFToken": csrf, "Origin": "http://testserver"}
    assert (await submit(body, with_token))["status"] == 201


async def test_the_limits_per_player_and_per_address(settings: Any) -> None:
    settings.RATE_SUBMISSIONS = 2
    _, by_token = await _token_player("limited")
    body = orjson.dumps({"code": CODE, "moves": ["D"]})
    answers = [await submit(body, by_token) for _ in range(3)]
    assert [a["status"] for a in answers] == [422, 422, 429]
    assert (
        int(answers[2]["headers"]["retry-after"]) >= 1
        and "Too many submissions." in _refused(answers[2], 429)["message"]
    )
    settings.RATE_SUBMISSIONS = 100
    settings.RATE_SUBMISSIONS_PER_ADDRESS = 4  # this address sent three already
    answers = [await submit(body, by_token) for _ in range(2)]
    assert [a["status"] for a in answers] == [422, 429] and "from this address" in _refused(answers[1], 429)["message"]


async def test_a_secret_code_is_refused_and_nothing_is_stored() -> None:
    from games.dailies.schedule import utc_today
    from tests.daily_helpers import store_unsettled_dailies
    from tests.security.snapshot import snapshot

    _, by_token = await _token_player("peeker")
    daily = await database_sync_to_async(store_unsettled_dailies)(utc_today(timezone.now()))
    code = daily[0].stored_code.code
    before = await database_sync_to_async(snapshot)()
    refused = await submit(orjson.dumps({"code": code, "moves": ["D"]}), by_token)
    assert orjson.loads(refused["body"]) == {
        "error": {"message": "This game code cannot be played now.", "index": 0, "token": None}
    }
    assert refused["status"] == 422 and await database_sync_to_async(snapshot)() == before


async def test_a_statement_failing_takes_the_whole_result_back(monkeypatch: pytest.MonkeyPatch) -> None:
    from games.models import Result, StoredCode
    from games.results import announcements
    from leaderboard.models import BoardEntry

    player, by_token = await _token_player("all-or-nothing")
    failing = announcements.Writer(
        statements=lambda event, new: [("SELECT 1 / 0", [])],
        wrote=lambda event, rows: None,
        writes_more=lambda event: False,
    )
    monkeypatch.setattr(announcements, "_listeners", [*announcements._listeners, failing])
    refused = await submit(orjson.dumps({"code": "SD1-S1-HJSZOZN", "moves": ["D"]}), by_token)
    assert "cannot be looked up or stored" in _refused(refused, 400)["message"]

    @database_sync_to_async
    def left() -> list[bool]:
        return [
            Result.objects.filter(player=player).exists(),
            BoardEntry.objects.filter(player=player).exists(),
            StoredCode.objects.filter(code="SD1-S1-HJSZOZN").exists(),
        ]

    assert await left() == [False, False, False]


async def test_a_result_whose_listener_writes_more_is_stored_in_one_transaction(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from django.db import connection

    from games.models import Result
    from games.results import announcements

    player, by_token = await _token_player("writes-more")
    heard: list[tuple[bool, bool]] = []

    def wrote(event: announcements.Event, rows: list[Any]) -> None:
        heard.append((connection.in_atomic_block, Result.objects.filter(pk=event.result.pk).exists()))

    writing = announcements.Writer(statements=lambda event, new: [], wrote=wrote, writes_more=lambda event: True)
    monkeypatch.setattr(announcements, "_listeners", [*announcements._listeners, writing])
    answer = await submit(orjson.dumps({"code": CODE, "moves": vector_log(CODE)[:10]}), by_token)
    assert answer["status"] == 201 and heard == [(True, True)]
    assert await database_sync_to_async(Result.objects.filter(player=player).count)() == 1


async def test_submissions_at_once_are_each_stored_once() -> None:
    from leaderboard.models import BoardEntry

    players = [await _token_player(f"crowd{n}") for n in range(12)]
    log = vector_log(CODE)
    bodies = [orjson.dumps({"code": CODE, "moves": log[: 20 + n]}) for n in range(len(players))]
    answers = await asyncio.gather(*(submit(b, h) for (_, h), b in zip(players, bodies, strict=True)))
    assert [a["status"] for a in answers] == [201] * len(players)
    assert len({orjson.loads(a["body"])["result"]["id"] for a in answers}) == len(players)
    assert await database_sync_to_async(BoardEntry.objects.filter(board=f"code:{CODE}").count)() == len(players)


async def test_a_submission_is_indexed_and_pushed_to_the_boards_watchers() -> None:
    from channels.routing import URLRouter
    from channels.testing import WebsocketCommunicator

    from config.routing import websocket_urlpatterns

    _, by_token = await _token_player("watched")
    watcher = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/leaderboards/code:{CODE}/")
    connected, _ = await watcher.connect()
    assert connected and (await watcher.receive_json_from())["type"] == "snapshot"
    answered = await submit(orjson.dumps({"code": CODE, "moves": vector_log(CODE)}), by_token)
    assert answered["status"] == 201
    change = await watcher.receive_json_from(timeout=5)
    assert change["type"] == "change" and change["entry"]["player"] == "watched" and change["entry"]["rank"] == 1
    assert change["entry"]["result"] == orjson.loads(answered["body"])["result"]["id"]
    for board in (f"code:{CODE}", f"code:{CODE}:clean"):
        assert await database_sync_to_async(rank_index.RedisRanks(board).total)() == 1
    await watcher.disconnect()
