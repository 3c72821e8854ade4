from django.urls import path

from leaderboard.api import auth, boards, league, par, player_pages, recap, replays

urlpatterns = [
    path("auth/signup", auth.SignUpView.as_view(), name="signup"),
    path("auth/login", auth.LogInView.as_view(), name="login"),
    path("auth/logout", auth.LogOutView.as_view(), name="logout"),
    path("auth/me", auth.MeView.as_view(), name="me"),
    path("auth/tokens", auth.TokensView.as_view(), name="tokens"),
    path("auth/tokens/<str:token_id>", auth.TokenView.as_view(), name="token"),
    path("daily/recap", recap.DailyRecapView.as_view(), name="daily-recap"),
    path("leaderboards/archive", league.DailyArchiveView.as_view(), name="daily-archive"),
    path("leaderboards/all-time/<str:variant>", league.AllTimeView.as_view(), name="all-time-board"),
    path("leaderboards/<str:board>/par", par.ParView.as_view(), name="daily-par"),
    path("leaderboards/<str:board>/par/replay", par.ParReplayView.as_view(), name="daily-par-replay"),
    path("leaderboards/<str:board>", boards.LeaderboardView.as_view(), name="leaderboard"),
    path("players/<str:name>", player_pages.PlayerPageView.as_view(), name="player-page"),
    path("results/<str:result_id>/replay", replays.ReplayView.as_view(), name="result-replay"),
]
