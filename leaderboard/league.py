"""The league beyond one board: past days' daily boards, and all-time boards per variant.

Reads only (selectors over the tables the boards and statistics already keep): each player's
best entry per board (BoardEntry), the dailies (games.Daily) and the all-time statistics
(PlayerStats). Nothing here reveals a code: entries name their result, never their board.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Count, Min, Q
from django.utils.translation import gettext

from games.deals.variants import goal_of
from games.engine import DAILY_VARIANTS, InvalidCode, parse_variant
from games.models import Daily
from games.ranking.boards import daily_board_id
from leaderboard.models import BoardEntry, PlayerStats
from leaderboard.stats import current_streak
from web.errors import BadRequest

ARCHIVE_DAYS = 14  # days per archive page
ALL_TIME_LIMIT = 50
ORDERS = ("best", "wins", "streak")


def _variant(text: object, *, daily: bool = False) -> str:
    try:
        variant = parse_variant(text)
    except InvalidCode as error:
        from games.refusals import of_error

        raise BadRequest(of_error(error)) from None
    if daily and variant not in DAILY_VARIANTS:
        raise BadRequest(
            gettext("%(variant)s has no daily challenge. The dailies are: %(dailies)s.")
            % {"variant": variant, "dailies": ", ".join(DAILY_VARIANTS)}
        )
    return variant


def daily_archive(*, today: dt.date, before: dt.date | None, variant: object = None) -> dict[str, Any]:
    """Past days, newest first, ``ARCHIVE_DAYS`` at a time: each day's daily boards with how many
    players ranked there and who leads. Today's boards are the live ones, not the archive's."""
    chosen = _variant(variant, daily=True) if variant is not None else None
    until = min(before, today) if before is not None else today
    dailies = Daily.objects.filter(date__lt=until)
    if chosen is not None:
        dailies = dailies.filter(variant=chosen)
    dates = list(dailies.order_by("-date").values_list("date", flat=True).distinct()[: ARCHIVE_DAYS + 1])
    more = len(dates) > ARCHIVE_DAYS
    dates = dates[:ARCHIVE_DAYS]
    rows = dailies.filter(date__in=dates).values_list("date", "variant")
    boards = {daily_board_id(date, v): (date, v) for date, v in rows}
    counted = {
        row["board"]: row
        for row in BoardEntry.objects.filter(board__in=list(boards))
        .values("board")
        .annotate(players=Count("id"), top=Min("sort_key"))
    }
    leaders = _entries_by_key([(board, row["top"]) for board, row in counted.items()])
    order = {v: i for i, v in enumerate(DAILY_VARIANTS)}
    days: dict[dt.date, list[dict[str, Any]]] = {date: [] for date in dates}
    for board, (date, v) in sorted(boards.items(), key=lambda item: order.get(item[1][1], 99)):
        row = counted.get(board)
        leader = leaders.get((board, row["top"])) if row else None
        days[date].append(
            {
                "board": board,
                "variant": v,
                "players": row["players"] if row else 0,
                "leader": _entry(leader, 1, russian=goal_of(v) == "cards_home") if leader else None,
            }
        )
    return {
        "days": [{"date": date.isoformat(), "boards": days[date]} for date in dates],
        "next_before": dates[-1].isoformat() if more else None,
    }


def all_time(*, variant: object, by: str, limit: int = ALL_TIME_LIMIT) -> dict[str, Any]:
    """A variant's all-time board: each player's best verified result on any of its deals (ranked by
    the boards' keys), or the most wins, or the longest daily streak.

    A secret race's results reach its code board only once the race is over (games.rooms.rooms), so
    nothing here is about a deal whose code is still secret."""
    chosen = _variant(variant)
    if by not in ORDERS:
        raise BadRequest(gettext("by is one of best, wins or streak."))
    russian = goal_of(chosen) == "cards_home"
    if by == "best":
        boards = Q(board__startswith=f"code:{chosen}-") | Q(board__startswith="daily:", board__endswith=f":{chosen}")
        bests = list(
            BoardEntry.objects.filter(boards)
            .exclude(board__endswith=":clean")  # a clean twin holds the same results again
            .values("player")
            .annotate(top=Min("sort_key"))
            .order_by("top")[:limit]
        )
        rows = {
            e.sort_key: e
            for e in BoardEntry.objects.filter(boards, sort_key__in=[b["top"] for b in bests]).select_related("player")
        }
        entries = [_entry(rows[b["top"]], rank, russian=russian) for rank, b in enumerate(bests, 1) if b["top"] in rows]
    else:
        stats = PlayerStats.objects.filter(variant=chosen, player__is_guest=False, player__is_active=True)
        if by == "wins":
            stats = stats.filter(wins__gt=0).order_by("-wins", "games", "player__username")
        else:
            stats = stats.filter(best_daily_streak__gt=0).order_by(
                "-best_daily_streak", "-daily_streak", "player__username"
            )
        today = dt.datetime.now(dt.UTC).date()
        entries = [
            {
                "rank": rank,
                "player": s.player.username,
                "games": s.games,
                "wins": s.wins,
                "clean_wins": s.clean_wins,
                "best_score": s.best_score,
                "daily_streak": current_streak(s, today),
                "best_daily_streak": s.best_daily_streak,
            }
            for rank, s in enumerate(stats.select_related("player")[:limit], 1)
        ]
    return {"variant": chosen, "by": by, "entries": entries}


def _entries_by_key(keys: list[tuple[str, str]]) -> dict[tuple[str, str], BoardEntry]:
    if not keys:
        return {}
    rows = BoardEntry.objects.filter(sort_key__in=[key for _, key in keys], board__in=[b for b, _ in keys])
    return {(e.board, e.sort_key): e for e in rows.select_related("player")}


def _entry(e: BoardEntry, rank: int, *, russian: bool) -> dict[str, Any]:
    return {
        "rank": rank,
        "player": e.player.username,
        "score": e.score,
        "moves": e.moves,
        "won": e.won,
        "cards_home" if russian else "sequences": e.progress,
        "elapsed_ms": e.elapsed_ms,
        "undos": e.undos,
        "result": e.result_id,
    }
