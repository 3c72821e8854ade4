# The closer searches the pending reviews, oldest first, and a search lost with it stays pending for
# the next round: nothing is queued again any more, so when a search was queued is no longer kept.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("races", "0005_review_queued"),
    ]

    operations = [
        migrations.RemoveField(
            model_name="dealreview",
            name="queued_at",
        ),
        migrations.AddIndex(
            model_name="dealreview",
            index=models.Index(
                condition=models.Q(("status", "pending")), fields=["created_at"], name="races_review_pending"
            ),
        ),
    ]
