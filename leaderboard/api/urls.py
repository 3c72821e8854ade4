from django.urls import path

from leaderboard.api import boards, league, par, player_pages, recap, replays

urlpatterns = [
    path("daily/recap", recap.DailyRecapView.as_view(), name="daily-recap"),
    path("leaderboards/archive", league.DailyArchiveView.as_view(), name="daily-archive"),
    path("leaderboards/all-time/<str:variant>", league.AllTimeView.as_view(), name="all-time-board"),
    path("leaderboards/<str:board>/par", par.ParView.as_view(), name="daily-par"),
    path("leaderboards/<str:board>/par/replay", par.ParReplayView.as_view(), name="daily-par-replay"),
    path("leaderboards/<str:board>", boards.LeaderboardView.as_view(), name="leaderboard"),
    path("players/<str:name>", player_pages.PlayerPageView.as_view(), name="player-page"),
    path("results/<str:result_id>/replay", replays.ReplayView.as_view(), name="result-replay"),
]
