"""A race ends at its time limit: a member still playing then ran out of time (placed last), none
before; the closer finds the races still on by their start."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0014_hints'),
    ]

    operations = [
        migrations.AddField(
            model_name='roommember',
            name='ran_out_of_time',
            field=models.BooleanField(db_default=False, default=False),
        ),
        migrations.AddIndex(
            model_name='room',
            index=models.Index(condition=models.Q(('state', 'racing')), fields=['started_at'], name='room_racing_since'),
        ),
    ]
