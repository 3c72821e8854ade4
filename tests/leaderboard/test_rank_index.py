"""The Redis rank index agrees with PostgreSQL, can be rebuilt from it, and is not needed to answer."""

from __future__ import annotations

import io

import pytest
import redis
from asgiref.sync import async_to_sync
from django.conf import settings
from django.core.management import CommandError, call_command
from django.test import override_settings

from games.ranking.boards import parse_board
from leaderboard import selectors
from leaderboard.models import BoardEntry
from leaderboard.ranking import rank_index
from leaderboard.ranking.sql_ranks import SqlRanks
from tests.leaderboard.factories import SPIDERETTE_WIN, legal_walk, make_result, named, vector_log

BOARD = f"code:{SPIDERETTE_WIN}"
DOWN = "redis://127.0.0.1:1/0"  # nothing listens there

pytestmark = [pytest.mark.django_db, pytest.mark.redis]


def _fill(players: int = 12) -> None:
    log = vector_log(SPIDERETTE_WIN)
    for i in range(players):
        make_result(named(f"p{i:02d}"), SPIDERETTE_WIN, log[: 7 * i + 3], elapsed_ms=1000 * (i % 4) or None)


def _members(board: str) -> list[str]:
    client = redis.Redis.from_url(settings.REDIS_URL, decode_responses=True)
    return client.zrange(f"lb:rank:{board}", 0, -1)


def test_redis_rank_equals_sql_rank_for_every_entry() -> None:
    _fill()
    redis_ranks, sql_ranks = rank_index.RedisRanks(BOARD), SqlRanks(BOARD)
    keys = list(BoardEntry.objects.filter(board=BOARD).values_list("sort_key", flat=True))
    assert len(keys) == 12 and redis_ranks.total() == sql_ranks.total() == 12
    for key in keys:
        assert redis_ranks.rank(key) == sql_ranks.rank(key)
    for offset in (0, 5, 11):
        assert redis_ranks.at(offset, 4) == sql_ranks.at(offset, 4)
        assert redis_ranks.after(keys[offset], 3) == sql_ranks.after(keys[offset], 3)


def test_rebuilt_index_equals_the_live_one() -> None:
    _fill()
    live = _members(BOARD)
    assert live == sorted(BoardEntry.objects.filter(board=BOARD).values_list("sort_key", flat=True))
    out = io.StringIO()
    call_command("rebuild_ranks", board=BOARD.lower(), stdout=out)
    assert "12 entries" in out.getvalue()
    assert _members(BOARD) == live
    redis.Redis.from_url(settings.REDIS_URL).delete(f"lb:rank:{BOARD}", f"lb:rank-player:{BOARD}")
    call_command("rebuild_ranks", stdout=io.StringIO())  # every board
    assert _members(BOARD) == live


def test_an_improvement_replaces_the_players_member_and_an_older_update_cannot_undo_it() -> None:
    player = named("improver")
    log = vector_log(SPIDERETTE_WIN)
    first = make_result(player, SPIDERETTE_WIN, log[:10])
    first_key = BoardEntry.objects.get(player=player, board=BOARD).sort_key
    make_result(player, SPIDERETTE_WIN, log)  # the win
    best_key = BoardEntry.objects.get(player=player, board=BOARD).sort_key
    assert _members(BOARD) == [best_key]
    async_to_sync(rank_index.put)(BOARD, player.pk, first_key)  # a late, out-of-order update of the first result
    assert _members(BOARD) == [best_key] and first.pk != BoardEntry.objects.get(player=player, board=BOARD).result_id


def test_a_missing_index_is_rebuilt_on_first_read() -> None:
    _fill(5)
    redis.Redis.from_url(settings.REDIS_URL).delete(f"lb:rank:{BOARD}", f"lb:rank-player:{BOARD}")
    document = selectors.leaderboard(board=parse_board(BOARD), viewer=None)
    assert document["total"] == 5 and len(_members(BOARD)) == 5


def test_with_redis_down_the_same_answers_come_from_sql() -> None:
    _fill()
    me = BoardEntry.objects.order_by("sort_key")[6].player
    expected = selectors.leaderboard(board=parse_board(BOARD), viewer=me, limit=4, around_me=True)
    with override_settings(REDIS_URL=DOWN):
        assert selectors.leaderboard(board=parse_board(BOARD), viewer=me, limit=4, around_me=True) == expected
        # A result arriving meanwhile is still ranked (the index write fails, the commit does not).
        make_result(named("while-down"), SPIDERETTE_WIN, vector_log(SPIDERETTE_WIN))
        assert selectors.leaderboard(board=parse_board(BOARD), viewer=None, limit=1)["entries"][0]["player"] == (
            "while-down"
        )
    # Redis is back: its version is behind PostgreSQL's, so the next read catches it up first.
    assert redis.Redis.from_url(settings.REDIS_URL).get(f"lb:rank-version:{BOARD}") == b"12"
    assert selectors.leaderboard(board=parse_board(BOARD), viewer=None, limit=1)["entries"][0]["player"] == (
        "while-down"
    )
    assert len(_members(BOARD)) == 13


def test_rebuild_ranks_refuses_a_bad_board_and_a_missing_redis() -> None:
    with pytest.raises(CommandError, match="not a date"):
        call_command("rebuild_ranks", board="daily:yesterday:SD1-S1")
    with override_settings(REDIS_URL=None), pytest.raises(CommandError, match="REDIS_URL is not set"):
        call_command("rebuild_ranks")
    make_result(named("x"), SPIDERETTE_WIN, legal_walk(SPIDERETTE_WIN, 3))
    with override_settings(REDIS_URL=DOWN), pytest.raises(CommandError, match="Redis is unavailable"):
        call_command("rebuild_ranks", board=BOARD)
