from django.apps import AppConfig


class LeaderboardConfig(AppConfig):
    name = "leaderboard"
    verbose_name = "Players and leaderboards"

    def ready(self) -> None:
        from leaderboard import token_auth

        token_auth.connect_signals()  # a revoked token leaves the token cache in every process
