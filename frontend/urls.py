from django.templatetags.static import static
from django.urls import path
from django.views.generic import RedirectView
from django.views.i18n import JavaScriptCatalog

from frontend import views

urlpatterns = [
    path("", views.home, name="home"),
    path("play/<uuid:session_id>/", views.play, name="play"),
    path("leaderboards/", views.leaderboards, name="leaderboards"),
    path("leaderboards/archive/", views.archive, name="archive"),
    path("leaderboards/all-time/<str:variant>/", views.all_time, name="all-time"),
    path("leaderboards/<str:board>/", views.leaderboard, name="leaderboard"),
    path("players/<str:name>/", views.player_page, name="player"),
    path("replay/<str:result_id>/", views.replay, name="replay"),
    path("replay/par/<str:board>/", views.par_replay, name="par-replay"),
    path("rooms/", views.rooms, name="rooms"),
    path("rooms/<str:room_id>/", views.room, name="room"),
    path("rooms/<str:room_id>/review/", views.race_review, name="race-review"),
    path("replay/race/<str:room_id>/", views.race_line, name="race-line"),
    path("ratings/", views.ratings, name="ratings"),
    path("ratings/<str:game>/", views.ratings, name="ratings-game"),
    path("account/signup/", views.signup, name="signup"),
    path("account/signin/", views.signin, name="signin"),
    path("rules/<slug:game>/", views.rules, name="rules"),
    path("fair-play/", views.fair_play, name="fair-play"),
    # The interface's strings for the ES modules, in the page's language.
    # Browsers and feed readers ask for /favicon.ico whatever the page links.
    path("favicon.ico", RedirectView.as_view(url=static("frontend/favicon.svg"), permanent=True)),
    path("jsi18n/", JavaScriptCatalog.as_view(domain="djangojs"), name="jsi18n"),
]
