"""Players, deals, daily challenges, refereed game sessions with their move logs, verified results,
submissions, race rooms.

Player, Result, Room and RoomMember keep the tables they had in the leaderboard app (Meta.db_table):
the referee owns them now, and the leaderboard reads them (docs/decisions.md).
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models import Exists, OuterRef, Q, Subquery
from django.db.models.functions import Lower

from games.players.names import name_key
from games.ranking.boards import daily_board_id

# Guests get a name no player can choose (player names never contain "~").
GUEST_PREFIX = "~guest-"


class Player(AbstractUser):
    username = models.CharField("name", max_length=40, unique=True)
    is_guest = models.BooleanField(default=False)
    # The name's look-alike key (games/players/names.py): unique, so no two names look alike. A guest
    # has none (a guest is shown as "Guest"); so has a look-alike older than the key (migration 0011).
    name_key = models.CharField(max_length=80, null=True, blank=True, unique=True, editable=False)
    # Not a field: the username as loaded, to tell a rename (set by from_db and save only).
    _loaded_username: str | None

    class Meta:
        db_table = "leaderboard_player"
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


class StoredCode(models.Model):
    """A game code ever played or handed out; boards per code hang off it."""

    code = models.CharField(max_length=32, unique=True)  # a long code has 28 characters
    game = models.CharField(max_length=2)  # SP, SD, RU
    variant = models.CharField(max_length=16)  # the code without its deal letters
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.code


class Daily(models.Model):
    """One deal per UTC date and daily variant (docs/dailies.md)."""

    date = models.DateField()
    variant = models.CharField(max_length=16)
    stored_code = models.ForeignKey(StoredCode, on_delete=models.PROTECT, related_name="dailies")
    created_at = models.DateTimeField(auto_now_add=True)
    # Won by the solver within its budget before anyone got it (docs/dailies.md); public at once.
    certified = models.BooleanField(default=False, db_default=False)
    # The candidate k it is (null: stored before candidates were tried), the move count of the
    # solver's winning line and its tokens: secret, like the code, until the daily is published.
    candidate = models.PositiveSmallIntegerField(null=True, blank=True)
    par = models.PositiveIntegerField(null=True, blank=True)
    par_line = models.TextField(blank=True, default="", db_default="")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["date", "variant"], name="daily_once_per_date")]
        verbose_name_plural = "dailies"

    @property
    def board(self) -> str:
        return daily_board_id(self.date, self.variant)

    @property
    def closes_at(self) -> dt.datetime:
        """Ranked attempts can start until 24:00 UTC of the day."""
        return dt.datetime.combine(self.date + dt.timedelta(days=1), dt.time(0), tzinfo=dt.UTC)

    @property
    def publishes_at(self) -> dt.datetime:
        """At 01:00 UTC the next day open attempts end and the code is published."""
        return self.closes_at + dt.timedelta(hours=1)

    def __str__(self) -> str:
        return self.board


class DailyCandidate(models.Model):
    """One candidate deal the solver tried for a daily, and its verdict (docs/dailies.md).

    Kept for every candidate, chosen or passed over, so the choice can be checked once the
    daily is published; until then it is as secret as the daily's own code.
    """

    class Verdict(models.TextChoices):
        WON = "won"
        UNWINNABLE = "unwinnable"
        UNKNOWN = "unknown"  # the budget ran out first

    date = models.DateField()
    variant = models.CharField(max_length=16)
    k = models.PositiveSmallIntegerField()
    code = models.CharField(max_length=32)
    verdict = models.CharField(max_length=16, choices=Verdict.choices)
    seconds = models.FloatField()
    nodes = models.PositiveBigIntegerField(default=0)
    par = models.PositiveIntegerField(null=True, blank=True)
    line = models.TextField(blank=True, default="")  # the verified winning tokens, when won
    tried_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["date", "variant", "k"], name="daily_candidate_once")]
        ordering = ["date", "variant", "k"]

    def __str__(self) -> str:
        return f"{self.date.isoformat()}|{self.variant}|{self.k} {self.verdict}"


class GameSession(models.Model):
    """A refereed game: its state is a pure function of (deal, log)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sessions")
    stored_code = models.ForeignKey(StoredCode, on_delete=models.PROTECT, related_name="sessions")
    daily = models.ForeignKey(Daily, null=True, blank=True, on_delete=models.PROTECT, related_name="sessions")
    ranked = models.BooleanField(default=False)
    board = models.CharField(max_length=64, null=True, blank=True)
    # A race room on a fresh deal keeps its code secret until the race ends.
    code_secret = models.BooleanField(default=False)
    # Played in a race room: only these sessions' progress is pushed to a room.
    in_room = models.BooleanField(default=False)
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    # Denormalised from the log so lists and rooms need no replay.
    action_count = models.PositiveIntegerField(default=0)
    score = models.IntegerField(default=0)
    moves = models.PositiveIntegerField(default=0)
    progress = models.PositiveSmallIntegerField(default=0)  # sequences removed or cards home
    won = models.BooleanField(default=False)
    undos = models.PositiveIntegerField(default=0, db_default=0)  # U tokens in the log so far
    # Hints given (POST .../hint): like an undo, a hint makes the game's result not clean.
    hints = models.PositiveIntegerField(default=0, db_default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "daily"],
                condition=models.Q(ranked=True),
                name="one_ranked_session_per_daily",
            )
        ]
        indexes = [
            models.Index(fields=["player", "-started_at"], name="session_player_recent"),
            models.Index(fields=["daily", "finished_at"], name="session_daily_open"),
        ]

    @property
    def finished(self) -> bool:
        return self.finished_at is not None

    def __str__(self) -> str:
        return f"{self.id} {self.stored_code_id}"


