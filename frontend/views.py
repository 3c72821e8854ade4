"""The pages of the browser client. Each page is a shell the ES modules fill from the API.

Every page makes sure the browser has a player (a guest on the first visit) and a
CSRF cookie, so the modules can call the API at once.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie

from frontend.guest import ensure_player
from frontend.variants import GAMES, RULE_PAGES

View = Callable[..., HttpResponse]


def page(template: str) -> Callable[[Callable[..., dict[str, Any]]], View]:
    """A page view: ensure a player and the CSRF cookie, render ``template`` with the context."""

    def wrap(context_of: Callable[..., dict[str, Any]]) -> View:
        @wraps(context_of)
        @ensure_csrf_cookie
        def view(request: HttpRequest, **kwargs: Any) -> HttpResponse:
            player = ensure_player(request)
            context = {"player": player, "games": GAMES, **context_of(request, **kwargs)}
            return render(request, template, context)

        return view

    return wrap


@page("frontend/home.html")
def home(request: HttpRequest) -> dict[str, Any]:
    return {"page": "home"}


@page("frontend/play.html")
def play(request: HttpRequest, session_id: str) -> dict[str, Any]:
    return {"page": "play", "session_id": str(session_id)}


@page("frontend/leaderboards.html")
def leaderboards(request: HttpRequest) -> dict[str, Any]:
    return {"page": "leaderboards"}


@page("frontend/leaderboard.html")
def leaderboard(request: HttpRequest, board: str) -> dict[str, Any]:
    return {"page": "leaderboard", "board": board}


@page("frontend/player.html")
def player_page(request: HttpRequest, name: str) -> dict[str, Any]:
    return {"page": "player", "name": name}


@page("frontend/replay.html")
def replay(request: HttpRequest, result_id: str) -> dict[str, Any]:
    return {"page": "replay", "result_id": result_id}


@page("frontend/rooms.html")
def rooms(request: HttpRequest) -> dict[str, Any]:
    return {"page": "rooms"}


@page("frontend/room.html")
def room(request: HttpRequest, room_id: str) -> dict[str, Any]:
    return {"page": "room", "room_id": room_id}


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
    target = request.GET.get("next", "/")
    # Only paths on this site: never an absolute or scheme-relative address.
    return target if target.startswith("/") and not target.startswith("//") else "/"
