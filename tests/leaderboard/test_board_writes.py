"""The result write: one upsert for the statistics, one for the entry and its board version.

The guarantees: the best result is kept, statistics are exact, concurrent results of one player
are safe, every change bumps the board version once, and an index that missed a change is
caught up by the next reader, whichever process it is in.
"""

from __future__ import annotations

import threading

import pytest
import redis
from django.conf import settings
from django.db import connections, transaction

from games.models import Player
from games.ranking.boards import parse_board
from leaderboard import selectors
from leaderboard.models import BoardEntry, BoardVersion, PlayerStats
from leaderboard.ranking import standings
from tests.leaderboard.factories import RUSSIAN_WIN, make_result, named, vector_log

BOARD = f"code:{RUSSIAN_WIN}"
LOG = vector_log(RUSSIAN_WIN)


def _version() -> int:
    return BoardVersion.objects.get(board=BOARD).version


@pytest.mark.django_db
def test_only_a_better_result_changes_the_entry_and_bumps_the_version() -> None:
    player = named("bumper")
    changes = []
    for cut in (60, 20, 95, len(LOG), 30):  # better, worse, better, the win, worse
        result = make_result(player, RUSSIAN_WIN, LOG[:cut], ranked=False)
        result.board = BOARD
        with transaction.atomic():
            result.save(update_fields=["board"])
            changes.append(standings.offer(result=result))
    assert [c is not None for c in changes] == [True, False, True, True, False]
    assert [c.version for c in changes if c is not None] == [1, 2, 3]
    entry = BoardEntry.objects.get(player=player, board=BOARD)
    assert (entry.progress, entry.won, entry.version, _version()) == (52, True, 3, 3)


@pytest.mark.django_db
def test_statistics_count_every_result_in_one_upsert() -> None:
    player = named("counter")
    results = [make_result(player, RUSSIAN_WIN, LOG[:cut]) for cut in (10, len(LOG), 40)]
    make_result(player, RUSSIAN_WIN, LOG[:50], ranked=False)  # practice counts too
    stats = PlayerStats.objects.get(player=player)
    assert (stats.games, stats.wins) == (4, 1)
    win = results[1]
    assert (stats.best_cards_home, stats.best_moves, stats.best_score) == (52, win.moves, None)
    assert stats.clean_wins == 1 and stats.daily_streak == 0


@pytest.mark.django_db(transaction=True)
def test_concurrent_results_of_one_player_keep_the_best_and_count_them_all() -> None:
    player = named("racer")
    cuts = [20, 95, 40, len(LOG), 60, 10, 80, 30]
    barrier = threading.Barrier(len(cuts))
    errors: list[BaseException] = []

    def submit(cut: int) -> None:
        try:
            barrier.wait(timeout=10)
            make_result(Player.objects.get(pk=player.pk), RUSSIAN_WIN, LOG[:cut])
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=submit, args=(cut,)) for cut in cuts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    entry = BoardEntry.objects.get(player=player, board=BOARD)
    stats = PlayerStats.objects.get(player=player)
    assert (entry.won, entry.progress) == (True, 52)
    assert (stats.games, stats.wins) == (len(cuts), 1)
    assert BoardEntry.objects.filter(board=BOARD).count() == 1
    # However the changes interleaved, a read agrees with PostgreSQL.
    document = selectors.leaderboard(board=parse_board(BOARD), viewer=player)
    assert document["total"] == 1 and document["me"]["result"] == entry.result_id


@pytest.mark.django_db
@pytest.mark.redis
def test_a_change_the_index_missed_is_caught_up_by_the_next_read() -> None:
    first, second = named("seen"), named("missed")
    make_result(first, RUSSIAN_WIN, LOG[:30])
    client = redis.Redis.from_url(settings.REDIS_URL, decode_responses=True)
    version_key = f"lb:rank-version:{BOARD}"
    indexed = client.get(version_key)
    make_result(second, RUSSIAN_WIN, LOG)
    # As if the second result's Redis write had been lost (Redis away, the worker killed after commit):
    missed = BoardEntry.objects.get(player=second, board=BOARD)
    client.zrem(f"lb:rank:{BOARD}", missed.sort_key)
    client.hdel(f"lb:rank-player:{BOARD}", str(second.pk))
    client.set(version_key, indexed)
    assert int(indexed) < _version()
    document = selectors.leaderboard(board=parse_board(BOARD), viewer=None)
    assert [e["player"] for e in document["entries"]] == ["missed", "seen"] and document["total"] == 2
    assert int(client.get(version_key)) == _version()
