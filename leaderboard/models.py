"""The boards and statistics made of the referee's verified results (games.models)."""

from __future__ import annotations

from django.db import models

from games.models import Player, Result


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
    # ... and folded into one string that sorts best first (games.ranking.keys).
    sort_key = models.CharField(max_length=80)
    updated_at = models.DateTimeField(auto_now=True)
    # The board's BoardVersion.version of this entry's last change: an index that reflects
    # version v catches up with the entries whose version is above v (leaderboard.ranking.standings.sync_index).
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

    # No index of its own: stats_once_per_variant (player, variant) serves every lookup by player.
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="stats", db_index=False)
    variant = models.CharField(max_length=16)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    clean_wins = models.PositiveIntegerField(default=0, db_default=0)  # clean wins: no undo, no hint
    # The wins' moves and times added up, for their averages (a submission's win has no time).
    win_moves = models.PositiveBigIntegerField(default=0, db_default=0)
    timed_wins = models.PositiveIntegerField(default=0, db_default=0)
    win_ms = models.PositiveBigIntegerField(default=0, db_default=0)
    # Wins in a row, in the order the results were counted: the run now, and the longest.
    win_streak = models.PositiveIntegerField(default=0, db_default=0)
    best_win_streak = models.PositiveIntegerField(default=0, db_default=0)
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
