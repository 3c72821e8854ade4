from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from leaderboard.models import Player, Result


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
