from django.contrib import admin

from games.models import Daily, Deal, GameAction, GameSession, Submission


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ("code", "game", "variant", "created_at")
    search_fields = ("code",)
    list_filter = ("game", "variant")


@admin.register(Daily)
class DailyAdmin(admin.ModelAdmin):
    list_display = ("date", "variant", "deal")
    list_filter = ("variant",)
    date_hierarchy = "date"
    raw_id_fields = ("deal",)


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
        "deal",
        "ranked",
        "board",
        "action_count",
        "score",
        "won",
        "started_at",
        "finished_at",
    )
    list_filter = ("ranked", "won")
    search_fields = ("player__username", "deal__code")
    raw_id_fields = ("player", "deal", "daily")
    inlines = [GameActionInline]


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    list_display = ("player", "key", "status", "created_at")
    raw_id_fields = ("player", "result")
