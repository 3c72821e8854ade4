"""Players' look-alike keys (leaderboard/names.py). Every named player gets one; where existing
names already look alike, the earliest keeps the key and the later ones none, so the unique
constraint can be made and every new look-alike of either is refused."""

from django.db import migrations, models

# leaderboard/names.py as it was when this migration was written: a migration must not change
# when the code does.
CONFUSABLES = {"1": "|", "I": "|", "l": "|", "0": "0", "O": "0", "m": "rn"}


def name_key(username: str) -> str:
    return "".join(CONFUSABLES.get(char, char) for char in username).lower()


def fill_keys(apps, schema_editor):
    Player = apps.get_model("leaderboard", "Player")
    taken: set[str] = set()
    for player in Player.objects.filter(is_guest=False).order_by("pk").only("pk", "username"):
        key = name_key(player.username)
        if key not in taken:
            taken.add(key)
            Player.objects.filter(pk=player.pk).update(name_key=key)


class Migration(migrations.Migration):
    dependencies = [("leaderboard", "0008_stats_clean_wins_russian_best")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(blank=True, editable=False, max_length=80, null=True),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="player",
            name="name_key",
            field=models.CharField(blank=True, editable=False, max_length=80, null=True, unique=True),
        ),
    ]
