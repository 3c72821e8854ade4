"""GET /api/leaderboards/{board}: the document, keyset pages, my entry and the entries around me."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import Player
from games.results.replay_verification import canonical
from tests.leaderboard.factories import SPIDER_WIN, daily_of, make_result, named, vector_log

CODE = "SP1-S4C-AAAAAAD"
URL = f"/api/leaderboards/code:{CODE}"

pytestmark = pytest.mark.django_db


def _scored(player: Player, score: int, **extra: object) -> None:
    make_result(player, CODE, sequences=0, score=score, moves=500 - score, **extra)


def _as(player: Player) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=player)[0].key}")
    return client


def test_the_document_has_the_shape_of_spec_section_8(api: APIClient) -> None:
    alice = named("alice")
    result = make_result(alice, SPIDER_WIN, vector_log(SPIDER_WIN), elapsed_ms=123_456)
    body = _as(alice).get(f"/api/leaderboards/code:{SPIDER_WIN.lower()}").json()
    entry = {
        "rank": 1,
        "player": "alice",
        "score": 1125,
        "moves": 175,
        "won": True,
        "sequences": 8,
        "elapsed_ms": 123_456,
        "undos": canonical(vector_log(SPIDER_WIN)).count("U"),
        "result": result.pk,
    }
    assert body == {"board": f"code:{SPIDER_WIN}", "entries": [entry], "next_cursor": None, "total": 1, "me": entry}
    anonymous = api.get(f"/api/leaderboards/code:{SPIDER_WIN}").json()
    assert anonymous["me"] is None and anonymous["entries"] == [entry]


def test_pages_have_no_duplicates_or_gaps_while_results_arrive(api: APIClient) -> None:
    players = [named(f"p{i:02d}") for i in range(30)]
    for i, player in enumerate(players):
        _scored(player, 400 - 10 * i)  # p00 best ... p29 worst
    seen: list[str] = []
    ranks: list[int] = []
    cursor = None
    newcomers = iter(range(100))
    below: list[str] = []
    while True:
        query = f"{URL}?limit=7" + (f"&cursor={cursor}" if cursor else "")
        body = api.get(query).json()
        seen += [e["player"] for e in body["entries"]]
        ranks += [e["rank"] for e in body["entries"]]
        cursor = body["next_cursor"]
        if cursor is None:
            break
        # Meanwhile: a newcomer above the cursor, one below it, and an unseen player improving.
        _scored(named(f"top{next(newcomers)}"), 450)
        below.append(f"low{next(newcomers)}")
        _scored(named(below[-1]), 1)
        unseen = [p for p in players if p.username not in seen]
        if len(unseen) > 2:
            _scored(unseen[-1], 399 - 10 * (30 - len(unseen)))  # moves up, still below the cursor
    assert len(seen) == len(set(seen)), "a player was listed twice"
    assert {p.username for p in players} <= set(seen), "a player who was there all along was skipped"
    assert set(below) <= set(seen), "a newcomer below the cursor was skipped"
    assert ranks == sorted(ranks)


def test_around_me_is_the_page_centred_on_my_rank(api: APIClient) -> None:
    players = [named(f"r{i:02d}") for i in range(20)]
    for i, player in enumerate(players):
        _scored(player, 300 - i)
    body = _as(players[12]).get(f"{URL}?around=me&limit=5").json()
    assert [e["rank"] for e in body["entries"]] == [11, 12, 13, 14, 15]
    assert body["me"]["player"] == "r12" and body["me"]["rank"] == 13 and body["total"] == 20
    following = api.get(f"{URL}?limit=5&cursor={body['next_cursor']}").json()
    assert [e["rank"] for e in following["entries"]] == [16, 17, 18, 19, 20]
    # Without an entry of my own, around=me is the top of the board.
    assert api.get(f"{URL}?around=me&limit=2").json()["entries"][0]["rank"] == 1


@pytest.mark.parametrize(
    ("path", "status", "words"),
    [
        ("/api/leaderboards/garbage", 400, "A board is code:"),
        ("/api/leaderboards/code:SP1-S1R-AAAAAAA", 400, "only the Classic rule"),
        ("/api/leaderboards/daily:2026-13-01:SP1-S4C", 400, "not a date"),
        ("/api/leaderboards/daily:2026-11-30:SP1-S4R", 400, "no daily challenge"),
        ("/api/leaderboards/daily:2999-01-01:SP1-S4C", 404, "not out yet"),
        (f"{URL}?limit=0", 400, "from 1 to 100"),
        (f"{URL}?limit=101", 400, "from 1 to 100"),
        (f"{URL}?limit=ten", 400, "from 1 to 100"),
        (f"{URL}?cursor=bm9wZQ", 400, "cursor is not valid"),
        (f"{URL}?cursor=%%%", 400, "cursor is not valid"),
        (f"{URL}?around=you", 400, "around"),
    ],
)
def test_bad_requests_are_refused_in_words(api: APIClient, path: str, status: int, words: str) -> None:
    response = api.get(path)
    assert response.status_code == status
    body = response.json()
    assert set(body) == {"error"} and words in body["error"]["message"]


def test_a_daily_board_before_publication_reveals_no_code(api: APIClient) -> None:
    today = dt.datetime.now(dt.UTC).date()
    daily = daily_of(today, "SP1-S1C", SPIDER_WIN)
    make_result(named("early"), SPIDER_WIN, vector_log(SPIDER_WIN)[:40], daily=daily)
    make_result(named("guest", guest=True), SPIDER_WIN, vector_log(SPIDER_WIN), daily=daily)
    body = api.get(f"/api/leaderboards/daily:{today.isoformat()}:SP1-S1C").json()
    assert [e["player"] for e in body["entries"]] == ["early"] and body["total"] == 1
    assert SPIDER_WIN not in json.dumps(body) and SPIDER_WIN[-7:] not in json.dumps(body)


def test_the_schema_documents_every_leaderboard_call(api: APIClient) -> None:
    paths = api.get("/api/schema/", HTTP_ACCEPT="application/json").json()["paths"]
    for path in [
        "/api/leaderboards/{board}",
        "/api/players/{name}",
        "/api/results/{result_id}/replay",
        "/api/rooms",
        "/api/rooms/{room_id}",
        "/api/rooms/{room_id}/join",
        "/api/rooms/{room_id}/start",
        "/api/rooms/{room_id}/end",
    ]:
        assert path in paths, path
