"""A published daily's par beside its board: the solver's move count, how many players beat or
matched it, and the candidates the solver tried (docs/dailies.md).

Nothing here answers before the daily is published (01:00 UTC the day after its date): until then
the par, the line and the number of candidates tried would tell something of a secret deal. The
refusal is the same for every unpublished daily, certified or not, and is decided from the date
alone, before anything is read.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Count, Q
from django.utils.translation import gettext

from games.dailies import daily_for, utc_today
from games.models import Daily, DailyCandidate
from leaderboard.boards import Board, parse_board
from leaderboard.models import BoardEntry
from web.errors import NotFound


def published_daily(board_id: object, *, now: dt.datetime) -> tuple[Board, Daily]:
    """The board and its daily, if it is a daily board whose day is published; NotFound otherwise."""
    board = parse_board(board_id, today=utc_today(now))
    if board.date is None:
        raise NotFound(gettext("Only a daily's board has a par."))
    if now < Daily(date=board.date).publishes_at:
        raise NotFound(gettext("A daily's par and the solver's line are shown once its day is over."))
    return board, daily_for(board.date, board.variant, now=now)


def par_document(board_id: object, *, now: dt.datetime) -> dict[str, Any]:
    board, daily = published_daily(board_id, now=now)
    counts: dict[str, int | None] = {"beat": None, "matched": None}
    if daily.par is not None:
        won = BoardEntry.objects.filter(board=board.id, won=True)
        counts = won.aggregate(
            beat=Count("id", filter=Q(moves__lt=daily.par)), matched=Count("id", filter=Q(moves=daily.par))
        )
    tried = DailyCandidate.objects.filter(date=daily.date, variant=daily.variant).order_by("k")
    if daily.candidate is not None:
        tried = tried.filter(k__lte=daily.candidate)
    return {
        "board": board.id,
        "date": daily.date.isoformat(),
        "variant": daily.variant,
        "code": daily.deal.code,
        "certified": daily.certified,
        "par": daily.par,
        **counts,
        "candidates": [
            {"k": c.k, "code": c.code, "verdict": c.verdict, "seconds": round(c.seconds, 3), "par": c.par}
            for c in tried
        ],
    }
