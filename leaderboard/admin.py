from django.contrib import admin

from leaderboard.models import BoardEntry, PlayerStats


@admin.register(BoardEntry)
class BoardEntryAdmin(admin.ModelAdmin):
    """Read-only: entries follow verified results; `manage.py rebuild_ranks` re-syncs Redis."""

    list_display = ("board", "player", "progress", "score", "moves", "elapsed_ms", "finished_at", "result")
    search_fields = ("board", "player__username")
    ordering = ("board", "sort_key")
    raw_id_fields = ("player", "result")

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False


@admin.register(PlayerStats)
class PlayerStatsAdmin(admin.ModelAdmin):
    list_display = ("player", "variant", "games", "wins", "best_score", "daily_streak", "best_daily_streak")
    list_filter = ("variant",)
    search_fields = ("player__username",)
    raw_id_fields = ("player",)
