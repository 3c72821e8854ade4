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

from games.models import DailyCandidate
from games.results.replays import published_daily
from leaderboard.models import BoardEntry


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
        "code": daily.stored_code.code,
        "certified": daily.certified,
        "par": daily.par,
        **counts,
        "candidates": [
            {"k": c.k, "code": c.code, "verdict": c.verdict, "seconds": round(c.seconds, 3), "par": c.par}
            for c in tried
        ],
    }
