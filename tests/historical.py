"""The models as the leaderboard's own migrations knew them, for tests that run an old data
migration's function on today's database.

Result still belonged to the leaderboard then; its table is the same. Two columns were renamed
since (games 0008: a secret code's flag), so the old models are pointed at the new names.
"""

from __future__ import annotations

from typing import Any

_BEFORE_THE_MOVE = [("leaderboard", "0009_player_name_key"), ("games", "0006_certified_dailies")]
_RENAMED_SINCE = [("games", "GameSession", "conceal_code"), ("leaderboard", "Room", "hidden")]


def before_the_move() -> Any:
    from django.db import connection
    from django.db.migrations.loader import MigrationLoader

    apps = MigrationLoader(connection).project_state(_BEFORE_THE_MOVE).apps
    for app, model, field in _RENAMED_SINCE:
        apps.get_model(app, model)._meta.get_field(field).column = "code_secret"
    return apps
