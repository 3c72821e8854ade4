"""Clean boards: every board's twin `<board>:clean` ranks each player's best result without an undo,
by the same keys, with everything a board has (reads with `me` and cursors, the Redis index and its
SQL fallback, rebuild_ranks, live push, a daily's embargo)."""

from __future__ import annotations

import datetime as dt
import importlib
import io
from typing import Any

import pytest
import redis
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config.routing import websocket_urlpatterns
from games.models import Player, Result
from games.ranking.boards import parse_board
from games.results.replay_verification import canonical
from leaderboard import selectors
from leaderboard.models import BoardEntry
from leaderboard.ranking import standings
from tests.historical import before_the_move
from tests.leaderboard.factories import RUSSIAN_WIN, SPIDERETTE_WIN, daily_of, make_result, named, vector_log
from web.errors import BadRequest

BOARD = f"code:{SPIDERETTE_WIN}"
CLEAN = f"{BOARD}:clean"
LOG = canonical(vector_log(SPIDERETTE_WIN))  # the winning log; it has undos
FIRST_UNDO = LOG.index("U")
CLEAN_LOG = LOG[:FIRST_UNDO]  # the actions before its undo: a clean game, not won
DOWN = "redis://127.0.0.1:1/0"  # nothing listens there
APP = URLRouter(websocket_urlpatterns)


def _as(player: Player) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=player)[0].key}")
    return client


def _fill() -> dict[str, Player]:
    """Eight players: some won with undos, some played clean only, some both, p5 not at all."""
    players = {}
    for i in range(8):
        player = players[f"p{i}"] = named(f"p{i}")
        if i % 2 == 0:
            make_result(player, SPIDERETTE_WIN, LOG, elapsed_ms=50_000 + 1000 * i)  # won, one undo
        if i % 3 != 2:
            make_result(player, SPIDERETTE_WIN, CLEAN_LOG[: 10 + 5 * i], elapsed_ms=40_000)  # clean
    return players


def _oracle(*, clean: bool) -> list[tuple[str, int]]:
    """(player, result id) best first, from the stored results by the ranking keys themselves."""
    best: dict[int, tuple[str, Result]] = {}
    for result in Result.objects.filter(board=BOARD).select_related("stored_code", "player"):
        if clean and result.undos:
            continue
        key = standings.rank_key(result).sort_key()
        if result.player_id not in best or key < best[result.player_id][0]:
            best[result.player_id] = (key, result)
    return [(r.player.username, r.pk) for _, r in sorted(best.values(), key=lambda pair: pair[0])]


def _entries(board: str, **read: Any) -> list[tuple[str, int]]:
    document = selectors.leaderboard(board=parse_board(board), viewer=None, **read)
    return [(e["player"], e["result"]) for e in document["entries"]]


def _members(board: str) -> list[str]:
    return redis.Redis.from_url(settings.REDIS_URL, decode_responses=True).zrange(f"lb:rank:{board}", 0, -1)


@pytest.mark.django_db
def test_a_board_id_names_its_clean_twin_in_any_letter_case() -> None:
    board = parse_board(f"code:{SPIDERETTE_WIN.lower()}:CLEAN")
    assert (board.id, board.clean, board.variant) == (CLEAN, True, "SD1-S1")
    daily = parse_board("daily:2026-11-30:sp1-s4c:clean")
    assert (daily.id, daily.date, daily.clean) == ("daily:2026-11-30:SP1-S4C:clean", dt.date(2026, 11, 30), True)
    assert not parse_board(BOARD).clean
    for bad in (f"{BOARD}:dirty", f"{CLEAN}:clean", "clean:" + SPIDERETTE_WIN, "daily:2026-11-30:clean"):
        with pytest.raises(BadRequest):
            parse_board(bad)


