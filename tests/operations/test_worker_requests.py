"""A real worker (operations.server) hands an HTTP request's body to the application as it came,
spends nothing on what nobody reads (Twisted's parse of a form body, its own log line:
operations.upgrade), sends an answer as soon as the application hands it over, and forgets a
request once it is answered."""

from __future__ import annotations

import http.client
import json
import tempfile
from pathlib import Path

import pytest

from tests.operations.conftest import TIMEOUT, Probe


def _post(probe: Probe, content_type: str, body: bytes) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", probe.port, timeout=TIMEOUT)
    try:
        connection.request("POST", "/body", body=body, headers={"Content-Type": content_type})
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


def test_a_malformed_multipart_body_reaches_the_application_which_words_the_refusal(probe: Probe) -> None:
    # Twisted's own form parse answered this 400 in its words and hung up before the application saw it.
    status, answer = _post(probe, "multipart/form-data; boundary=xyz", b"not a multipart body")
    assert status == 200
    assert json.loads(answer) == {"content_type": "multipart/form-data; boundary=xyz", "body": "not a multipart body"}


def test_a_form_body_reaches_the_application_as_it_was_sent(probe: Probe) -> None:
    status, answer = _post(probe, "application/x-www-form-urlencoded", b"a=1&b=%20two")
    assert status == 200
    assert json.loads(answer)["body"] == "a=1&b=%20two"


def test_requests_write_no_line_to_twisted_s_log_which_goes_nowhere(probe: Probe) -> None:
    # daphne sends Twisted's log nowhere below -v 2, and writes its own access log (and the operations
    # layer its JSON line): formatting Twisted's combined-log line for every request was pure cost.
    for _ in range(3):
        assert _post(probe, "application/json", b"{}")[0] == 200
    assert probe.state()["twisted_http_lines"] == 0
    assert "POST /body" in probe.access_log.read_text()  # daphne's access log still has each request


def test_a_request_answered_is_forgotten_before_the_next_on_the_same_connection(probe: Probe) -> None:
    # daphne's own check forgot each one up to a second later: a busy worker kept its last second of
    # requests alive, and the garbage collector scanned them all again and again.
    connection = http.client.HTTPConnection("127.0.0.1", probe.port, timeout=TIMEOUT)
    try:
        listed = []
        for _ in range(5):
            connection.request("GET", "/state")
            answer = connection.getresponse()
            listed.append(json.loads(answer.read())["other_requests_listed"])
    finally:
        connection.close()
    assert listed == [0, 0, 0, 0, 0]


@pytest.mark.parametrize("path", ["/then-wait", "/then-wait-chunked"])
def test_an_answer_leaves_when_handed_over_not_after_the_application_s_remaining_work(probe: Probe, path: str) -> None:
    # Twisted sent a write on the event loop's next turn: after whatever daphne, Twisted and the
    # application (its metrics, its log line) still did in this one. The probe holds the loop after answering until
    # this client has read the answer, so the answer must be on the wire while the loop is held.
    flag = Path(tempfile.mkdtemp(prefix="held-")) / "read"
    connection = http.client.HTTPConnection("127.0.0.1", probe.port, timeout=TIMEOUT)
    try:
        connection.request("GET", f"{path}?{flag}")
        answer = connection.getresponse()
        assert json.loads(answer.read()) == {"answered": True}
        flag.touch()
        connection.request("GET", "/state")  # the same kept-alive connection serves the next request
        assert json.loads(connection.getresponse().read())["read_while_held"] is True
    finally:
        connection.close()
