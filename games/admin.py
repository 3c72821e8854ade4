from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from games.models import (
    Daily,
    DailyCandidate,
    GameAction,
    GameSession,
    Player,
    Result,
    Room,
    RoomMember,
    StoredCode,
    Submission,
)


@admin.register(Player)
class PlayerAdmin(UserAdmin):
    list_display = ("username", "is_guest", "is_staff", "date_joined")
    list_filter = ("is_guest", "is_staff")
    # UserAdmin sets its fieldsets; the stubs type them Optional as for any ModelAdmin.
    fieldsets = (*(UserAdmin.fieldsets or ()), ("League", {"fields": ("is_guest",)}))


@admin.register(Result)
class ResultAdmin(admin.ModelAdmin):
    list_display = ("id", "player", "stored_code", "board", "score", "moves", "won", "elapsed_ms", "verified_at")
    list_filter = ("won", "source")
    search_fields = ("player__username", "stored_code__code", "board")
    raw_id_fields = ("player", "stored_code", "daily", "session")


@admin.register(StoredCode)
class DealAdmin(admin.ModelAdmin):
    list_display = ("code", "game", "variant", "created_at")
    search_fields = ("code",)
    list_filter = ("game", "variant")


@admin.register(Daily)
class DailyAdmin(admin.ModelAdmin):
    list_display = ("date", "variant", "stored_code", "certified", "candidate", "par")
    list_filter = ("variant", "certified")
    date_hierarchy = "date"
    raw_id_fields = ("stored_code",)


@admin.register(DailyCandidate)
class DailyCandidateAdmin(admin.ModelAdmin):
    """The solver's verdicts: a record of how each daily was chosen, never edited by hand."""

    list_display = ("date", "variant", "k", "verdict", "seconds", "par")
    list_filter = ("variant", "verdict")
    date_hierarchy = "date"

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False

    def has_add_permission(self, request: object) -> bool:
        return False


class GameActionInline(admin.TabularInline):
    model = GameAction
    extra = 0
    can_delete = False
    readonly_fields = ("seq", "token")


@admin.register(GameSession)
class GameSessionAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "player",
        "stored_code",
        "ranked",
        "board",
        "action_count",
        "score",
        "won",
        "started_at",
        "finished_at",
    )
    list_filter = ("ranked", "won")
    search_fields = ("player__username", "stored_code__code")
    raw_id_fields = ("player", "stored_code", "daily")
    inlines = [GameActionInline]


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    list_display = ("player", "key", "status", "created_at")
    raw_id_fields = ("player", "result")


class RoomMemberInline(admin.TabularInline):
    model = RoomMember
    extra = 0
    raw_id_fields = ("player", "session")


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = ("id", "host", "variant", "code_secret", "state", "created_at", "started_at", "ended_at")
    list_filter = ("state", "variant")
    search_fields = ("host__username", "code")
    raw_id_fields = ("host",)
    inlines = [RoomMemberInline]
