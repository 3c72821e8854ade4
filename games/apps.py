from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Players and games"

    def ready(self) -> None:
        from games.players import token_auth

        token_auth.connect_signals()  # a revoked token leaves the token cache in every process
