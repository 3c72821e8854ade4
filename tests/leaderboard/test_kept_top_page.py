"""The top page kept in Redis beside the index: reused for its board version, never past it."""

from __future__ import annotations

import json

import pytest
import redis
from django.conf import settings
from django.test import override_settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import Player
from games.ranking.boards import parse_board
from leaderboard import selectors
from leaderboard.models import BoardVersion
from leaderboard.ranking import rank_index
from tests.leaderboard.factories import make_result, named

CODE = "SP1-S4C-AAAAAAD"
BOARD = f"code:{CODE}"
URL = f"/api/leaderboards/{BOARD}"
DOWN = "redis://127.0.0.1:1/0"  # nothing listens there

pytestmark = [pytest.mark.django_db, pytest.mark.redis]


def _scored(player: Player, score: int) -> None:
    make_result(player, CODE, sequences=0, score=score, moves=500 - score)


def _kept(limit: int = 50) -> dict[str, object] | None:
    text = redis.Redis.from_url(settings.REDIS_URL).get(rank_index.page_key(BOARD, limit))
    return None if text is None else json.loads(text)


def _version() -> int:
    return BoardVersion.objects.get(board=BOARD).version


def _as(player: Player) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=player)[0].key}")
    return client


def test_a_read_keeps_the_top_page_stamped_with_the_board_version(api: APIClient) -> None:
    for i in range(3):
        _scored(named(f"p{i}"), 300 - i)
    body = api.get(URL).json()
    kept = _kept()
    assert kept == {"version": _version(), "entries": body["entries"], "next_cursor": None}
    assert api.get(URL).json() == body


def test_the_kept_page_answers_its_version_and_only_that_one(api: APIClient) -> None:
    _scored(named("alice"), 300)
    api.get(URL)
    kept = _kept()
    assert kept is not None
    # Proof that readers of this version take the kept page rather than read the rows again.
    fake = [{**kept["entries"][0], "player": "from-the-kept-page"}]  # type: ignore[index]
    redis.Redis.from_url(settings.REDIS_URL).set(rank_index.page_key(BOARD, 50), json.dumps({**kept, "entries": fake}))
    assert api.get(URL).json()["entries"] == fake
    # A result lands: a new version, so the kept page is not used, and is replaced.
    _scored(named("bob"), 400)
    body = api.get(URL).json()
    assert [entry["player"] for entry in body["entries"]] == ["bob", "alice"]
    assert _kept() == {"version": _version(), "entries": body["entries"], "next_cursor": None}


def test_a_result_that_lands_changes_the_top_page_and_my_entry(api: APIClient) -> None:
    players = [named(f"p{i}") for i in range(4)]
    for i, player in enumerate(players):
        _scored(player, 300 - 10 * i)
    me = players[3]
    first = _as(me).get(f"{URL}?limit=2").json()
    assert [e["player"] for e in first["entries"]] == ["p0", "p1"] and first["me"]["rank"] == 4
    assert first["next_cursor"] is not None
    _scored(named("newcomer"), 500)
    second = _as(me).get(f"{URL}?limit=2").json()
    assert [e["player"] for e in second["entries"]] == ["newcomer", "p0"]
    assert [e["rank"] for e in second["entries"]] == [1, 2]
    assert second["me"]["rank"] == 5 and second["total"] == 5
    # Each limit keeps its own page.
    assert _kept(2) is not None and _kept(2)["entries"] == second["entries"]  # type: ignore[index]


def test_cursor_pages_and_pages_around_me_are_not_kept(api: APIClient) -> None:
    players = [named(f"p{i}") for i in range(5)]
    for i, player in enumerate(players):
        _scored(player, 300 - 10 * i)
    cursor = api.get(f"{URL}?limit=2").json()["next_cursor"]
    client = redis.Redis.from_url(settings.REDIS_URL)
    client.delete(rank_index.page_key(BOARD, 2))
    api.get(f"{URL}?limit=2&cursor={cursor}")
    _as(players[4]).get(f"{URL}?limit=2&around=me")
    assert list(client.scan_iter("lb:rank-top:*")) == []


def test_without_redis_nothing_is_kept_and_the_answer_is_the_same(api: APIClient) -> None:
    for i in range(3):
        _scored(named(f"p{i}"), 300 - i)
    with_index = selectors.leaderboard(board=parse_board(BOARD), viewer=None)
    with override_settings(REDIS_URL=DOWN):
        assert selectors.leaderboard(board=parse_board(BOARD), viewer=None) == with_index
    redis.Redis.from_url(settings.REDIS_URL).delete(rank_index.page_key(BOARD, 50))
    with override_settings(REDIS_URL=DOWN):
        assert selectors.leaderboard(board=parse_board(BOARD), viewer=None) == with_index
    assert _kept() is None


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("socket_cleanup")
async def test_the_read_of_my_entry_is_a_statement_postgresql_keeps_prepared() -> None:
    from asgiref.sync import sync_to_async

    from web import storage

    await sync_to_async(_scored)(await sync_to_async(named)("alice"), 300)
    for _ in range(6):  # one after the other: one connection of the loop's pool serves them all
        await selectors.read_board(parse_board(BOARD), None)
    mine = "SELECT (SELECT version%"  # the read, not the write's offer (which reads the version too)
    prepared = await storage.fetchone("SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s", [mine])
    assert prepared == (1,)
