"""`manage.py reverify`: an engine change must never silently alter a stored score."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from games.models import Result
from tests.games.play_helpers import winning_log

pytestmark = pytest.mark.django_db


def test_reverify_passes_on_true_results_and_names_a_changed_one(player_api: APIClient) -> None:
    for code in ("SD1-S1-HJSZOZN", "RU1-C-MFXTMVO"):
        assert (
            player_api.post("/api/submissions", {"code": code, "moves": winning_log(code)}, format="json").status_code
            == 201
        )
    out = io.StringIO()
    call_command("reverify", stdout=out, stderr=io.StringIO())
    assert "2 results checked, 0 would change." in out.getvalue()

    tampered = Result.objects.get(stored_code__code="SD1-S1-HJSZOZN")
    Result.objects.filter(pk=tampered.pk).update(score=999)
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit_info:
        call_command("reverify", stdout=out, stderr=io.StringIO())
    assert exit_info.value.code == 1
    assert f"result {tampered.pk} (SD1-S1-HJSZOZN)" in out.getvalue() and "1 would change" in out.getvalue()