@pytest.mark.django_db
def test_the_clean_twin_ranks_each_players_best_result_without_an_undo_by_the_same_keys() -> None:
    _fill()
    assert _entries(BOARD) == _oracle(clean=False)
    clean = _entries(CLEAN)
    assert clean == _oracle(clean=True) and len(clean) == 6
    # A winner with undos is first on the board; on the twin they stand by their clean game only.
    assert _entries(BOARD)[0][0] in {"p0", "p2", "p4", "p6"}
    assert {player for player, _ in clean} == {f"p{i}" for i in range(8) if i % 3 != 2}
    assert all(not Result.objects.get(pk=result).undos for _, result in clean)
    document = selectors.leaderboard(board=parse_board(CLEAN), viewer=None)
    assert document["board"] == CLEAN and all(e["undos"] == 0 and not e["won"] for e in document["entries"])
    undos = {e["undos"] for e in selectors.leaderboard(board=parse_board(BOARD), viewer=None)["entries"]}
    assert undos == {0, LOG.count("U")} and LOG.count("U") > 0


@pytest.mark.django_db
def test_guests_and_unranked_results_are_on_neither_board() -> None:
    make_result(named("visitor", guest=True), SPIDERETTE_WIN, CLEAN_LOG)
    make_result(named("practice"), SPIDERETTE_WIN, CLEAN_LOG, ranked=False)
    assert not BoardEntry.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("redis_url", [None, DOWN], ids=["index", "sql"])
def test_reads_with_me_cursors_and_around_me_on_a_clean_board(redis_url: str | None) -> None:
    players = _fill()
    expected = _oracle(clean=True)
    with override_settings(REDIS_URL=redis_url or settings.REDIS_URL):
        seen: list[tuple[str, int]] = []
        query: dict[str, Any] = {"limit": 2}
        while True:
            page = _as(players["p1"]).get(f"/api/leaderboards/{CLEAN}", query)
            body = page.json()
            assert page.status_code == 200 and body["total"] == len(expected)
            seen += [(e["player"], e["result"]) for e in body["entries"]]
            if body["next_cursor"] is None:
                break
            query = {"limit": 2, "cursor": body["next_cursor"]}
        assert seen == expected
        mine = body["me"]
        assert mine["player"] == "p1" and mine["rank"] == 1 + [p for p, _ in expected].index("p1")
        around = _as(players["p4"]).get(f"/api/leaderboards/{CLEAN}", {"limit": 3, "around": "me"}).json()
        at = [p for p, _ in expected].index("p4")
        assert [e["player"] for e in around["entries"]] == [p for p, _ in expected[max(0, at - 1) : at + 2]]
        nobody = _as(players["p2"]).get(f"/api/leaderboards/{CLEAN}").json()
        assert nobody["me"] is None  # p2 only won, with undos
        assert _as(players["p2"]).get(f"/api/leaderboards/{BOARD}").json()["me"]["rank"] == 1 + [
            p for p, _ in _oracle(clean=False)
        ].index("p2")


@pytest.mark.django_db
@pytest.mark.redis
def test_the_clean_index_rebuilt_from_postgresql_equals_the_live_one() -> None:
    _fill()
    live = _members(CLEAN)
    assert live == sorted(BoardEntry.objects.filter(board=CLEAN).values_list("sort_key", flat=True)) and len(live) == 6
    out = io.StringIO()
    call_command("rebuild_ranks", board=CLEAN.lower(), stdout=out)
    assert f"{CLEAN}: 6 entries" in out.getvalue() and _members(CLEAN) == live
    redis.Redis.from_url(settings.REDIS_URL).delete(f"lb:rank:{CLEAN}", f"lb:rank-player:{CLEAN}")
    every = io.StringIO()
    call_command("rebuild_ranks", stdout=every)  # every board: the twin is one of them
    assert f"{CLEAN}: 6 entries" in every.getvalue() and f"{BOARD}: 7 entries" in every.getvalue()
    assert _members(CLEAN) == live


