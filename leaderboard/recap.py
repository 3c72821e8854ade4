"""A player's recap of their ranked attempt at a daily: the result, where it stands now on the daily
board and its clean twin, when the par is out, when the next dailies are, and the player's streak
in that variant as a calendar of the last weeks (docs/api.md, docs/dailies.md).

Reads only. The recap names the board, never the code, and the par only once the daily is published.
A read is a handful of queries whatever the calendar's length: the result, the player's statistics,
the calendar's results (one query, on the results' board index), and the two ranks.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from asgiref.sync import async_to_sync
from django.conf import settings
from django.utils.translation import gettext

from games import refusals
from games.dailies import fair_play
from games.dailies.schedule import utc_today
from games.deals.variants import goal_of, variant_name
from games.engine import DAILY_VARIANTS, InvalidCode, parse_variant
from games.models import FairPlayReview, Player, Result
from games.ranking.boards import clean_twin, daily_board_id, parse_board
from leaderboard import selectors
from leaderboard.models import PlayerStats
from leaderboard.stats import current_streak
from web.errors import BadRequest, NotFound

CALENDAR_WEEKS = 5  # the calendar's rows: whole weeks, Monday first, the last one holding today

WON, PLAYED, MISSED, OPEN = "won", "played", "missed", "open"


def daily_variant(text: object) -> str:
    """The daily variant `text` names (any letter case); BadRequest naming what is wrong."""
    if text is None or text == "":
        raise BadRequest(gettext("Say which daily: variant=SP1-S4C, for instance."))
    try:
        variant = parse_variant(text)
    except InvalidCode as error:
        raise BadRequest(refusals.of_error(error)) from None
    if variant not in DAILY_VARIANTS:
        raise BadRequest(
            gettext("%(variant)s has no daily challenge. The dailies are: %(dailies)s.")
            % {"variant": variant, "dailies": ", ".join(DAILY_VARIANTS)}
        )
    return variant


def daily_recap(*, player: Player, variant: object, date: dt.date | None, now: dt.datetime) -> dict[str, Any]:
    """The recap of `player`'s ranked attempt at the daily of `date` (today by default) and `variant`;
    NotFound in words when they have none finished there."""
    chosen = daily_variant(variant)
    today = utc_today(now)
    day = date if date is not None else today
    if day > today:
        raise NotFound(gettext("The dailies of %(date)s are not out yet.") % {"date": day.isoformat()})
    board = parse_board(daily_board_id(day, chosen))
    result = (
        Result.objects.select_related("daily", "fair_play")
        .filter(player=player, board=board.id, daily__isnull=False)
        .order_by("finished_at")
        .first()
    )
    if result is None or result.daily is None:
        raise NotFound(
            gettext("You have no finished ranked attempt at the %(variant)s daily of %(date)s.")
            % {"variant": variant_name(chosen), "date": day.isoformat()}
        )
    daily = result.daily
    published = now >= daily.publishes_at
    clean = result.is_clean
    clean_board = clean_twin(board.id)
    entry_of = async_to_sync(selectors.entry_of)
    entry = entry_of(board=board, player_id=player.pk)
    clean_entry = entry_of(board=parse_board(clean_board), player_id=player.pk) if clean else None
    progress = result.cards_home if goal_of(chosen) == "cards_home" else result.sequences
    return {
        "date": day.isoformat(),
        "variant": chosen,
        "board": board.id,
        "clean_board": clean_board,
        "score": result.score,
        "moves": result.moves,
        "elapsed_ms": result.elapsed_ms,
        "won": result.won,
        board.progress_field: progress,
        "undos": result.undos,
        "clean": clean,
        "rank": entry["rank"] if entry is not None else None,
        "clean_rank": clean_entry["rank"] if clean_entry is not None else None,
        "publishes_at": daily.publishes_at.isoformat(),
        "published": published,
        "par": daily.par if published else None,
        "next_dailies_at": next_dailies_at(now).isoformat(),
        "streak": streak(player=player, variant=chosen, today=today),
        "fair_play": fair_play.status_of(result, now=now),
    }


def next_dailies_at(now: dt.datetime) -> dt.datetime:
    """The next 00:00 UTC: when the next day's dailies open."""
    return dt.datetime.combine(utc_today(now) + dt.timedelta(days=1), dt.time(0), tzinfo=dt.UTC)


def calendar_start(today: dt.date) -> dt.date:
    """The Monday that opens the calendar's first week."""
    return today - dt.timedelta(days=today.weekday() + 7 * (CALENDAR_WEEKS - 1))


def streak(*, player: Player, variant: str, today: dt.date) -> dict[str, Any]:
    """The current and best run of days with a finished ranked daily of `variant`, and each day of the
    calendar from the later of its first Monday, the player's first day and the league's: won (the
    ranked result won), played (it did not), missed (none), or open (today, not finished yet)."""
    first = max(calendar_start(today), player.date_joined.astimezone(dt.UTC).date(), settings.DAILIES_START)
    span = [first + dt.timedelta(days=n) for n in range((today - first).days + 1)]
    boards = {daily_board_id(day, variant): day for day in span}
    outcome: dict[dt.date, bool] = {}
    if boards:
        rows = Result.objects.filter(player=player, board__in=list(boards), daily__isnull=False).exclude(
            FairPlayReview.uncounted()
        )
        for board, won in rows.values_list("board", "won"):
            day = boards[str(board)]
            outcome[day] = outcome.get(day, False) or won
    stats = PlayerStats.objects.filter(player=player, variant=variant).first()
    days = []
    for day in span:
        if day in outcome:
            status = WON if outcome[day] else PLAYED
        else:
            status = OPEN if day == today else MISSED
        days.append({"date": day.isoformat(), "status": status})
    return {
        "current": current_streak(stats, today) if stats is not None else 0,
        "best": stats.best_daily_streak if stats is not None else 0,
        "from": calendar_start(today).isoformat(),
        "days": days,
    }
