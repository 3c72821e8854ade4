"""Player, Result, Room and RoomMember are the referee's: the state moves from the leaderboard app to
this one, the tables (and their rows) stay where they are (Meta.db_table). Player came here in
0001_initial; leaderboard.0010_results_rooms_moved drops the rest from the leaderboard's state.

A database that had not reached leaderboard 0009 (the players' name keys) would lack columns the
models expect, with nothing left to add them: the migrations of the release before this one must
run first, so this refuses to go on without them."""

import django.db.models.deletion
import uuid
from django.conf import settings
from django.core.management.base import CommandError
from django.db import migrations, models

NEEDED = {"leaderboard_player": "name_key", "leaderboard_result": "undos"}


def require_previous_release(apps, schema_editor):
    connection = schema_editor.connection
    with connection.cursor() as cursor:
        tables = set(connection.introspection.table_names(cursor))
        for table, column in NEEDED.items():
            columns = {c.name for c in connection.introspection.get_table_description(cursor, table)} if table in tables else set()
            if column not in columns:
                raise CommandError(
                    f"The database has no {table}.{column}: apply the migrations of the previous release first "
                    "(its leaderboard 0009_player_name_key), then these."
                )


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0006_certified_dailies'),
        ('leaderboard', '0009_player_name_key'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(require_previous_release, migrations.RunPython.noop),
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name='Result',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('source', models.CharField(choices=[('session', 'refereed session'), ('submission', 'batch submission')], max_length=16)),
                        ('board', models.CharField(blank=True, max_length=64, null=True)),
                        ('score', models.IntegerField()),
                        ('moves', models.PositiveIntegerField()),
                        ('won', models.BooleanField()),
                        ('sequences', models.PositiveSmallIntegerField(blank=True, null=True)),
                        ('cards_home', models.PositiveSmallIntegerField(blank=True, null=True)),
                        ('elapsed_ms', models.PositiveBigIntegerField(blank=True, null=True)),
                        ('actions', models.PositiveIntegerField()),
                        ('undos', models.PositiveIntegerField(db_default=0, default=0)),
                        ('log', models.TextField(blank=True)),
                        ('finished_at', models.DateTimeField()),
                        ('verified_at', models.DateTimeField()),
                        ('daily', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='results', to='games.daily')),
                        ('deal', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='results', to='games.deal')),
                        ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='results', to=settings.AUTH_USER_MODEL)),
                        ('session', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='result', to='games.gamesession')),
                    ],
                    options={
                        'db_table': 'leaderboard_result',
                        'indexes': [
                            models.Index(fields=['player', '-finished_at'], name='result_player_recent'),
                            models.Index(fields=['board'], name='result_board'),
                            models.Index(fields=['deal'], name='result_deal'),
                        ],
                    },
                ),
                migrations.CreateModel(
                    name='Room',
                    fields=[
                        ('id', models.UUIDField(default=uuid.uuid4, editable=False, primary_key=True, serialize=False)),
                        ('variant', models.CharField(max_length=16)),
                        ('code', models.CharField(db_index=True, max_length=32)),
                        ('hidden', models.BooleanField(default=False)),
                        ('state', models.CharField(choices=[('lobby', 'Lobby'), ('racing', 'Racing'), ('finished', 'Finished')], default='lobby', max_length=8)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('started_at', models.DateTimeField(blank=True, null=True)),
                        ('ended_at', models.DateTimeField(blank=True, null=True)),
                        ('host', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='hosted_rooms', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'leaderboard_room',
                    },
                ),
                migrations.CreateModel(
                    name='RoomMember',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('joined_at', models.DateTimeField(auto_now_add=True)),
                        ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='room_memberships', to=settings.AUTH_USER_MODEL)),
                        ('room', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='members', to='games.room')),
                        ('session', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='room_member', to='games.gamesession')),
                    ],
                    options={
                        'db_table': 'leaderboard_roommember',
                        'ordering': ['joined_at', 'id'],
                        'constraints': [models.UniqueConstraint(fields=('room', 'player'), name='room_member_once')],
                    },
                ),
                migrations.AlterField(
                    model_name='submission',
                    name='result',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to='games.result'),
                ),
            ],
        ),
    ]
