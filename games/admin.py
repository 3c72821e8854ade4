from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from games import fair_play
from games.models import (
    Daily,
    DailyCandidate,
    FairPlayDecision,
    FairPlayReview,
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
    readonly_fields = ("seq", "token", "at")


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


class DecisionForm(forms.ModelForm):
    """A held result's decision: approve it (it joins the boards), or void it with a reason the
    player is shown."""

    verdict = forms.ChoiceField(choices=[("", "---------"), *FairPlayDecision.Verdict.choices], required=False)
    reason = forms.CharField(widget=forms.Textarea, required=False, help_text="Shown to the player when voided.")

    class Meta:
        model = FairPlayReview
        fields: list[str] = []

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.instance.status != FairPlayReview.Status.HELD and data.get("verdict"):
            raise forms.ValidationError("Only a result under review can be decided.")
        if data.get("verdict") == FairPlayDecision.Verdict.VOID and not (data.get("reason") or "").strip():
            raise forms.ValidationError("Say why the result is voided: the player is shown the reason.")
        return data


class DecisionInline(admin.TabularInline):
    model = FairPlayDecision
    extra = 0
    can_delete = False
    readonly_fields = ("verdict", "reason", "staff", "decided_at")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(FairPlayReview)
class FairPlayReviewAdmin(admin.ModelAdmin):
    """Daily results screened by fair play (games.fair_play): held ones wait here for a decision."""

    form = DecisionForm
    list_display = ("result", "player", "board", "status", "reasons", "created_at", "decided_by", "decided_at")
    list_filter = ("status",)
    search_fields = ("result__player__username", "result__board")
    readonly_fields = ("result", "player", "board", "status", "reasons", "signals", "note", "decided_by", "decided_at")
    fields = (*readonly_fields, "verdict", "reason")
    inlines = [DecisionInline]
    actions = ["approve_selected"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="player")
    def player(self, review: FairPlayReview) -> str:
        return review.result.player.display_name

    @admin.display(description="board")
    def board(self, review: FairPlayReview) -> str:
        return review.result.board or ""

    def save_model(self, request: HttpRequest, obj: FairPlayReview, form: Any, change: bool) -> None:
        verdict = form.cleaned_data.get("verdict")
        if verdict:
            assert request.user.is_authenticated
            fair_play.decide(
                review=obj,
                staff=request.user,
                verdict=verdict,
                reason=form.cleaned_data.get("reason", "").strip(),
                now=timezone.now(),
            )

    @admin.action(description="Approve the selected results under review (they join the boards)")
    def approve_selected(self, request: HttpRequest, queryset: QuerySet[FairPlayReview]) -> None:
        approved = 0
        for review in queryset.filter(status=FairPlayReview.Status.HELD):
            try:
                fair_play.decide(
                    review=review,
                    staff=request.user,  # type: ignore[arg-type]
                    verdict=FairPlayDecision.Verdict.APPROVE,
                    reason="",
                    now=timezone.now(),
                )
                approved += 1
            except fair_play.NotHeld:
                continue
        self.message_user(request, f"{approved} result(s) approved.", messages.SUCCESS)


@admin.register(FairPlayDecision)
class FairPlayDecisionAdmin(admin.ModelAdmin):
    """The log of decisions: read only."""

    list_display = ("review", "verdict", "reason", "staff", "decided_at")
    list_filter = ("verdict",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
