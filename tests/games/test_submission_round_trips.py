"""A batch submission's cost in statements, so that it cannot silently grow again (its throughput:
bench/README.md, "submissions"), and its one write: all of it or nothing."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.models import Result, StoredCode
from games.results import announcements
from leaderboard.models import BoardEntry
from tests.conftest import make_player
from tests.games.play_helpers import winning_log

CODE = "RU1-C-MFXTMVO"

# On a new deal, without an idempotency key: the secret-code check, then in one transaction the
# deal's upsert, the result's INSERT, the statistics upsert and the bump and offer of the board and
# its clean twin: ten statements with the BEGIN and the COMMIT. A server's event loop sends the
# transaction in one pipeline, grouped with the other submissions' (web.storage).
MOST_STATEMENTS = 10


@pytest.mark.django_db(transaction=True)
def test_a_submission_on_a_new_deal_costs_a_fixed_few_statements() -> None:
    player = make_player("counted")
    client = APIClient()
    client.force_authenticate(player)
    with CaptureQueriesContext(connection) as captured:
        response = client.post("/api/submissions", {"code": CODE, "moves": winning_log(CODE)}, format="json")
    assert response.status_code == 201, response.content
    statements = [q["sql"] for q in captured.captured_queries]
    assert len(statements) <= MOST_STATEMENTS, "\n".join(statements)
    # ... and it all happened: a new deal, its result, the entry on the board and its twin
    assert StoredCode.objects.filter(code=CODE).count() == 1
    assert Result.objects.filter(player=player).count() == 1
    assert BoardEntry.objects.filter(player=player).count() == 2


@pytest.mark.postgres  # SQLite answers NULL where PostgreSQL refuses
@pytest.mark.django_db(transaction=True)
def test_a_statement_that_fails_takes_the_whole_result_back(monkeypatch: pytest.MonkeyPatch) -> None:
    player = make_player("all-or-nothing")
    client = APIClient()
    client.force_authenticate(player)
    # A last listener whose statement fails, after the result's and the boards'.
    failing = announcements.Writer(
        statements=lambda event, new: [("SELECT 1 / 0", [])],
        wrote=lambda event, rows: None,
        writes_more=lambda event: False,
    )
    monkeypatch.setattr(announcements, "_listeners", [*announcements._listeners, failing])
    response = client.post("/api/submissions", {"code": CODE, "moves": winning_log(CODE)}, format="json")
    assert response.status_code == 400, response.content  # the database refused it: words, no 500
    assert not Result.objects.filter(player=player).exists()
    assert not BoardEntry.objects.filter(player=player).exists()
    assert not StoredCode.objects.filter(code=CODE).exists()


def test_only_a_result_whose_listeners_write_nothing_more_commits_without_a_transaction() -> None:
    submitted = Result(board=f"code:{CODE}")
    daily = Result(board="daily:SP1-S1:2026-12-03", daily_id=1)  # its streak is recounted after its row
    assert announcements.heard_after_commit(announcements.Event(kind="verified", result=submitted))
    assert not announcements.heard_after_commit(announcements.Event(kind="verified", result=daily))
    assert announcements.heard_after_commit(announcements.Event(kind="revealed", result=daily))  # counted already
