"""All-time statistics per player and variant: games, wins, best score, daily streak."""

from __future__ import annotations

import datetime as dt
from typing import Any

from leaderboard.models import PlayerStats, Result


def count_result(*, result: Result) -> None:
    """Inside the result's transaction: add it to its player's statistics of its variant."""
    variant = result.deal.variant
    PlayerStats.objects.bulk_create([PlayerStats(player_id=result.player_id, variant=variant)], ignore_conflicts=True)
    stats = PlayerStats.objects.select_for_update().get(player_id=result.player_id, variant=variant)
    stats.games += 1
    stats.wins += int(result.won)
    stats.best_score = result.score if stats.best_score is None else max(stats.best_score, result.score)
    if result.daily_id is not None and (result.board or "").startswith("daily:"):
        # Results of two days can arrive out of order (an attempt closed at 01:00 the next day):
        # recount from the dates rather than extend a counter.
        days = _ranked_daily_dates(result.player_id, variant)
        stats.last_daily = days[-1]
        stats.daily_streak, stats.best_daily_streak = _streaks(days)
    stats.save()


def _ranked_daily_dates(player_id: int, variant: str) -> list[dt.date]:
    dates = (
        Result.objects.filter(player_id=player_id, daily__variant=variant, board__startswith="daily:")
        .order_by("daily__date")
        .values_list("daily__date", flat=True)
        .distinct()
    )
    return list(dates)


def _streaks(days: list[dt.date]) -> tuple[int, int]:
    """(the run of consecutive days ending on the last day, the longest run) of ascending dates."""
    run = best = 0
    for i, day in enumerate(days):
        run = run + 1 if i and days[i - 1] == day - dt.timedelta(days=1) else 1
        best = max(best, run)
    return run, best


def current_streak(stats: PlayerStats, today: dt.date) -> int:
    """The streak still alive: its last day is today or yesterday (today's daily may be to come)."""
    if stats.last_daily is None or stats.last_daily < today - dt.timedelta(days=1):
        return 0
    return stats.daily_streak


def stats_document(stats: PlayerStats, today: dt.date) -> dict[str, Any]:
    return {
        "variant": stats.variant,
        "games": stats.games,
        "wins": stats.wins,
        "best_score": stats.best_score,
        "daily_streak": current_streak(stats, today),
        "best_daily_streak": stats.best_daily_streak,
        "last_daily": stats.last_daily.isoformat() if stats.last_daily else None,
    }
