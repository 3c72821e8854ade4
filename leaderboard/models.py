"""Players, their verified results, the boards and statistics made of them, race rooms."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower

from leaderboard.names import name_key

# Guests get a name no player can choose (player names never contain "~").
GUEST_PREFIX = "~guest-"


class Player(AbstractUser):
    username = models.CharField("name", max_length=40, unique=True)
    is_guest = models.BooleanField(default=False)
    # The name's look-alike key (leaderboard/names.py): unique, so no two names look alike. A guest
    # has none (a guest is shown as "Guest"); so has a look-alike older than the key (migration 0009).
    name_key = models.CharField(max_length=80, null=True, blank=True, unique=True, editable=False)

    class Meta:
        constraints = [models.UniqueConstraint(Lower("username"), name="player_name_unique_ci")]

    @classmethod
    def from_db(cls, db: str | None, field_names: Any, values: Any) -> Player:
        player = super().from_db(db, field_names, values)
        player._loaded_username = player.__dict__.get("username")
        return player

    def save(self, *args: Any, **kwargs: Any) -> None:
        """A new or renamed player gets the key of the new name (or none, as a guest)."""
        update_fields = kwargs.get("update_fields")
        renamed = self._state.adding or self.username != getattr(self, "_loaded_username", None)
        if renamed and (update_fields is None or "username" in update_fields):
            self.name_key = None if self.is_guest else name_key(self.username)
            if update_fields is not None:
                kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)
        self._loaded_username = self.username

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
    daily = models.ForeignKey("games.Daily", null=True, blank=True, on_delete=models.PROTECT, related_name="results")
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
    # U tokens in the verified log: an undo is a free look (docs/ranking.md), so only a result
    # without one ranks on a board's clean twin.
    undos = models.PositiveIntegerField(default=0, db_default=0)
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


class BoardEntry(models.Model):
    """A player's best verified result on a board (or its clean twin, `<board>:clean`): the truth the
    Redis rank index is rebuilt from."""

    board = models.CharField(max_length=64)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="board_entries")
    # A result without an undo is the entry of its board and of the board's clean twin.
    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="board_entries")
    # The ranking keys (docs/ranking.md), copied from the result ...
    progress = models.PositiveSmallIntegerField()  # sequences removed or cards home
    score = models.IntegerField()
    moves = models.PositiveIntegerField()
    elapsed_ms = models.PositiveBigIntegerField(null=True, blank=True)
    finished_at = models.DateTimeField()
    won = models.BooleanField()
    undos = models.PositiveIntegerField(default=0, db_default=0)  # shown, not ranked by
    # ... and folded into one string that sorts best first (leaderboard.ranking).
    sort_key = models.CharField(max_length=80)
    updated_at = models.DateTimeField(auto_now=True)
    # The board's BoardVersion.version of this entry's last change: an index that reflects
    # version v catches up with the entries whose version is above v (leaderboard.standings.sync_index).
    version = models.BigIntegerField(default=0, db_default=0)

    class Meta:
        verbose_name_plural = "board entries"
        constraints = [
            models.UniqueConstraint(fields=["board", "player"], name="board_entry_once_per_player"),
            models.UniqueConstraint(fields=["board", "sort_key"], name="board_entry_order"),
        ]
        indexes = [models.Index(fields=["board", "version"], name="board_entry_changes")]

    def __str__(self) -> str:
        return f"{self.board} {self.player_id}"


class BoardVersion(models.Model):
    """How many times a board's entries changed: bumped in the transaction of each change.

    The Redis index stores the version it reflects, so any process can tell that it missed
    a change (Redis was away, a worker died after its commit) with one comparison.
    """

    board = models.CharField(max_length=64, primary_key=True)
    version = models.BigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.board} v{self.version}"


class PlayerStats(models.Model):
    """All-time statistics of a player in one variant, kept up to date as results arrive."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="stats")
    variant = models.CharField(max_length=16)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    clean_wins = models.PositiveIntegerField(default=0, db_default=0)  # wins without an undo
    # Spider and Spiderette: the best score. Russian Solitaire's score can be inflated by take-backs,
    # so its best is the most cards home, then the fewest moves (leaderboard.stats).
    best_score = models.IntegerField(null=True, blank=True)
    best_cards_home = models.PositiveSmallIntegerField(null=True, blank=True)
    best_moves = models.PositiveIntegerField(null=True, blank=True)
    # Consecutive UTC days with a finished ranked daily, ending on `last_daily`.
    daily_streak = models.PositiveIntegerField(default=0)
    best_daily_streak = models.PositiveIntegerField(default=0)
    last_daily = models.DateField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "player statistics"
        constraints = [models.UniqueConstraint(fields=["player", "variant"], name="stats_once_per_variant")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.variant}"


class Room(models.Model):
    """A race: everyone plays the same deal as refereed sessions, progress pushed live."""

    class State(models.TextChoices):
        LOBBY = "lobby"
        RACING = "racing"
        FINISHED = "finished"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    host = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="hosted_rooms")
    variant = models.CharField(max_length=16)
    code = models.CharField(max_length=32, db_index=True)  # a long code has 28 characters; looked up by
    # games.secret_codes, which refuses a hidden race's code for play elsewhere until the race ends
    # A fresh random deal stays secret until the race ends; a chosen code was never secret.
    hidden = models.BooleanField(default=False)
    state = models.CharField(max_length=8, choices=State.choices, default=State.LOBBY)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"room {self.id} ({self.state})"


class RoomMember(models.Model):
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="room_memberships")
    session = models.OneToOneField(
        "games.GameSession", null=True, blank=True, on_delete=models.SET_NULL, related_name="room_member"
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["room", "player"], name="room_member_once")]
        ordering = ["joined_at", "id"]

    def __str__(self) -> str:
        return f"{self.room_id} {self.player_id}"
