from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from leaderboard.models import BoardEntry, Player, PlayerStats, Result, Room, RoomMember


@admin.register(Player)
class PlayerAdmin(UserAdmin):
    list_display = ("username", "is_guest", "is_staff", "date_joined")
    list_filter = ("is_guest", "is_staff")
    fieldsets = (*UserAdmin.fieldsets, ("League", {"fields": ("is_guest",)}))


@admin.register(Result)
class ResultAdmin(admin.ModelAdmin):
    list_display = ("id", "player", "deal", "board", "score", "moves", "won", "elapsed_ms", "verified_at")
    list_filter = ("won", "source")
    search_fields = ("player__username", "deal__code", "board")
    raw_id_fields = ("player", "deal", "daily", "session")


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


class RoomMemberInline(admin.TabularInline):
    model = RoomMember
    extra = 0
    raw_id_fields = ("player", "session")


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = ("id", "host", "variant", "hidden", "state", "created_at", "started_at", "ended_at")
    list_filter = ("state", "variant")
    search_fields = ("host__username", "code")
    raw_id_fields = ("host",)
    inlines = [RoomMemberInline]
