"""Rated races: each player's rating per game, and the history of its changes, one row a rated race.

Made from the rooms the referee runs (games.models.Room); the referee knows nothing of ratings."""

from __future__ import annotations

from django.db import models

from games.models import Player, Room


class Rating(models.Model):
    """A player's current rating in one game ("SP", "SD", "RU"): the Plackett-Luce model's mean and
    its uncertainty (races.ratings)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="race_ratings")
    game = models.CharField(max_length=2)
    mu = models.FloatField()
    sigma = models.FloatField()
    races = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "game"], name="rating_once_per_game")]
        indexes = [models.Index(fields=["game", "-mu"], name="rating_board")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.game} {self.mu:.1f}±{self.sigma:.1f}"


class RatingChange(models.Model):
    """What one rated race did to one racer's rating: the points of the history chart."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.CharField(max_length=2)
    place = models.PositiveSmallIntegerField()  # 1 is first
    racers = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["room", "player"], name="rated_once_per_race")]
        indexes = [models.Index(fields=["player", "game", "at"], name="rating_history")]

    def __str__(self) -> str:
        return f"{self.room_id} {self.player_id} {self.place}/{self.racers}"
