"""A batch submission's cost in statements, so that it cannot silently grow again (bench/README.md,
"The one write of a verified result"): c9a0db3 stored a submission by one statement."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games import results
from games.models import Result, StoredCode
from leaderboard.models import BoardEntry
from tests.conftest import make_player
from tests.games.play_helpers import winning_log
from web.database import prepared

CODE = "RU1-C-MFXTMVO"

# On a new deal, without an idempotency key: the secret-code check, BEGIN, then in one pipeline on
# PostgreSQL (BEGIN queued in it) the deal's upsert, the result's INSERT, the statistics upsert and
# the bump and offer of the board and its clean twin, COMMIT. Ten statements; three round trips on
# PostgreSQL (the check, the pipeline, COMMIT).
MOST_STATEMENTS = 10


@pytest.mark.django_db(transaction=True)
def test_a_submission_on_a_new_deal_costs_a_fixed_few_statements(monkeypatch: pytest.MonkeyPatch) -> None:
    player = make_player("counted")
    client = APIClient()
    client.force_authenticate(player)
    batches: list[int] = []
    real = prepared.fetch_each

    def counted(statements: Any) -> Any:
        batches.append(len(statements))
        return real(statements)

    monkeypatch.setattr(results, "fetch_each", counted)
    with CaptureQueriesContext(connection) as captured:
        response = client.post("/api/submissions", {"code": CODE, "moves": winning_log(CODE)}, format="json")
    assert response.status_code == 201, response.content
    statements = [q["sql"] for q in captured.captured_queries]
    assert len(statements) <= MOST_STATEMENTS, "\n".join(statements)
    assert batches == [7]  # the deal, the result and the listener's five statements went together
    # ... and it all happened: a new deal, its result, the entry on the board and its twin
    assert StoredCode.objects.filter(code=CODE).count() == 1
    assert Result.objects.filter(player=player).count() == 1
    assert BoardEntry.objects.filter(player=player).count() == 2