class GameAction(models.Model):
    """One token of a session's move log, appended in the transaction that applied it."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()  # 1-based position in the log
    token = models.CharField(max_length=16)
    # When the server applied it: the pace of play (games.dailies.fair_play). Null: the server played it (a
    # play-out, docs/rules.md), or it was stored before times were kept.
    at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["session", "seq"], name="action_position_unique")]
        ordering = ["session", "seq"]

    def __str__(self) -> str:
        return f"{self.seq}. {self.token}"


class Result(models.Model):
    """A verified outcome: the replay of a complete move log from its deal."""

    class Source(models.TextChoices):
        SESSION = "session", "refereed session"
        SUBMISSION = "submission", "batch submission"

    # No index of its own: result_player_recent (player, -finished_at) serves every lookup by player.
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="results", db_index=False)
    stored_code = models.ForeignKey(StoredCode, on_delete=models.PROTECT, related_name="results")
    daily = models.ForeignKey(Daily, null=True, blank=True, on_delete=models.PROTECT, related_name="results")
    session = models.OneToOneField(GameSession, null=True, blank=True, on_delete=models.SET_NULL, related_name="result")
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
    # The hints its session was given (a submission has none): a hinted result is not clean either.
    hints = models.PositiveIntegerField(default=0, db_default=0)
    log = models.TextField(blank=True)  # the verified tokens, canonical, space-separated
    finished_at = models.DateTimeField()
    verified_at = models.DateTimeField()

    class Meta:
        db_table = "leaderboard_result"
        indexes = [
            models.Index(fields=["player", "-finished_at"], name="result_player_recent"),
            models.Index(fields=["board"], name="result_board"),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.stored_code_id} {self.score}"

    # Clean (docs/ranking.md): played without an undo and without a hint, so it ranks on its board's
    # clean twin and counts as a clean win. The one definition, for a result in hand and in a query.
    CLEAN = Q(undos=0, hints=0)

    @property
    def is_clean(self) -> bool:
        return self.undos == 0 and self.hints == 0


class Submission(models.Model):
    """A batch submission's answer, kept so an idempotency key replays it exactly."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="submissions")
    key = models.CharField(max_length=128)
    body_digest = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField()
    response = models.JSONField()
    result = models.ForeignKey("games.Result", null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "key"], name="submission_key_per_player")]

    def __str__(self) -> str:
        return f"{self.player_id}:{self.key}"


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
    # games.deals.secret_codes, which refuses a secret race's code for play elsewhere until the race ends
    # A fresh random deal stays secret until the race ends; a chosen code was never secret.
    code_secret = models.BooleanField(default=False)
    state = models.CharField(max_length=8, choices=State.choices, default=State.LOBBY)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "leaderboard_room"
        # The closer looks for the races still on past their time limit every round (games.rooms.rooms).
        indexes = [models.Index(fields=["started_at"], condition=Q(state="racing"), name="room_racing_since")]

    def __str__(self) -> str:
        return f"room {self.id} ({self.state})"


