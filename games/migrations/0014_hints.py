"""Sessions count the hints they were given, and results keep their session's count: a hinted game is
not clean (docs/ranking.md). Games stored before had none."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0013_fair_play_one_record'),
    ]

    operations = [
        migrations.AddField(
            model_name='gamesession',
            name='hints',
            field=models.PositiveIntegerField(db_default=0, default=0),
        ),
        migrations.AddField(
            model_name='result',
            name='hints',
            field=models.PositiveIntegerField(db_default=0, default=0),
        ),
    ]
