"""Ranking keys (docs/ranking.md) on the boards: every tie-break, the null-time rule, guests."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.test import override_settings
from hypothesis import given
from hypothesis import strategies as st

from games.ranking.boards import parse_board
from games.ranking.keys import RankKey
from leaderboard import selectors
from leaderboard.models import BoardEntry
from tests.leaderboard.factories import RUSSIAN_WIN, SPIDER_WIN, legal_walk, make_result, named, vector_log

T0 = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.UTC)
SECOND = dt.timedelta(seconds=1)

keys = st.builds(
    RankKey,
    progress=st.integers(0, 52),
    score=st.integers(-10_000, 2_000),
    moves=st.integers(0, 10_000),
    elapsed_ms=st.none() | st.integers(0, 10**13),
    finished_at=st.datetimes(
        min_value=dt.datetime(2000, 1, 1), max_value=dt.datetime(2100, 1, 1), timezones=st.just(dt.UTC)
    ),
    result_id=st.integers(1, 10**15),
)


@given(st.lists(keys, max_size=30))
def test_the_sort_key_orders_exactly_as_the_spec_keys(ranked: list[RankKey]) -> None:
    def spec(k: RankKey) -> tuple:
        # More progress, higher score, fewer moves, shorter time (none after any), earlier finish.
        return (-k.progress, -k.score, k.moves, k.elapsed_ms is None, k.elapsed_ms or 0, k.finished_at, k.result_id)

    assert sorted(ranked, key=RankKey.sort_key) == sorted(ranked, key=spec)


def test_russian_score_does_not_rank() -> None:
    common = {"progress": 52, "moves": 100, "elapsed_ms": 1, "finished_at": T0}
    high = RankKey.of(russian=True, score=900, result_id=2, **common)
    low = RankKey.of(russian=True, score=625, result_id=1, **common)
    assert low.sort_key() < high.sort_key()  # equal but for the id: the score changed nothing


def _board_order(board_id: str) -> list[str]:
    document = selectors.leaderboard(board=parse_board(board_id), viewer=None, limit=100)
    assert [e["rank"] for e in document["entries"]] == list(range(1, len(document["entries"]) + 1))
    return [e["player"] for e in document["entries"]]


def _insert_shuffled(code: str, rows: list[tuple[str, dict]]) -> None:
    shuffled = rows[:]
    random.Random(7).shuffle(shuffled)
    for name, numbers in shuffled:
        make_result(named(name), code, **numbers)


SPIDER_ROWS = [
    ("won", {"sequences": 8, "score": 1100, "moves": 200, "won": True, "elapsed_ms": 90_000}),
    ("s2_700", {"sequences": 2, "score": 700, "moves": 50, "elapsed_ms": 10_000}),
    ("s2_690_m40", {"sequences": 2, "score": 690, "moves": 40, "elapsed_ms": 10_000}),
    ("s2_m41_5s", {"sequences": 2, "score": 690, "moves": 41, "elapsed_ms": 5_000}),
    ("s2_m41_6s", {"sequences": 2, "score": 690, "moves": 41, "elapsed_ms": 6_000, "finished_at": T0}),
    ("s2_6s_later", {"sequences": 2, "score": 690, "moves": 41, "elapsed_ms": 6_000, "finished_at": T0 + SECOND}),
    ("s2_slowest", {"sequences": 2, "score": 690, "moves": 41, "elapsed_ms": 10**12, "finished_at": T0 - 9 * SECOND}),
    ("s2_no_time", {"sequences": 2, "score": 690, "moves": 41, "elapsed_ms": None, "finished_at": T0 - 9 * SECOND}),
    ("s1_400", {"sequences": 1, "score": 400, "moves": 200}),
    ("s0_500", {"sequences": 0, "score": 500, "moves": 0}),
]


@pytest.mark.django_db
@pytest.mark.parametrize("redis_url", ["from settings", None], ids=["redis", "sql"])
def test_spider_board_ranks_by_every_key_in_order(redis_url: str | None, settings) -> None:  # type: ignore[no-untyped-def]
    if redis_url is None:
        settings.REDIS_URL = None
    _insert_shuffled("SP1-S4C-AAAAAAD", SPIDER_ROWS)
    assert _board_order("code:SP1-S4C-AAAAAAD") == [name for name, _ in SPIDER_ROWS]


@pytest.mark.django_db
def test_spiderette_scores_can_be_negative_and_still_rank() -> None:
    rows = [
        ("plus3", {"sequences": 0, "score": 3, "moves": 497}),
        ("minus20", {"sequences": 0, "score": -20, "moves": 520}),
        ("minus900", {"sequences": 0, "score": -900, "moves": 1400}),
    ]
    _insert_shuffled("SD1-S2-AAAAAAB", rows)
    assert _board_order("code:SD1-S2-AAAAAAB") == ["plus3", "minus20", "minus900"]


@pytest.mark.django_db
def test_russian_board_ranks_cards_home_then_moves_never_score() -> None:
    rows = [
        ("home52_m100", {"cards_home": 52, "won": True, "score": 100, "moves": 100}),
        ("home52_m120", {"cards_home": 52, "won": True, "score": 900, "moves": 120}),
        ("home30_fast", {"cards_home": 30, "score": 0, "moves": 10, "elapsed_ms": 5_000, "finished_at": T0}),
        ("home30_later", {"cards_home": 30, "score": 9, "moves": 10, "elapsed_ms": 5_000, "finished_at": T0 + SECOND}),
        ("home30_slow", {"cards_home": 30, "score": 999, "moves": 10, "elapsed_ms": 99_999}),
        ("home30_untimed", {"cards_home": 30, "score": 999, "moves": 10, "elapsed_ms": None}),
        ("home29", {"cards_home": 29, "score": 999, "moves": 1}),
    ]
    _insert_shuffled("RU1-C-AAAAABB", rows)
    assert _board_order("code:RU1-C-AAAAABB") == [name for name, _ in rows]


@pytest.mark.django_db
def test_genuine_results_rank_a_win_above_a_partial_game() -> None:
    log = vector_log(SPIDER_WIN)
    make_result(named("halfway"), SPIDER_WIN, log[:100])
    make_result(named("winner"), SPIDER_WIN, log, elapsed_ms=500_000)
    make_result(named("walker"), SPIDER_WIN, legal_walk(SPIDER_WIN, 20))
    document = selectors.leaderboard(board=parse_board(f"code:{SPIDER_WIN}"), viewer=None)
    top = document["entries"][0]
    assert (top["player"], top["won"], top["sequences"], top["score"], top["moves"]) == ("winner", True, 8, 1125, 175)
    assert "cards_home" not in top and document["total"] == 3


@pytest.mark.django_db
def test_a_worse_later_result_does_not_replace_a_better_one_and_a_better_one_does() -> None:
    player = named("steady")
    log = vector_log(RUSSIAN_WIN)
    good = make_result(player, RUSSIAN_WIN, log[:60])
    make_result(player, RUSSIAN_WIN, log[:20])  # fewer cards home: worse
    assert BoardEntry.objects.get(player=player, board=f"code:{RUSSIAN_WIN}").result_id == good.pk
    best = make_result(player, RUSSIAN_WIN, log)  # the win
    entry = BoardEntry.objects.get(player=player, board=f"code:{RUSSIAN_WIN}")
    assert (entry.result_id, entry.progress, entry.won) == (best.pk, 52, True)
    document = selectors.leaderboard(board=parse_board(f"code:{RUSSIAN_WIN}"), viewer=player)
    assert document["total"] == 1 and document["me"]["result"] == best.pk


@pytest.mark.django_db
def test_guests_never_appear_on_a_board() -> None:
    guest = named("~guest-abc", guest=True)
    make_result(guest, SPIDER_WIN, vector_log(SPIDER_WIN))
    # Even a result that names a board (the games app already gives guests none).
    result = make_result(guest, SPIDER_WIN, [], ranked=False)
    result.board = f"code:{SPIDER_WIN}"
    from games.results import announcements

    announcements.announce(announcements.Event(kind="verified", result=result))
    assert not BoardEntry.objects.exists()
    document = selectors.leaderboard(board=parse_board(f"code:{SPIDER_WIN}"), viewer=guest)
    assert document["entries"] == [] and document["total"] == 0 and document["me"] is None


@pytest.mark.django_db
def test_unranked_results_count_in_statistics_but_not_on_boards() -> None:
    player = named("practice")
    make_result(player, SPIDER_WIN, vector_log(SPIDER_WIN), ranked=False)
    assert not BoardEntry.objects.exists()
    stats = player.stats.get()
    assert (stats.games, stats.wins, stats.best_score) == (1, 1, 1125)


@pytest.mark.django_db
@override_settings(REDIS_URL=None)
def test_without_redis_the_board_is_ranked_by_sql() -> None:
    _insert_shuffled("SP1-S4C-AAAAAAD", SPIDER_ROWS[:4])
    assert _board_order("code:SP1-S4C-AAAAAAD") == [name for name, _ in SPIDER_ROWS[:4]]