class RoomMember(models.Model):
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="room_memberships")
    session = models.OneToOneField(
        GameSession, null=True, blank=True, on_delete=models.SET_NULL, related_name="room_member"
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    # Still playing when the race reached its time limit: their game ended as it stood, placed last.
    ran_out_of_time = models.BooleanField(default=False, db_default=False)

    class Meta:
        db_table = "leaderboard_roommember"
        constraints = [models.UniqueConstraint(fields=["room", "player"], name="room_member_once")]
        ordering = ["joined_at", "id"]

    def __str__(self) -> str:
        return f"{self.room_id} {self.player_id}"


class AttemptOrigin(models.Model):
    """Where a daily attempt was started from, for the linked-accounts signal (games.dailies.fair_play): a
    keyed hash of the browser's device cookie and one of the client's address, never either itself."""

    session = models.OneToOneField(GameSession, primary_key=True, on_delete=models.CASCADE, related_name="origin")
    daily = models.ForeignKey(Daily, on_delete=models.CASCADE, related_name="origins")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="attempt_origins")
    device = models.CharField(max_length=64, blank=True, default="")  # "": no device cookie (a script)
    address = models.CharField(max_length=64, blank=True, default="")
    started_at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["daily", "device"], name="origin_daily_device"),
            models.Index(fields=["daily", "address"], name="origin_daily_address"),
        ]

    def __str__(self) -> str:
        return f"{self.session_id} {self.daily_id}"


class FairPlayReviews(models.QuerySet["FairPlayReview"]):
    def in_status(self, *statuses: str) -> FairPlayReviews:
        """The reviews whose state (FairPlayReview.status) is one of `statuses`, asked in SQL."""
        latest = FairPlayDecision.objects.filter(review=OuterRef("pk")).order_by("-decided_at", "-id")
        wanted = Q()
        for status in statuses:
            wanted |= {
                FairPlayReview.Status.CLEAR: Q(reasons=[]),
                FairPlayReview.Status.HELD: ~Q(reasons=[]) & Q(verdict__isnull=True),
                FairPlayReview.Status.APPROVED: Q(verdict=FairPlayDecision.Verdict.APPROVE),
                FairPlayReview.Status.VOIDED: Q(verdict=FairPlayDecision.Verdict.VOID),
            }[FairPlayReview.Status(status)]
        return self.annotate(verdict=Subquery(latest.values("verdict")[:1])).filter(wanted)


class FairPlayReview(models.Model):
    """The fair-play signals of a ranked daily result, computed when its attempt ended, and the
    reasons the screen held it (none: clear, on the boards at once). Its state follows from those
    and from its latest decision (FairPlayDecision), kept nowhere else: clear; held (off the boards
    until a member of staff decides); approved (ranked); voided (never ranked)."""

    class Status(models.TextChoices):
        CLEAR = "clear"
        HELD = "held", "under review"
        APPROVED = "approved"
        VOIDED = "voided"

    result = models.OneToOneField(Result, primary_key=True, on_delete=models.CASCADE, related_name="fair_play")
    signals = models.JSONField(default=dict)
    reasons = models.JSONField(default=list)  # the signals that held it
    created_at = models.DateTimeField(auto_now_add=True)

    objects = FairPlayReviews.as_manager()

    def __str__(self) -> str:
        return f"result {self.result_id}: {self.status}"

    @property
    def status(self) -> str:
        return self.standing()[0]

    def standing(self) -> tuple[str, FairPlayDecision | None]:
        """The review's state and the decision in force (None: none taken). Prefetch `decisions` to
        read many reviews' in one query."""
        if not self.reasons:
            return self.Status.CLEAR, None  # nothing held it, so nothing was decided: no query
        decisions = list(self.decisions.all())  # oldest first (FairPlayDecision.Meta.ordering)
        if not decisions:
            return self.Status.HELD, None
        latest = decisions[-1]
        approved = latest.verdict == FairPlayDecision.Verdict.APPROVE
        return (self.Status.APPROVED if approved else self.Status.VOIDED), latest

    @staticmethod
    def uncounted() -> Exists:
        """For a query of results: whether fair play holds the result or voided it, so that nothing
        (board, streak, statistic) counts it."""
        held = FairPlayReview.objects.in_status(FairPlayReview.Status.HELD, FairPlayReview.Status.VOIDED)
        return Exists(held.filter(result=OuterRef("pk")))


class FairPlayDecision(models.Model):
    """Every staff decision on a result fair play held, in the order taken: who, when, what and why.
    The latest is in force; a later one may undo it (a void after an approval, an approval on appeal)."""

    class Verdict(models.TextChoices):
        APPROVE = "approve"
        VOID = "void"

    review = models.ForeignKey(FairPlayReview, on_delete=models.CASCADE, related_name="decisions")
    verdict = models.CharField(max_length=8, choices=Verdict.choices)
    reason = models.TextField(blank=True, default="")
    staff = models.ForeignKey(Player, null=True, on_delete=models.SET_NULL, related_name="fair_play_decisions")
    decided_at = models.DateTimeField()

    class Meta:
        ordering = ["decided_at", "id"]

    def __str__(self) -> str:
        return f"{self.review_id} {self.verdict} by {self.staff_id}"
