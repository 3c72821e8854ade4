from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie

from frontend.guest import ensure_player


@ensure_csrf_cookie
def home(request: HttpRequest) -> HttpResponse:
    player = ensure_player(request)
    return render(request, "frontend/home.html", {"player": player})
