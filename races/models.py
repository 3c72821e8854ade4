"""Rated races: each player's rating per game, and the history of its changes, one row a rated race.

Made from the rooms the referee runs (games.models.Room); the referee knows nothing of ratings."""

from __future__ import annotations

import uuid

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


class RacerOrigin(models.Model):
    """Where a racer came into a room from, for the linked-accounts check (races.ratings): keyed
    hashes of the device cookie and of the address, as the dailies keep (games.dailies.fair_play)."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="racer_origins")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="racer_origins")
    device = models.CharField(max_length=64, blank=True, default="")
    address = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["room", "player"], name="racer_origin_once")]

    def __str__(self) -> str:
        return f"{self.room_id} {self.player_id}"


class RaceVerdict(models.Model):
    """Whether a finished race was rated, decided once (races.ratings), and if not, why."""

    class Reason(models.TextChoices):
        RATED = "rated"
        CALLED_OFF = "called_off"  # the host ended it while a racer still played
        KNOWN_CODE = "known_code"  # a chosen code, which anyone may have practised
        TOO_FEW = "too_few"  # fewer than two racers with a name
        LINKED = "linked"  # two racers share a device or an address

    room = models.OneToOneField(Room, primary_key=True, on_delete=models.CASCADE, related_name="race_verdict")
    reason = models.CharField(max_length=16, choices=Reason.choices)
    decided_at = models.DateTimeField()

    @property
    def rated(self) -> bool:
        return self.reason == self.Reason.RATED

    def __str__(self) -> str:
        return f"{self.room_id} {self.reason}"


class DealReview(models.Model):
    """The solver's winning line for a finished race's deal, recorded pending as the race ends and
    searched once by the closer (races.review)."""

    class Status(models.TextChoices):
        PENDING = "pending"
        WON = "won"
        UNWINNABLE = "unwinnable"
        UNKNOWN = "unknown"  # no win found within the budget

    room = models.OneToOneField(Room, primary_key=True, on_delete=models.CASCADE, related_name="deal_review")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    line = models.TextField(blank=True, default="")  # the solver's tokens, space-separated
    par = models.PositiveIntegerField(null=True, blank=True)
    seconds = models.FloatField(default=0)
    created_at = models.DateTimeField()
    solved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [  # the closer's queue: the pending ones, oldest first (races.review.solve_pending)
            models.Index(fields=["created_at"], condition=models.Q(status="pending"), name="races_review_pending"),
        ]

    def __str__(self) -> str:
        return f"{self.room_id} {self.status}"


class Rematch(models.Model):
    """A finished race's rematch: a new room on a fresh deal of its variant (races.rematch)."""

    race = models.OneToOneField(Room, primary_key=True, on_delete=models.CASCADE, related_name="rematch")
    room = models.OneToOneField(Room, on_delete=models.CASCADE, related_name="rematch_of")
    created_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.race_id} -> {self.room_id}"


class QueueEntry(models.Model):
    """A player waiting for a quick rated race of one variant (races.matching), then, once placed,
    the room they were placed in, until they ask for another race. One a player: a second queue is
    refused by the database itself, whichever worker is asked."""

    player = models.OneToOneField(Player, primary_key=True, on_delete=models.CASCADE, related_name="queue_entry")
    game = models.CharField(max_length=2)
    variant = models.CharField(max_length=16)
    mu = models.FloatField()  # the rating when the player asked: races are formed by it
    joined_at = models.DateTimeField()
    seen_at = models.DateTimeField()  # the player's last ask: one gone quiet is not placed
    room = models.ForeignKey(Room, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    # Where the player asked from (keyed hashes, games.dailies.fair_play), kept as their RacerOrigin once placed.
    device = models.CharField(max_length=64, blank=True, default="")
    address = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        indexes = [models.Index(fields=["variant", "room", "mu"], name="queue_waiting")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.variant} {self.mu:.1f}"


class Challenge(models.Model):
    """One player's invitation of another to a rated race on a fresh hidden deal (races.challenges)."""

    class State(models.TextChoices):
        PENDING = "pending"
        ACCEPTED = "accepted"
        DECLINED = "declined"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    challenger = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="challenges_sent")
    invitee = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="challenges_received")
    variant = models.CharField(max_length=16)
    state = models.CharField(max_length=8, choices=State.choices, default=State.PENDING)
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)
    room = models.ForeignKey(Room, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # Where the challenger sent it from (keyed hashes, games.dailies.fair_play), their RacerOrigin once accepted.
    device = models.CharField(max_length=64, blank=True, default="")
    address = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        indexes = [models.Index(fields=["invitee", "state", "expires_at"], name="challenges_open")]

    def __str__(self) -> str:
        return f"{self.challenger_id} → {self.invitee_id} {self.variant} {self.state}"


class MatchedRace(models.Model):
    """A room made by a quick match or an accepted challenge: a rated race by how it was made."""

    class How(models.TextChoices):
        QUICK = "quick"
        CHALLENGE = "challenge"

    room = models.OneToOneField(Room, primary_key=True, on_delete=models.CASCADE, related_name="matched")
    how = models.CharField(max_length=9, choices=How.choices)

    def __str__(self) -> str:
        return f"{self.room_id} {self.how}"
