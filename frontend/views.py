"""The pages of the browser client. Each page is a shell the ES modules fill from the API.

Every page hands out the CSRF cookie, so the modules can call the API at once. A page makes
no player: a first-time visitor becomes a guest with its first game (games.players.guests).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.csrf import ensure_csrf_cookie

from frontend.variants import RULE_PAGES, picker_choices
from games.engine import InvalidCode, parse_variant
from games.models import Player, Result
from games.players.signed_in import signed_in_player
from games.ranking.boards import parse_board
from games.refusals import of_error
from games.rooms.rooms import room_for
from games.selectors import session_for
from leaderboard.profiles import named_player
from races.ratings import GAMES, PROVISIONAL_RACES
from web.errors import ServiceError

View = Callable[..., HttpResponse]


class Missing(Exception):
    """What a page names does not exist: the page answers 404 with ``heading`` and ``message``."""

    def __init__(self, heading: str, message: str) -> None:
        super().__init__(message)
        self.heading = heading
        self.message = message


def page(template: str) -> Callable[[Callable[..., dict[str, Any]]], View]:
    """A page view: set the CSRF cookie, render ``template`` with the context.

    A page about something that does not exist (a game, a room, a board, a player, a result)
    is a not-found page with status 404, so its scripts never start (nor reconnect forever).
    """

    def wrap(context_of: Callable[..., dict[str, Any]]) -> View:
        @wraps(context_of)
        @ensure_csrf_cookie
        def view(request: HttpRequest, **kwargs: Any) -> HttpResponse:
            try:
                found = context_of(request, **kwargs)
            except Missing as missing:
                context: dict[str, Any] = {"player": signed_in_player(request.user), "page": "not-found"}
                context |= {"heading": missing.heading, "message": missing.message}
                return render(request, "frontend/not_found.html", context, status=404)
            context = {"player": signed_in_player(request.user), "picker": picker_choices(), **found}
            return render(request, template, context)

        return view

    return wrap


@page("frontend/home.html")
def home(request: HttpRequest) -> dict[str, Any]:
    return {"page": "home"}


@page("frontend/play.html")
def play(request: HttpRequest, session_id: str) -> dict[str, Any]:
    # Another player's game is missing, as in the API.
    if not _is_own_session(signed_in_player(request.user), session_id):
        raise Missing(gettext("There is no such game"), gettext("This game does not exist, or it is not yours."))
    return {"page": "play", "session_id": str(session_id)}


def _is_own_session(player: Player | None, session_id: str) -> bool:
    if player is None:
        return False
    try:
        session_for(player=player, session_id=session_id)
    except ServiceError:
        return False
    return True


@page("frontend/leaderboards.html")
def leaderboards(request: HttpRequest) -> dict[str, Any]:
    return {"page": "leaderboards"}


@page("frontend/archive.html")
def archive(request: HttpRequest) -> dict[str, Any]:
    return {"page": "archive"}


@page("frontend/all_time.html")
def all_time(request: HttpRequest, variant: str) -> dict[str, Any]:
    try:
        chosen = parse_variant(variant)
    except InvalidCode as error:
        raise Missing(gettext("There is no such leaderboard"), of_error(error)) from None
    return {"page": "all-time", "variant": chosen}


@page("frontend/leaderboard.html")
def leaderboard(request: HttpRequest, board: str) -> dict[str, Any]:
    try:
        parse_board(board)
    except ServiceError as error:
        raise Missing(gettext("There is no such leaderboard"), error.message) from None
    return {"page": "leaderboard", "board": board}


@page("frontend/player.html")
def player_page(request: HttpRequest, name: str) -> dict[str, Any]:
    if named_player(name) is None:
        raise Missing(
            gettext("There is no such player"), gettext("No player is called %(name)s.") % {"name": repr(name)}
        )
    return {"page": "player", "name": name}


@page("frontend/replay.html")
def replay(request: HttpRequest, result_id: str) -> dict[str, Any]:
    if not (result_id.isascii() and result_id.isdigit() and len(result_id) < 19) or not (
        Result.objects.filter(pk=int(result_id)).exists()
    ):
        raise Missing(gettext("There is no such replay"), gettext("No such result."))
    return {"page": "replay", "source": f"/api/results/{result_id}/replay"}


@page("frontend/replay.html")
def par_replay(request: HttpRequest, board: str) -> dict[str, Any]:
    """A daily's par line, in the same viewer as a player's game; the API says when it is not open yet."""
    try:
        the_board = parse_board(board)
    except ServiceError as error:
        raise Missing(gettext("There is no such replay"), error.message) from None
    if the_board.date is None:
        raise Missing(gettext("There is no such replay"), gettext("Only a daily's board has a par."))
    return {"page": "replay", "source": f"/api/leaderboards/{quote(the_board.id, safe=':')}/par/replay"}


@page("frontend/rooms.html")
def rooms(request: HttpRequest) -> dict[str, Any]:
    # A player's page links here to challenge them: the name is only put in the form.
    return {"page": "rooms", "challenge_name": request.GET.get("challenge", "")[:100]}


@page("frontend/room.html")
def room(request: HttpRequest, room_id: str) -> dict[str, Any]:
    try:
        room_for(room_id)
    except ServiceError:
        raise Missing(gettext("There is no such race room"), gettext("No such race room.")) from None
    return {"page": "room", "room_id": room_id}


@page("frontend/ratings.html")
def ratings(request: HttpRequest, game: str = "SP") -> dict[str, Any]:
    if game not in GAMES:
        raise Missing(gettext("There is no such rating board"), gettext("Ratings are kept for SP, SD and RU."))
    return {"page": "ratings", "game": game, "games": GAMES, "provisional_races": PROVISIONAL_RACES}


@page("frontend/race_review.html")
def race_review(request: HttpRequest, room_id: str) -> dict[str, Any]:
    try:
        room_for(room_id)
    except ServiceError:
        raise Missing(gettext("There is no such race room"), gettext("No such race room.")) from None
    return {"page": "race-review", "room_id": room_id}


@page("frontend/replay.html")
def race_line(request: HttpRequest, room_id: str) -> dict[str, Any]:
    """The solver's line for a finished race's deal, in the replay viewer; the API says when it is not there."""
    try:
        room = room_for(room_id)
    except ServiceError:
        raise Missing(gettext("There is no such replay"), gettext("No such race room.")) from None
    return {"page": "replay", "source": f"/api/rooms/{room.pk}/review/line"}


@page("frontend/fair_play.html")
def fair_play(request: HttpRequest) -> dict[str, Any]:
    return {"page": "fair-play", "contact": settings.FAIR_PLAY_CONTACT}


@page("frontend/account.html")
def signup(request: HttpRequest) -> dict[str, Any]:
    return {"page": "signup", "mode": "signup", "next": _safe_next(request)}


@page("frontend/account.html")
def signin(request: HttpRequest) -> dict[str, Any]:
    return {"page": "signin", "mode": "signin", "next": _safe_next(request)}


def rules(request: HttpRequest, game: str) -> HttpResponse:
    if game not in RULE_PAGES:
        raise Http404("No rules page for that game")
    return _rules_page(request, game=game)


@page("frontend/rules.html")
def _rules_page(request: HttpRequest, game: str) -> dict[str, Any]:
    return {"page": "rules", "game": game, "rules_template": RULE_PAGES[game]}


def _safe_next(request: HttpRequest) -> str:
    """Where to go after signing in: a path on this site, else the home page. A browser reads
    `/\\evil.example` as `//evil.example` and drops tabs and newlines anywhere in an address, so a
    backslash or a control character refuses the target outright before Django's check."""
    target = request.GET.get("next", "/")
    if not target.startswith("/") or any(char == "\\" or unicodedata.category(char)[0] in "CZ" for char in target):
        return "/"
    on_this_site = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if on_this_site else "/"
