"""Schemathesis against /api/schema/, in process: no answer is a 5xx, and every answer matches the schema.

Driven by hand (operation by operation, each a hypothesis run) rather than through
schemathesis' pytest plug-in, which reads a private attribute pytest 9 no longer has.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from rest_framework.authtoken.models import Token
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from tests.conftest import make_player

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
EXAMPLES = 15  # per operation and mode (valid data, invalid data): about a minute on two cores

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


@pytest.fixture
def api_schema(settings: Any) -> Iterator[Any]:
    # The fuzzer is faster than a person: the rate limits are tested on their own.
    for limit in (
        "RATE_ACTIONS",
        "RATE_SUBMISSIONS",
        "RATE_SUBMISSIONS_PER_ADDRESS",
        "RATE_SESSION_STARTS",
        "RATE_SESSION_STARTS_PER_ADDRESS",
        "RATE_GUESTS",
        "RATE_SIGNUPS",
        "RATE_LOGIN_FAILURES",
    ):
        setattr(settings, limit, 1_000_000)
    # Like Django's test client: requests must not close the connection that holds the test's transaction.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


def test_every_operation_answers_as_its_schema_says(api_schema: Any) -> None:
    player = make_player("fuzzer")
    token = Token.objects.create(user=player).key
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 15, [op.label for op in operations]
    failures: dict[str, str] = {}
    for operation, mode in itertools.product(operations, schemathesis.GenerationMode):

        @given(case=operation.as_strategy(mode))
        @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def fuzz(case: schemathesis.Case) -> None:
            Token.objects.get_or_create(key=token, user=player)  # a fuzzed log-out revokes it
            case.call_and_validate(headers={"Authorization": f"Token {token}"}, checks=CHECKS)

        try:
            fuzz()
        except Unsatisfiable:  # an operation without inputs has no invalid data to send
            assert mode is schemathesis.GenerationMode.NEGATIVE, operation.label
        except (Exception, BaseExceptionGroup) as failure:  # gathered: one run reports every operation
            failures[f"{operation.label} ({mode.value})"] = str(failure)[:1500]
    assert not failures, "\n\n".join(f"{label}:\n{text}" for label, text in failures.items())
