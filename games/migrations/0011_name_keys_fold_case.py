"""Players' look-alike keys made again, folded for case before the skeleton (games/players/names.py).

Each named player, oldest first, gets the new key of its name unless an older player already holds
it: a look-alike older than the key keeps none, as after leaderboard 0009. The key functions are
copied here, so that this migration makes the same keys whatever names.py becomes.
"""

from collections.abc import Callable

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

BATCH = 1000


def folded_key(username: str) -> str:
    table = {"1": "l", "i": "l", "0": "o", "m": "rn"}
    return "".join(table.get(char, char) for char in username.lower())


def skeleton_key(username: str) -> str:
    table = {"1": "|", "I": "|", "l": "|", "0": "0", "O": "0", "m": "rn"}
    return "".join(table.get(char, char) for char in username).lower()


def rekey(key: Callable[[str], str]) -> Callable[[StateApps, BaseDatabaseSchemaEditor], None]:
    def run(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
        player_model = apps.get_model("games", "Player")
        players = player_model.objects.using(schema_editor.connection.alias)
        players.exclude(name_key=None).update(name_key=None)
        held: set[str] = set()
        changed = []
        for player in players.filter(is_guest=False).order_by("pk").only("pk", "username").iterator(BATCH):
            new = key(player.username)
            if new in held:
                continue
            held.add(new)
            player.name_key = new
            changed.append(player)
            if len(changed) == BATCH:
                players.bulk_update(changed, ["name_key"])
                changed = []
        players.bulk_update(changed, ["name_key"])

    return run


class Migration(migrations.Migration):
    dependencies = [("games", "0010_player_index_covered")]

    operations = [migrations.RunPython(rekey(folded_key), rekey(skeleton_key))]
