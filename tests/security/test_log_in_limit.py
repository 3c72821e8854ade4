"""The failed log-in limit holds under concurrency, for every spelling of a name, on the admin's
log-in too; and a burst of log-ins is refused with 429, never a 5xx."""

from __future__ import annotations

import os
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import hashers
from django.contrib.auth.backends import ModelBackend
from django.db import connections
from django.test import Client

from games.players import password_checks
from games.players.accounts import create_guest
from tests.conftest import make_player
from tests.loopback import free_port
from tests.security.snapshot import snapshot
from web.errors import RateLimited

PASSWORD = "a long passphrase 7"


def at_once(count: int, call: Callable[[int], Any]) -> list[Any]:
    """`call(n)` in `count` threads released together; each closes its own database connection."""
    gate = threading.Barrier(count)
    answers: list[Any] = [None] * count

    def run(n: int) -> None:
        try:
            gate.wait()
            answers[n] = call(n)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return answers


def log_in(name: str, password: str) -> Any:
    return Client().post("/api/auth/login", {"username": name, "password": password}, content_type="application/json")


def assert_limited(response: Any, words: str) -> None:
    assert response.status_code == 429, response.content
    assert int(response["Retry-After"]) >= 1
    error = response.json()["error"]
    assert words in error["message"] and "Try again in" in error["message"]
    assert set(error) == {"message", "index", "token"}


@pytest.mark.django_db(transaction=True)
def test_concurrent_wrong_passwords_are_counted_before_any_is_checked(settings: Any) -> None:
    settings.RATE_LOGIN_FAILURES = 3
    settings.PASSWORD_CHECKS_AT_ONCE = 100  # this test is about the count, not the cap
    make_player("carol", PASSWORD)
    answers = at_once(12, lambda n: log_in("carol", f"wrong {n}"))
    statuses = Counter(answer.status_code for answer in answers)
    assert statuses[401] <= 3 and statuses[401] + statuses[429] == 12, statuses
    before = snapshot()
    assert_limited(log_in("carol", PASSWORD), "Too many failed log-ins")
    assert snapshot() == before


@pytest.mark.django_db
@pytest.mark.parametrize("spelling", ["miſsgwlkbime", "mısSGWLKBIME", "MISSGWLKBİME", "missgwlkbime\u200b"])
def test_a_name_outside_ascii_is_refused_and_never_reaches_a_locked_account(settings: Any, spelling: str) -> None:
    settings.RATE_LOGIN_FAILURES = 2
    make_player("missgwlkbime", PASSWORD)
    for _ in range(2):
        assert log_in("missgwlkbime", "wrong").status_code == 401
    before = snapshot()
    refused = log_in(spelling, PASSWORD)
    assert refused.status_code == 422
    assert "letters, digits" in refused.json()["error"]["message"]
    assert snapshot() == before


@pytest.mark.django_db
def test_every_ascii_case_of_a_name_shares_its_limit(settings: Any) -> None:
    settings.RATE_LOGIN_FAILURES = 2
    make_player("Dave", PASSWORD)
    assert log_in("dave", "wrong").status_code == 401
    assert log_in("DAVE", "wrong").status_code == 401
    assert_limited(log_in("dAvE", PASSWORD), "Too many failed log-ins")


@pytest.mark.django_db
def test_a_successful_log_in_is_not_counted_as_a_failure(settings: Any) -> None:
    settings.RATE_LOGIN_FAILURES = 2
    make_player("erin", PASSWORD)
    assert [log_in("erin", PASSWORD).status_code for _ in range(4)] == [200] * 4
    assert log_in("erin", "wrong").status_code == 401


def admin_log_in(client: Client, password: str) -> Any:
    return client.post("/admin/login/?next=/admin/", {"username": "boss", "password": password})


@pytest.mark.django_db
def test_the_admin_log_in_has_the_same_limit(settings: Any) -> None:
    settings.RATE_LOGIN_FAILURES = 3
    boss = make_player("boss", PASSWORD)
    boss.is_staff = boss.is_superuser = True
    boss.save()
    browser = Client()
    for _ in range(2):
        assert admin_log_in(browser, "wrong").status_code == 200  # the form again, with its error
    assert log_in("boss", "wrong").status_code == 401  # the API's failures count for the admin too
    before = snapshot()
    refused = admin_log_in(browser, PASSWORD)
    assert_limited(refused, "Too many failed log-ins")
    assert snapshot() == before
    assert browser.get("/admin/").status_code == 302  # still sent to the log-in page: no staff session


