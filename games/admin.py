from typing import Any, cast

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.html import format_html_join

from games.dailies import fair_play
from games.models import (
    Daily,
    DailyCandidate,
    FairPlayDecision,
    FairPlayReview,
    FairPlayReviews,
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
    """A decision on a result fair play held: approve it (it joins the boards), or void it with a
    reason the player is shown. A later decision may undo the one in force."""

    verdict = forms.ChoiceField(choices=[("", "---------"), *FairPlayDecision.Verdict.choices], required=False)
    reason = forms.CharField(widget=forms.Textarea, required=False, help_text="Shown to the player when voided.")

    class Meta:
        model = FairPlayReview
        fields: list[str] = []

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        verdict = data.get("verdict")
        status = self.instance.status
        if verdict and status == FairPlayReview.Status.CLEAR:
            raise forms.ValidationError("Only a result fair play held can be decided.")
        if (verdict, status) in (("approve", "approved"), ("void", "voided")):
            raise forms.ValidationError(f"The result is {status} already.")
        if verdict == FairPlayDecision.Verdict.VOID and not (data.get("reason") or "").strip():
            raise forms.ValidationError("Say why the result is voided: the player is shown the reason.")
        return data


class DecisionInline(admin.TabularInline):
    model = FairPlayDecision
    extra = 0
    can_delete = False
    readonly_fields = ("verdict", "reason", "staff", "decided_at")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class StatusFilter(admin.SimpleListFilter):
    title = "status"
    parameter_name = "status"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [(str(value), str(label)) for value, label in FairPlayReview.Status.choices]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() not in FairPlayReview.Status.values:
            return queryset  # none chosen (or not a status)
        return cast(FairPlayReviews, queryset).in_status(str(self.value()))


REASONS = {
    "linked_device": "another account played this daily from the same device",
    "linked_address": "another account played this daily from the same address",
    "pace": "a pace no person keeps up",
    "clairvoyance": "follows the solver's par line",
    "new_account_at_par": "a new account winning within par",
    "blind_luck": "luckier with face-down cards than a player who cannot see them",
    "near_par": "won in hardly more moves than par (with the above)",
}


def signals_in_words(signals: dict[str, Any]) -> list[str]:
    """The signals of a review as a member of staff reads them (older reviews lack some)."""
    lines = []
    if linked := signals.get("linked"):
        lines.append(
            f"Other accounts on this daily before it ended: {linked['device']} from the same device,"
            f" {linked['address']} from the same address."
        )
    if pace := signals.get("pace"):
        median = "-" if pace["median_ms"] is None else f"{pace['median_ms']} ms"
        lines.append(
            f"Pace: {pace['actions']} actions, median gap {median}, longest run of quick actions {pace['fast_run']}."
        )
    if (line := signals.get("clairvoyance")) and line["share"] is not None:
        lines.append(
            f"Par line: the log follows {round(100 * line['share'])}% of its {line['par_tokens']} tokens in order,"
            f" the first {line['prefix']} exactly."
        )
    if blind := signals.get("blind_choices"):
        odds = blind["odds"]
        once_in = f"1 time in {round(1 / odds):,}" if odds < 0.5 else f"{round(100 * odds)}% of the time"
        lines.append(
            f"Blind choices: {blind['count']} times the player chose which face-down card to turn; the card"
            f" fitted at once {blind['lucky']} times, where a player who cannot see the cards averages"
            f" {blind['expected']:.1f} and is this lucky or luckier {once_in}."
        )
    if signals.get("moves_to_par") is not None:
        lines.append(f"Won in {signals['moves_to_par']:.2f} times the par's moves.")
    if account := signals.get("account"):
        lines.append(f"Account: {account['age_days']} days old, {account['games_before']} finished games before.")
    return lines


@admin.register(FairPlayReview)
class FairPlayReviewAdmin(admin.ModelAdmin):
    """Daily results screened by fair play (games.dailies.fair_play): held ones wait here for a decision;
    a decided one may be decided again (a void after an approval, an approval on appeal)."""

    form = DecisionForm
    list_display = ("result", "player", "board", "status", "why", "created_at", "decision")
    list_filter = (StatusFilter,)
    search_fields = ("result__player__username", "result__board")
    readonly_fields = ("result", "player", "board", "status", "why", "in_words", "signals")
    fields = (*readonly_fields, "verdict", "reason")
    inlines = [DecisionInline]
    actions = ["approve_selected"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[FairPlayReview]:
        return super().get_queryset(request).select_related("result__player").prefetch_related("decisions__staff")

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

    @admin.display(description="held for")
    def why(self, review: FairPlayReview) -> str:
        return "; ".join(REASONS.get(reason, reason) for reason in review.reasons)

    @admin.display(description="signals in words")
    def in_words(self, review: FairPlayReview) -> str:
        return format_html_join("", "<p>{}</p>", ((line,) for line in signals_in_words(review.signals)))

    @admin.display(description="decision in force")
    def decision(self, review: FairPlayReview) -> str:
        _, latest = review.standing()
        if latest is None:
            return ""
        staff = latest.staff.username if latest.staff else "?"
        return f"{latest.verdict} by {staff}, {latest.decided_at:%Y-%m-%d %H:%M}"

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
        for review in cast(FairPlayReviews, queryset).in_status(FairPlayReview.Status.HELD):
            try:
                fair_play.decide(
                    review=review,
                    staff=request.user,  # type: ignore[arg-type]
                    verdict=FairPlayDecision.Verdict.APPROVE,
                    reason="",
                    now=timezone.now(),
                )
                approved += 1
            except fair_play.CannotDecide:
                continue  # decided meanwhile
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
