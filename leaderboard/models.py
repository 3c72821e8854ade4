"""Players and their verified results."""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower

# Guests get a name no player can choose (player names never contain "~").
GUEST_PREFIX = "~guest-"


class Player(AbstractUser):
    username = models.CharField("name", max_length=40, unique=True)
    is_guest = models.BooleanField(default=False)

    class Meta:
        constraints = [models.UniqueConstraint(Lower("username"), name="player_name_unique_ci")]

    @property
    def display_name(self) -> str:
        return "Guest" if self.is_guest else self.username

    def __str__(self) -> str:
        return self.display_name if not self.is_guest else f"{self.username}"


class Result(models.Model):
    """A verified outcome: the replay of a complete move log from its deal."""

    class Source(models.TextChoices):
        SESSION = "session", "refereed session"
        SUBMISSION = "submission", "batch submission"

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="results")
    deal = models.ForeignKey("games.Deal", on_delete=models.PROTECT, related_name="results")
    daily = models.ForeignKey(
        "games.Daily", null=True, blank=True, on_delete=models.PROTECT, related_name="results"
    )
    session = models.OneToOneField(
        "games.GameSession", null=True, blank=True, on_delete=models.SET_NULL, related_name="result"
    )
    source = models.CharField(max_length=16, choices=Source.choices)
    # The board this result ranks on: "code:<code>", "daily:<date>:<variant>", or null (unranked).
    board = models.CharField(max_length=64, null=True, blank=True)
    score = models.IntegerField()
    moves = models.PositiveIntegerField()
    won = models.BooleanField()
    sequences = models.PositiveSmallIntegerField(null=True, blank=True)  # Spider family
    cards_home = models.PositiveSmallIntegerField(null=True, blank=True)  # Russian Solitaire
    elapsed_ms = models.PositiveBigIntegerField(null=True, blank=True)  # measured by the server
    actions = models.PositiveIntegerField()  # tokens in the verified log
    log = models.TextField(blank=True)  # the verified tokens, canonical, space-separated
    finished_at = models.DateTimeField()
    verified_at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["player", "-finished_at"], name="result_player_recent"),
            models.Index(fields=["board"], name="result_board"),
            models.Index(fields=["deal"], name="result_deal"),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.deal_id} {self.score}"
