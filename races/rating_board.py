"""Reads of the ratings: a game's board, a player's ratings with their history.

A board ranks by the model's mean (mu), highest first, then by who got there first; the players
still provisional (races.ratings.PROVISIONAL_RACES) are a list of their own, since a few races
say little yet. A page's cursor is how many entries come before it (games.ranking.keys' encoding):
any such cursor is a place on the board, past its end an empty page.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext

from games.models import Player
from games.ranking.keys import decode_cursor, encode_cursor
from races.models import Rating, RatingChange
from races.ratings import GAMES, PROVISIONAL_RACES, shown
from web.errors import BadRequest, NotFound

GROUPS = ("rated", "provisional")
HISTORY_POINTS = 200  # per game: the most recent races
_DIGITS = 19
_FURTHEST = 10**12  # past every board: an empty page, not an offset the database refuses


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


def rating_board(*, game: object, group: object = None, limit: int, cursor: str | None) -> dict[str, Any]:
    """A page of a game's board (`group`: "rated", or "provisional" for the players with few races)."""
    chosen, which = parse_game(game), parse_group(group)
    rows = _board(chosen, which).select_related("player").order_by("-mu", "updated_at", "pk")
    ahead = 0 if cursor is None else min(int(decode_cursor(cursor, _DIGITS)), _FURTHEST)
    page = list(rows[ahead : ahead + limit + 1])
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
                **_shown(rating),
            }
            for index, rating in enumerate(page, start=1)
        ],
        "next_cursor": encode_cursor(f"{ahead + limit:0{_DIGITS}d}") if more else None,
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
        ratings.append({"game": rating.game, **_shown(rating), "history": history})
    return ratings


def _shown(rating: Rating) -> dict[str, Any]:
    return shown(rating.mu, rating.sigma, rating.races).document()
