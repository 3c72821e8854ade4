"""All-time statistics per player and variant: games, wins, clean wins, the wins' moves and times (for
their averages), the winning streak, the best game, the daily streak.

The best game is the best score in Spider and Spiderette; in Russian Solitaire, whose score a
take-back and re-play inflates without end, it is the most cards home, then the fewest moves.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.db.models import Count, Max, Q, Sum
from django.db.models.functions import Coalesce

from games.models import FairPlayReview, Result
from leaderboard.models import PlayerStats

_S = PlayerStats._meta.db_table
_INTO = (
    f"INSERT INTO {_S} (player_id, variant, games, wins, clean_wins, best_score, best_cards_home, best_moves,"
    " win_moves, timed_wins, win_ms, win_streak, best_win_streak, daily_streak, best_daily_streak)"
)
# Russian: the new result is the best if it has more cards home, or as many in fewer moves.
_BETTER_RUSSIAN = f"""excluded.best_cards_home IS NOT NULL AND ({_S}.best_cards_home IS NULL
    OR excluded.best_cards_home > {_S}.best_cards_home
    OR (excluded.best_cards_home = {_S}.best_cards_home AND excluded.best_moves < {_S}.best_moves))"""
_ADD = f"""ON CONFLICT (player_id, variant) DO UPDATE SET
    games = {_S}.games + 1,
    wins = {_S}.wins + excluded.wins,
    clean_wins = {_S}.clean_wins + excluded.clean_wins,
    best_score = CASE WHEN {_S}.best_score IS NULL OR excluded.best_score > {_S}.best_score
                      THEN excluded.best_score ELSE {_S}.best_score END,
    best_cards_home = CASE WHEN {_BETTER_RUSSIAN} THEN excluded.best_cards_home ELSE {_S}.best_cards_home END,
    best_moves = CASE WHEN {_BETTER_RUSSIAN} THEN excluded.best_moves ELSE {_S}.best_moves END,
    win_moves = {_S}.win_moves + excluded.win_moves,
    timed_wins = {_S}.timed_wins + excluded.timed_wins,
    win_ms = {_S}.win_ms + excluded.win_ms,
    win_streak = CASE WHEN excluded.wins = 1 THEN {_S}.win_streak + 1 ELSE 0 END,
    best_win_streak = CASE WHEN excluded.wins = 1 AND {_S}.win_streak + 1 > {_S}.best_win_streak
                           THEN {_S}.win_streak + 1 ELSE {_S}.best_win_streak END"""
# A first result starts its streak of wins: one if it is a win, else none.
_COUNT = f"{_INTO}\nVALUES (%s, %s, 1, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, 0, 0)\n{_ADD}\nRETURNING id"


def count_values(result: Result) -> dict[str, int | None]:
    """What one result adds to its player's statistics: a win, a clean win, a candidate best game,
    a win's moves and time."""
    russian = result.stored_code.game == "RU"
    timed = result.won and result.elapsed_ms is not None
    return {
        "wins": int(result.won),
        "clean_wins": int(result.won and result.is_clean),
        "best_score": None if russian else result.score,
        "best_cards_home": result.cards_home if russian else None,
        "best_moves": result.moves if russian else None,
        "win_moves": result.moves if result.won else 0,
        "timed_wins": int(timed),
        "win_ms": (result.elapsed_ms or 0) if timed else 0,
    }


def count_statement(result: Result) -> tuple[str, list[Any]]:
    """The upsert that adds `result` to its player's statistics of its variant (one statement; the
    row it locks serialises a player's concurrent results of a variant). Its row goes to counted()."""
    values = count_values(result)
    return _COUNT, [
        result.player_id,
        result.stored_code.variant,
        values["wins"],
        values["clean_wins"],
        values["best_score"],
        values["best_cards_home"],
        values["best_moves"],
        values["win_moves"],
        values["timed_wins"],
        values["win_ms"],
        values["wins"],  # the streak of wins it starts
        values["wins"],
    ]


