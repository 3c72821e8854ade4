"""Players' look-alike keys, once made here (the name_key column and its unique constraint, each named
player's key filled in). Player is the referee's now and games.0001_initial makes it with the key;
a database made before has applied this already, and games.0007 checks that it has the column."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("leaderboard", "0008_stats_clean_wins_russian_best")]

    operations: list[migrations.operations.base.Operation] = []
