from django.apps import AppConfig


class RacesConfig(AppConfig):
    name = "races"
    verbose_name = "Rated races"

    def ready(self) -> None:
        from games.dailies import round_tasks
        from games.rooms import race_events
        from races import ratings, rematch, review

        # The referee announces races and builds the room's document; it knows nothing of ratings.
        race_events.subscribe(ratings.on_race_event)
        race_events.subscribe(review.on_race_event)
        race_events.describe(ratings.describe)
        race_events.describe(rematch.describe)
        # A race's review searches its deal for up to 30 s: the closer does it, never a web worker.
        round_tasks.register(review.solve_pending)
