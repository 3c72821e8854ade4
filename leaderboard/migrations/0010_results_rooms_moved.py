"""Result, Room and RoomMember are the referee's now (games.0007_players_results_rooms): the board
entries point at games.Result, and the three leave this app's state. Their tables stay."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('leaderboard', '0009_player_name_key'),
        ('games', '0007_players_results_rooms'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.AlterField(
                    model_name='boardentry',
                    name='result',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='board_entries', to='games.result'),
                ),
                migrations.DeleteModel(name='RoomMember'),
                migrations.DeleteModel(name='Room'),
                migrations.DeleteModel(name='Result'),
            ],
        ),
    ]
