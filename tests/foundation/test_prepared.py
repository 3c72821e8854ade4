"""Hot statements run prepared on PostgreSQL: planned once per connection, errors still Django's."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from games.services import apply_action, start_session
from tests.conftest import make_player
from web.database.prepared import fetchone_prepared

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def _prepared_like(text: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s", [f"%{text}%"])
        return int(cursor.fetchone()[0])


def test_play_appends_through_one_prepared_statement(unlimited_actions: None) -> None:
    player = make_player()
    session, _ = start_session(player=player, code="SP1-S1C-AAAAAAA")
    for _ in range(3):
        apply_action(player=player, session_id=session.id, token="D")
    assert _prepared_like("WITH moved AS") == 1  # one statement, prepared once, run three times
    assert connection.connection.prepare_threshold is None  # nothing else on the connection is prepared


def test_rows_and_no_rows_come_back_as_tuples_and_none() -> None:
    assert fetchone_prepared("SELECT %(n)s::int + 1, 'x'", {"n": 41}) == (42, "x")
    assert fetchone_prepared("SELECT 1 WHERE false", []) is None


def test_errors_are_djangos_so_the_service_answers_them_with_503() -> None:
    with pytest.raises(DatabaseError), transaction.atomic():
        fetchone_prepared("SELECT no_such_column FROM leaderboard_player", [])