@pytest.mark.django_db
def test_boards_stored_before_the_twins_get_them_from_their_results() -> None:
    _fill()
    live = list(BoardEntry.objects.filter(board=CLEAN).order_by("sort_key").values_list("player_id", "result_id"))
    BoardEntry.objects.filter(board=CLEAN).delete()
    importlib.import_module("leaderboard.migrations.0007_clean_boards").fill_clean_twins(before_the_move(), None)
    rebuilt = BoardEntry.objects.filter(board=CLEAN).order_by("sort_key")
    assert list(rebuilt.values_list("player_id", "result_id")) == live
    assert _entries(CLEAN) == _oracle(clean=True)


@pytest.mark.django_db
def test_a_dailys_clean_twin_keeps_its_embargo(api: APIClient) -> None:
    today = timezone.now().date()
    daily = daily_of(today, "RU1-C", RUSSIAN_WIN)
    make_result(named("early"), RUSSIAN_WIN, vector_log(RUSSIAN_WIN)[:40], daily=daily)
    board = f"{daily.board}:clean"
    body = api.get(f"/api/leaderboards/{board}").json()
    assert body["board"] == board and body["total"] == 1 and RUSSIAN_WIN not in str(body)
    tomorrow = today + dt.timedelta(days=1)
    assert api.get(f"/api/leaderboards/daily:{tomorrow.isoformat()}:RU1-C:clean").status_code == 404


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("socket_cleanup")
async def test_a_clean_result_is_pushed_to_the_twins_watchers_and_a_result_with_an_undo_is_not() -> None:
    player = await database_sync_to_async(named)("watched")
    socket = WebsocketCommunicator(APP, f"/ws/leaderboards/{CLEAN}/")
    assert (await socket.connect())[0]
    snapshot = await socket.receive_json_from(timeout=2)
    assert (snapshot["type"], snapshot["board"], snapshot["total"]) == ("snapshot", CLEAN, 0)
    await database_sync_to_async(make_result)(player, SPIDERETTE_WIN, LOG)  # won with the undo
    assert await socket.receive_nothing(0.5)
    clean = await database_sync_to_async(make_result)(player, SPIDERETTE_WIN, CLEAN_LOG)
    change = await socket.receive_json_from(timeout=2)
    assert change["type"] == "change" and change["board"] == CLEAN
    assert (change["entry"]["result"], change["entry"]["rank"], change["entry"]["undos"]) == (clean.pk, 1, 0)
    await socket.disconnect()


@pytest.mark.django_db
@override_settings(RATE_ACTIONS=10_000)
def test_the_finished_session_says_its_rank_on_the_board_and_on_the_clean_twin() -> None:
    rival = named("rival")
    make_result(rival, SPIDERETTE_WIN, CLEAN_LOG, elapsed_ms=3_600_000)  # the same clean game, in an hour
    client = _as(named("finisher"))

    def play(tokens: list[str]) -> dict[str, Any]:
        session = client.post("/api/sessions", {"code": SPIDERETTE_WIN}, format="json").json()["id"]
        for token in tokens:
            client.post(f"/api/sessions/{session}/actions", {"action": token}, format="json")
        document = client.get(f"/api/sessions/{session}").json()  # a win ends the game by itself
        return document["result"] or client.post(f"/api/sessions/{session}/finish").json()["result"]

    won = play(LOG)  # won, with undos: first on the board, nowhere on the twin
    assert won["won"] and won["undos"] == LOG.count("U")
    assert (won["board"], won["rank"], won["personal_best"]) == (BOARD, 1, True)
    assert (won["clean_board"], won["clean_rank"], won["clean_personal_best"]) == (CLEAN, None, False)
    clean = play(CLEAN_LOG)  # clean: behind the win on the board, ahead of the slower rival on the twin
    assert clean["undos"] == 0 and (clean["rank"], clean["personal_best"]) == (1, False)
    assert (clean["clean_rank"], clean["clean_personal_best"]) == (1, True)
    twin = _as(rival).get(f"/api/leaderboards/{CLEAN}").json()
    assert [e["player"] for e in twin["entries"]] == ["finisher", "rival"] and twin["me"]["rank"] == 2
