"""A player's statistics need no index of their own on the player: stats_once_per_variant (player, variant) leads with it.

Only the index goes: Django's own AlterField would also drop and re-add the foreign key, which
checks every row again under a lock; the key is unchanged, so the index is dropped by its name
(made from the table and column, the same in every database these migrations built).
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

INDEX = "leaderboard_playerstats_player_id_d6b682d0"


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboard", "0010_results_rooms_moved"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="playerstats",
                    name="player",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="stats",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            database_operations=[
                migrations.RunSQL(
                    f"DROP INDEX IF EXISTS {INDEX}",
                    reverse_sql=f"CREATE INDEX IF NOT EXISTS {INDEX} ON leaderboard_playerstats (player_id)",
                ),
            ],
        ),
    ]
