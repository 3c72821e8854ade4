"""A result's player needs no index of its own: result_player_recent (player, -finished_at) leads with it.

Only the index goes: Django's own AlterField would also drop and re-add the foreign key, which
checks every row again under a lock; the key is unchanged, so the index is dropped by its name
(made from the table and column, the same in every database these migrations built).
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

INDEX = "leaderboard_result_player_id_d2ec6cac"


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_stored_codes"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="result",
                    name="player",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="results",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            database_operations=[
                migrations.RunSQL(
                    f"DROP INDEX IF EXISTS {INDEX}",
                    reverse_sql=f"CREATE INDEX IF NOT EXISTS {INDEX} ON leaderboard_result (player_id)",
                ),
            ],
        ),
    ]
