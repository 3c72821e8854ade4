"""A result taken back out of everything it counted in: a daily result staff void after approving it
(games.dailies.fair_play.decide announces it `withdrawn`, games.results.announcements).

Inside the decision's transaction its board entries (the daily's board and its clean twin: a player
has one ranked result a daily) go, and its player's statistics of the variant, streak included, are
counted again from the results that still count; the par counts and the all-time boards read those,
so they follow. A rank index only ever adds or betters an entry, so it cannot be told of one gone:
the board's version jumps past what a reader catches up with (standings.CATCH_UP_LIMIT), and the
next reader, in any process, rebuilds the index from PostgreSQL, even if Redis is away right now.
"""

from __future__ import annotations

from django.db.models import F

from games.models import Result
from leaderboard import stats
from leaderboard.models import BoardEntry, BoardVersion
from leaderboard.ranking import standings


def withdraw(result: Result) -> None:
    entries = BoardEntry.objects.filter(result=result)
    boards = sorted(entries.values_list("board", flat=True))
    for board in boards:  # in order, as offers lock them, so that two changes cannot deadlock
        BoardVersion.objects.filter(board=board).update(version=F("version") + standings.CATCH_UP_LIMIT + 1)
    entries.delete()
    stats.recount(player_id=result.player_id, variant=result.stored_code.variant)
