"""A fair-play review's state follows from its reasons and its latest decision (FairPlayDecision),
so the review no longer keeps a status, a note, who decided and when beside the decisions' log.
Going forward, a decision a review recorded on itself but the log lacks is logged first (who, when,
the reason as its note said); nothing else changes. Going back, each review takes its state, note,
decider and time again from its latest decision."""

from django.db import migrations, models

VERDICT_OF = {"approved": "approve", "voided": "void"}
STATUS_OF = {"approve": "approved", "void": "voided"}


def _latest(decisions, review):  # type: ignore[no-untyped-def]
    return decisions.objects.filter(review=review).order_by("-decided_at", "-id").first()


def log_each_decision(apps, schema_editor):  # type: ignore[no-untyped-def]
    reviews = apps.get_model("games", "FairPlayReview")
    decisions = apps.get_model("games", "FairPlayDecision")
    for review in reviews.objects.filter(status__in=list(VERDICT_OF)).iterator():
        latest = _latest(decisions, review)
        if latest is not None and latest.verdict == VERDICT_OF[review.status]:
            continue
        decisions.objects.create(
            review=review,
            verdict=VERDICT_OF[review.status],
            reason=review.note,
            staff_id=review.decided_by_id,
            decided_at=review.decided_at or review.created_at,
        )


def state_from_decisions(apps, schema_editor):  # type: ignore[no-untyped-def]
    reviews = apps.get_model("games", "FairPlayReview")
    decisions = apps.get_model("games", "FairPlayDecision")
    for review in reviews.objects.iterator():
        latest = _latest(decisions, review)
        if latest is None:
            review.status = "held" if review.reasons else "clear"
        else:
            review.status = STATUS_OF[latest.verdict]
            review.note = latest.reason if latest.verdict == "void" else ""
            review.decided_by_id = latest.staff_id
            review.decided_at = latest.decided_at
        review.save(update_fields=["status", "note", "decided_by", "decided_at"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_fair_play"),
    ]

    operations = [
        migrations.RunPython(log_each_decision, state_from_decisions),
        # A default only so that going back can add the column to a table with rows (then filled).
        migrations.AlterField(
            model_name="fairplayreview",
            name="status",
            field=models.CharField(
                choices=[("clear", "Clear"), ("held", "under review"), ("approved", "Approved"), ("voided", "Voided")],
                default="clear",
                max_length=8,
            ),
        ),
        migrations.RemoveIndex(model_name="fairplayreview", name="fair_play_status"),
        migrations.RemoveField(model_name="fairplayreview", name="status"),
        migrations.RemoveField(model_name="fairplayreview", name="note"),
        migrations.RemoveField(model_name="fairplayreview", name="decided_by"),
        migrations.RemoveField(model_name="fairplayreview", name="decided_at"),
    ]
