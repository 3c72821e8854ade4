"""JSON log lines and request ids: the balancer's X-Request-ID is echoed, logged, and carried into the
threads that do the request's work."""

from __future__ import annotations

import logging
import re
import sys

import orjson
import pytest

from operations import requests
from operations.logs import JsonFormatter
from tests.operations.asgi_client import call

pytestmark = pytest.mark.django_db(transaction=True)


def _lines(caplog: pytest.LogCaptureFixture, logger: str) -> list[dict[str, object]]:
    formatter = JsonFormatter()
    return [orjson.loads(formatter.format(record)) for record in caplog.records if record.name == logger]


def test_a_record_is_one_json_line_with_its_request_id_fields_and_exception() -> None:
    try:
        raise ValueError("bad thing")
    except ValueError:
        record = logging.getLogger("x").makeRecord("x", logging.ERROR, "f", 1, "failed %s", ("here",), sys.exc_info())
    record.fields = {"path": "/api/x", "status": 500}
    token = requests.current.set("req-1")
    try:
        line = JsonFormatter().format(record)
    finally:
        requests.current.reset(token)
    assert "\n" not in line
    document = orjson.loads(line)
    assert document["message"] == "failed here" and document["level"] == "error" and document["logger"] == "x"
    assert document["request_id"] == "req-1" and document["path"] == "/api/x" and document["status"] == 500
    assert "ValueError: bad thing" in document["exception"] and document["source"] == "app"


async def test_the_balancers_request_id_is_echoed_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="operations.access")
    answer = await call("/api/daily", headers={"X-Request-ID": "0f3c9a.edge-7"})
    assert answer["status"] == 200 and answer["headers"]["x-request-id"] == "0f3c9a.edge-7"
    (line,) = [line for line in _lines(caplog, "operations.access") if line.get("path") == "/api/daily"]
    assert line["request_id"] == "0f3c9a.edge-7" and line["status"] == 200 and line["method"] == "GET"


async def test_a_missing_or_odd_request_id_is_replaced_by_a_new_one() -> None:
    odd = await call("/api/daily", headers={"X-Request-ID": 'x" onload="1'})
    none = await call("/api/daily")
    for answer in (odd, none):
        assert re.fullmatch(r"[0-9a-f]{32}", answer["headers"]["x-request-id"])
    assert odd["headers"]["x-request-id"] != none["headers"]["x-request-id"]


async def test_log_lines_written_inside_the_view_carry_the_request_id(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games.api import views

    seen: list[str] = []
    original = views.DailyView.get

    def watched(self, request, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(requests.current.get())
        return original(self, request, *args, **kwargs)

    monkeypatch.setattr(views.DailyView, "get", watched)
    await call("/api/daily", headers={"X-Request-ID": "in-the-thread"})
    assert seen == ["in-the-thread"]
