import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("races", "0004_origins"),
    ]

    operations = [
        migrations.AddField(
            model_name="dealreview",
            name="queued_at",
            # A review pending already counts from now: queued again if still pending once it is stale.
            field=models.DateTimeField(default=django.utils.timezone.now),
            preserve_default=False,
        ),
    ]