@pytest.mark.django_db
def test_the_admin_log_in_still_works_within_the_limit() -> None:
    boss = make_player("boss", PASSWORD)
    boss.is_staff = boss.is_superuser = True
    boss.save()
    browser = Client()
    assert admin_log_in(browser, PASSWORD).status_code == 302
    assert browser.get("/admin/").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_a_burst_of_log_ins_beyond_the_cap_is_refused_with_429(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    settings.PASSWORD_CHECKS_AT_ONCE = 2
    for n in range(8):
        make_player(f"burst{n}", PASSWORD)
    checking = 0
    most = 0
    lock = threading.Lock()
    real_check = hashers.check_password

    def timed_check(*args: Any, **kwargs: Any) -> bool:
        nonlocal checking, most
        with lock:
            checking += 1
            most = max(most, checking)
        try:
            time.sleep(0.2)  # a slower hasher: the burst surely overlaps
            return real_check(*args, **kwargs)
        finally:
            with lock:
                checking -= 1

    monkeypatch.setattr(hashers, "check_password", timed_check)
    answers = at_once(8, lambda n: log_in(f"burst{n}", PASSWORD))
    statuses = Counter(answer.status_code for answer in answers)
    assert set(statuses) <= {200, 429} and statuses[429] >= 1, statuses
    assert most <= 2
    for answer in answers:
        if answer.status_code == 429:
            assert answer["Retry-After"] == "1"
            assert "Too many log-ins at once" in answer.json()["error"]["message"]
    assert log_in("burst0", PASSWORD).status_code == 200  # a refusal was not a failed log-in


def test_a_password_is_hashed_on_a_thread_of_lowest_priority(settings: Any) -> None:
    settings.PASSWORD_CHECKS_AT_ONCE = 1
    with password_checks.slot() as run:
        niceness = run(lambda: os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
        with pytest.raises(RateLimited):  # the one place is taken
            with password_checks.slot():
                pass
    assert niceness == password_checks.LOWEST_PRIORITY
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == 0  # this thread is as it was


@pytest.mark.django_db
def test_no_backend_after_the_limited_one_checks_a_password(monkeypatch: pytest.MonkeyPatch) -> None:
    make_player("frank", PASSWORD)
    asked: list[str] = []
    monkeypatch.setattr(ModelBackend, "authenticate", lambda self, *args, **kwargs: asked.append("asked"))
    assert log_in("frank", "wrong").status_code == 401
    assert log_in("FRANK", PASSWORD).status_code == 200
    assert admin_log_in(Client(), "wrong").status_code == 200
    assert asked == []


@pytest.mark.django_db
def test_a_session_made_before_the_limited_backend_keeps_its_player() -> None:
    guest = create_guest()
    browser = Client()
    browser.force_login(guest, backend="django.contrib.auth.backends.ModelBackend")
    me = browser.get("/api/auth/me")
    assert me.status_code == 200 and me.json()["guest"] is True


@pytest.mark.django_db
def test_the_failure_limit_holds_while_redis_is_away(settings: Any) -> None:
    settings.RATE_LOGIN_FAILURES = 5
    settings.REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there: Redis is away
    make_player("gina", PASSWORD)
    assert [log_in("gina", f"wrong {n}").status_code for n in range(5)] == [401] * 5
    before = snapshot()
    assert_limited(log_in("gina", PASSWORD), "Too many failed log-ins")
    assert snapshot() == before
    for n in range(3):
        assert log_in("gina", f"wrong {n}").status_code == 429


@pytest.mark.django_db
def test_the_sign_up_limit_holds_while_redis_is_away(settings: Any) -> None:
    settings.RATE_SIGNUPS = 2
    settings.REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"
    sign_ups = [
        Client().post("/api/auth/signup", {"username": f"new{n}", "password": PASSWORD}, content_type="application/json")
        for n in range(3)
    ]
    assert [answer.status_code for answer in sign_ups] == [201, 201, 429]