def counted(*, result: Result, row: tuple[Any, ...] | None) -> None:
    """Inside the result's transaction, after its count_statement ran and gave `row`: a ranked
    daily's result also recounts the player's daily streak."""
    assert row is not None  # an upsert always gives its row
    (stats_id,) = row
    if recounts_streak(result):
        # Results of two days can arrive out of order (an attempt closed at 01:00 the next day):
        # recount from the dates rather than extend a counter.
        days = _ranked_daily_dates(result.player_id, result.stored_code.variant)
        streak, best = _streaks(days)
        PlayerStats.objects.filter(pk=stats_id).update(last_daily=days[-1], daily_streak=streak, best_daily_streak=best)


def recounts_streak(result: Result) -> bool:
    """Whether counting `result` also recounts its player's daily streak: a ranked daily's."""
    return result.daily_id is not None and (result.board or "").startswith("daily:")


def _ranked_daily_dates(player_id: int, variant: str) -> list[dt.date]:
    dates = (
        Result.objects.filter(player_id=player_id, daily__variant=variant, board__startswith="daily:")
        .exclude(FairPlayReview.uncounted())  # held for fair-play review, or voided
        .order_by("daily__date")
        .values_list("daily__date", flat=True)
        .distinct()
    )
    return list(dates)


def recount(*, player_id: int, variant: str) -> None:
    """Count the player's statistics of `variant` again from every result that still counts (one was
    taken out: leaderboard.withdrawals); none left, no statistics."""
    counted = Result.objects.filter(player_id=player_id, stored_code__variant=variant).exclude(
        FairPlayReview.uncounted()
    )
    won = Q(won=True)
    timed = won & Q(elapsed_ms__isnull=False)
    totals = counted.aggregate(
        games=Count("id"),
        wins=Count("id", filter=won),
        clean_wins=Count("id", filter=won & Result.CLEAN),
        win_moves=Coalesce(Sum("moves", filter=won), 0),
        timed_wins=Count("id", filter=timed),
        win_ms=Coalesce(Sum("elapsed_ms", filter=timed), 0),
        best_score=Max("score"),
    )
    if not totals["games"]:
        PlayerStats.objects.filter(player_id=player_id, variant=variant).delete()
        return
    best = {"best_score": totals.pop("best_score"), "best_cards_home": None, "best_moves": None}
    if variant.startswith("RU"):
        top = counted.order_by("-cards_home", "moves").values("cards_home", "moves").first()
        assert top is not None
        best = {"best_score": None, "best_cards_home": top["cards_home"], "best_moves": top["moves"]}
    win_streak, best_win_streak = win_streaks(counted.order_by("verified_at", "pk").values_list("won", flat=True))
    days = _ranked_daily_dates(player_id, variant)
    streak, longest = _streaks(days)
    PlayerStats.objects.update_or_create(
        player_id=player_id,
        variant=variant,
        defaults={
            **totals,
            **best,
            "win_streak": win_streak,
            "best_win_streak": best_win_streak,
            "daily_streak": streak,
            "best_daily_streak": longest,
            "last_daily": days[-1] if days else None,
        },
    )


def win_streaks(won: Iterable[bool]) -> tuple[int, int]:
    """(the wins in a row at the end, the most in a row) of results in the order they were counted."""
    run = best = 0
    for win in won:
        run = run + 1 if win else 0
        best = max(best, run)
    return run, best


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
        "clean_wins": stats.clean_wins,
        "average_win_moves": round(stats.win_moves / stats.wins, 1) if stats.wins else None,
        "average_win_ms": stats.win_ms // stats.timed_wins if stats.timed_wins else None,
        "win_streak": stats.win_streak,
        "best_win_streak": stats.best_win_streak,
        "best_score": stats.best_score,
        "best_cards_home": stats.best_cards_home,
        "best_moves": stats.best_moves,
        "daily_streak": current_streak(stats, today),
        "best_daily_streak": stats.best_daily_streak,
        "last_daily": stats.last_daily.isoformat() if stats.last_daily else None,
    }
