"""The models as the leaderboard's own migrations knew them, for tests that run an old data
migration's function on today's database.

Result still belonged to the leaderboard then; its table is the same. Some names changed since
(games 0008: a secret code's flag; games 0009: the stored code's table and its foreign keys), so
the old models are pointed at today's table and columns.
"""

from __future__ import annotations

from typing import Any

_BEFORE_THE_MOVE = [("leaderboard", "0009_player_name_key"), ("games", "0006_certified_dailies")]
_RENAMED_SINCE = [
    ("games", "GameSession", "conceal_code", "code_secret"),
    ("leaderboard", "Room", "hidden", "code_secret"),
    ("games", "Daily", "deal", "stored_code_id"),
    ("games", "GameSession", "deal", "stored_code_id"),
    ("leaderboard", "Result", "deal", "stored_code_id"),
]
_TABLES_RENAMED_SINCE = [("games", "Deal", "games_storedcode")]


def before_the_move() -> Any:
    from django.db import connection
    from django.db.migrations.loader import MigrationLoader

    apps = MigrationLoader(connection).project_state(_BEFORE_THE_MOVE).apps
    for app, model, field, column in _RENAMED_SINCE:
        apps.get_model(app, model)._meta.get_field(field).column = column
    for app, model, table in _TABLES_RENAMED_SINCE:
        apps.get_model(app, model)._meta.db_table = table
    return apps
