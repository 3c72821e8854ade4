from django.apps import AppConfig


class LeaderboardConfig(AppConfig):
    name = "leaderboard"
    verbose_name = "Leaderboards"

    def ready(self) -> None:
        from asgiref.sync import async_to_sync

        from games.ranking import rank_lookup
        from games.results import announcements
        from leaderboard import selectors, services

        # The referee announces each verified result and asks for ranks; it knows nothing of who answers.
        announcements.subscribe(services.on_verified)
        rank_lookup.provide(
            lambda board, player_id: async_to_sync(selectors.entry_of)(board=board, player_id=player_id)
        )
