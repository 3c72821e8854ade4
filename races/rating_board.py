"""Reads of the ratings: a game's board, a player's ratings with their history.

A board ranks by the model's mean (mu), highest first, then by who got there first; the players
still provisional (races.ratings.PROVISIONAL_RACES) are a list of their own, since a few races
say little yet. A page's cursor names the last rating shown (games.ranking's encoding).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext

from games.models import Player
from games.ranking import decode_cursor, encode_cursor
from races.models import Rating, RatingChange
from races.ratings import GAMES, PROVISIONAL_RACES, shown
from web.errors import BadRequest, NotFound

GROUPS = ("rated", "provisional")
HISTORY_POINTS = 200  # per game: the most recent races
_ID_DIGITS = 19


def parse_game(game: object) -> str:
    text = str(game).strip().upper()
    if text not in GAMES:
        raise NotFound(gettext("No such game: ratings are kept for SP, SD and RU."))
    return text


def parse_group(group: object) -> str:
    text = "rated" if group is None else str(group)
    if text not in GROUPS:
        raise BadRequest(gettext('group is "rated" or "provisional".'))
    return text


def _board(game: str, group: str) -> QuerySet[Rating]:
    rows = Rating.objects.filter(game=game, player__is_active=True)
    if group == "rated":
        return rows.filter(races__gte=PROVISIONAL_RACES)
    return rows.filter(races__lt=PROVISIONAL_RACES)


def _after(rows: QuerySet[Rating], last: Rating) -> QuerySet[Rating]:
    return rows.filter(
        Q(mu__lt=last.mu)
        | Q(mu=last.mu, updated_at__gt=last.updated_at)
        | Q(mu=last.mu, updated_at=last.updated_at, pk__gt=last.pk)
    )


def rating_board(*, game: object, group: object = None, limit: int, cursor: str | None) -> dict[str, Any]:
    """A page of a game's board (`group`: "rated", or "provisional" for the players with few races)."""
    chosen, which = parse_game(game), parse_group(group)
    rows = _board(chosen, which)
    ahead = 0
    if cursor is not None:
        pk = int(decode_cursor(cursor, _ID_DIGITS))
        last = rows.filter(pk=pk).first()
        if last is None:
            raise BadRequest(gettext("That cursor is not valid: use the next_cursor of the previous page."))
        ahead = rows.count() - _after(rows, last).count()
        rows = _after(rows, last)
    page = list(rows.select_related("player").order_by("-mu", "updated_at", "pk")[: limit + 1])
    more = len(page) > limit
    page = page[:limit]
    return {
        "game": chosen,
        "group": which,
        "provisional_races": PROVISIONAL_RACES,
        "entries": [
            {
                "rank": ahead + index,
                "player": rating.player.display_name,
                **shown(rating.mu, rating.sigma, rating.races).document(),
            }
            for index, rating in enumerate(page, start=1)
        ],
        "next_cursor": encode_cursor(f"{page[-1].pk:0{_ID_DIGITS}d}") if more else None,
    }


def player_ratings(player: Player) -> list[dict[str, Any]]:
    """A player's rating in each game they raced rated, with its history oldest first."""
    ratings = []
    for rating in Rating.objects.filter(player=player).order_by("game"):
        recent = RatingChange.objects.filter(player=player, game=rating.game).order_by("-at", "-pk")[:HISTORY_POINTS]
        history = []
        races = rating.races - len(recent)
        for change in reversed(recent):
            races += 1
            point = shown(change.mu_after, change.sigma_after, races)
            history.append(
                {
                    "at": change.at.isoformat(),
                    "rating": point.rating,
                    "uncertainty": point.uncertainty,
                    "place": change.place,
                    "racers": change.racers,
                    "room": str(change.room_id),
                }
            )
        ratings.append(
            {"game": rating.game, **shown(rating.mu, rating.sigma, rating.races).document(), "history": history}
        )
    return ratings


def _shown(rating: Rating) -> dict[str, Any]:
    return shown(rating.mu, rating.sigma, rating.races).document()
