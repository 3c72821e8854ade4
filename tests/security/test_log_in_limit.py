"""The failed log-in limit holds under concurrency, for every spelling of a name, on the admin's
log-in too; and a burst of log-ins is refused with 429, never a 5xx."""

from __future__ import annotations

import contextlib
import os
import re
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

from accounts import password_checks
from games.players.guests import create_guest
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


def log_in(name: str, password: str, address: str = "127.0.0.1") -> Any:
    return Client(REMOTE_ADDR=address).post(
        "/api/auth/login", {"username": name, "password": password}, content_type="application/json"
    )


def timed_log_in(name: str, password: str, address: str) -> tuple[Any, float]:
    began = time.monotonic()
    answer = log_in(name, password, address)
    return answer, time.monotonic() - began


@pytest.fixture
def every_worker_its_own_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Log-ins from one address at once, as if each came to another worker process (each has its
    own line of password checks): only the counts, kept in Redis, stand between them."""
    monkeypatch.setattr(password_checks, "_one_at_a_time", lambda address: contextlib.nullcontext())


@pytest.fixture
def slow_checks(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """A slower hasher, so that log-ins at once surely overlap; how many checks ran at most at once."""
    seen = {"checking": 0, "most": 0}
    lock = threading.Lock()
    real_check = hashers.check_password

    def timed_check(*args: Any, **kwargs: Any) -> bool:
        with lock:
            seen["checking"] += 1
            seen["most"] = max(seen["most"], seen["checking"])
        try:
            time.sleep(0.2)
            return real_check(*args, **kwargs)
        finally:
            with lock:
                seen["checking"] -= 1

    monkeypatch.setattr(hashers, "check_password", timed_check)
    return seen


def assert_limited(response: Any, words: str) -> None:
    assert response.status_code == 429, response.content
    assert int(response["Retry-After"]) >= 1
    error = response.json()["error"]
    assert words in error["message"] and "Try again in" in error["message"]
    assert set(error) == {"message", "index", "token"}


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("every_worker_its_own_line")
def test_concurrent_wrong_passwords_are_counted_before_any_is_checked(settings: Any) -> None:
    settings.RATE_LOGIN_FAILURES = 3
    settings.PASSWORD_CHECKS_AT_ONCE = 100  # this test is about the count, not the cap
    settings.LOGIN_SLOWDOWN_SECONDS = 0.2
    make_player("carol", PASSWORD)
    answers = at_once(12, lambda n: log_in("carol", f"wrong {n}"))
    statuses = Counter(answer.status_code for answer in answers)
    assert statuses[401] <= 3 and statuses[401] + statuses[429] == 12, statuses
    before = snapshot()
    assert_limited(log_in("carol", PASSWORD), "Too many failed log-ins")
    assert snapshot() == before
    # From an address without failures, concurrent guesses on the guarded name: one is checked.
    answers = at_once(6, lambda n: log_in("carol", f"wrong {n}", "10.0.0.6"))
    statuses = Counter(answer.status_code for answer in answers)
    assert statuses[401] == 1 and statuses[429] == 5, statuses


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
    settings.LOGIN_SLOWDOWN_SECONDS = 0.1
    elsewhere = Client(REMOTE_ADDR="10.0.8.1")  # the staff member, from an address without failures
    assert admin_log_in(elsewhere, PASSWORD).status_code == 302
    assert elsewhere.get("/admin/").status_code == 200


@pytest.mark.django_db
def test_the_admin_log_in_still_works_within_the_limit() -> None:
    boss = make_player("boss", PASSWORD)
    boss.is_staff = boss.is_superuser = True
    boss.save()
    browser = Client()
    assert admin_log_in(browser, PASSWORD).status_code == 302
    assert browser.get("/admin/").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_a_burst_of_log_ins_beyond_the_cap_is_refused_with_429(settings: Any, slow_checks: dict[str, int]) -> None:
    settings.PASSWORD_CHECKS_AT_ONCE = 2
    settings.PASSWORD_CHECK_WAIT_SECONDS = 0  # refused at once: none waits for a place
    for n in range(8):
        make_player(f"burst{n}", PASSWORD)
    answers = at_once(8, lambda n: log_in(f"burst{n}", PASSWORD, f"10.0.1.{n}"))
    statuses = Counter(answer.status_code for answer in answers)
    assert set(statuses) <= {200, 429} and statuses[429] >= 1, statuses
    assert slow_checks["most"] <= 2
    for answer in answers:
        if answer.status_code == 429:
            assert answer["Retry-After"] == "1"
            assert "Too many log-ins at once" in answer.json()["error"]["message"]
    assert log_in("burst0", PASSWORD).status_code == 200  # a refusal was not a failed log-in


@pytest.mark.django_db(transaction=True)
def test_a_log_in_waits_briefly_for_a_free_check(settings: Any, slow_checks: dict[str, int]) -> None:
    settings.PASSWORD_CHECKS_AT_ONCE = 1
    settings.PASSWORD_CHECK_WAIT_SECONDS = 5
    for n in range(5):
        make_player(f"queue{n}", PASSWORD)
    answers = at_once(5, lambda n: log_in(f"queue{n}", PASSWORD, f"10.0.2.{n}"))
    assert [answer.status_code for answer in answers] == [200] * 5
    assert slow_checks["most"] == 1


@pytest.mark.django_db(transaction=True)
def test_an_address_has_one_place_in_the_line_at_a_time(settings: Any, slow_checks: dict[str, int]) -> None:
    settings.PASSWORD_CHECKS_AT_ONCE = 1
    settings.PASSWORD_CHECK_WAIT_SECONDS = 5
    make_player("ivy", PASSWORD)
    make_player("jack", PASSWORD)
    answers = at_once(6, lambda n: log_in("jack", PASSWORD, "10.0.3.1") if n else log_in("ivy", PASSWORD, "10.0.3.2"))
    assert answers[0].status_code == 200  # the other address's turn came
    flooding = Counter(answer.status_code for answer in answers[1:])
    assert flooding[200] >= 1 and flooding[429] >= 1 and flooding[200] + flooding[429] == 5, flooding
    for answer in answers[1:]:
        if answer.status_code == 429:
            assert_limited(answer, "Too many log-ins at once from this address")
    assert log_in("jack", PASSWORD, "10.0.3.1").status_code == 200  # nor did the refusals count as failures


@pytest.mark.django_db
def test_failed_log_ins_are_limited_per_address_across_names(settings: Any) -> None:
    settings.RATE_LOGIN_FAILURES_PER_ADDRESS = 3
    make_player("kate", PASSWORD)
    assert [log_in(f"nobody{n}", "wrong", "10.0.4.1").status_code for n in range(3)] == [401] * 3
    before = snapshot()
    assert_limited(log_in("kate", PASSWORD, "10.0.4.1"), "Too many failed log-ins from this address")
    assert snapshot() == before
    assert log_in("kate", PASSWORD, "10.0.4.2").status_code == 200  # another address is not held back
    assert [log_in("kate", PASSWORD, "10.0.4.3").status_code for _ in range(5)] == [200] * 5  # successes are free


@pytest.mark.django_db
def test_a_guessed_name_still_lets_the_right_password_in_from_an_address_without_failures(settings: Any) -> None:
    settings.RATE_LOGIN_FAILURES = 3
    settings.LOGIN_SLOWDOWN_SECONDS = 0.6
    make_player("liam", PASSWORD)
    attacker = "10.0.5.1"
    assert [log_in("liam", f"guess {n}", attacker).status_code for n in range(3)] == [401] * 3
    before = snapshot()
    assert_limited(log_in("liam", PASSWORD, attacker), "Too many failed log-ins for this name")  # unchecked
    assert snapshot() == before
    # The player, from an address with no failure on the name: in, once the delay is over.
    answer, took = timed_log_in("LIAM", PASSWORD, "10.0.5.2")
    assert answer.status_code == 200 and took >= 0.6
    # Another address guessing: checked once, answered after the same delay, then refused unchecked.
    wrong, took_wrong = timed_log_in("liam", "guess 9", "10.0.5.3")
    assert wrong.status_code == 401 and took_wrong >= 0.6
    assert wrong.json()["error"]["message"] == "Wrong name or password."
    assert_limited(log_in("liam", PASSWORD, "10.0.5.3"), "Too many failed log-ins for this name")
    assert log_in("liam", PASSWORD, "10.0.5.2").status_code == 200  # the player's success counted no failure


@pytest.mark.django_db
def test_a_guarded_name_answers_alike_whether_or_not_a_player_has_it(settings: Any) -> None:
    settings.RATE_LOGIN_FAILURES = 2
    settings.LOGIN_SLOWDOWN_SECONDS = 0.6
    make_player("mona", PASSWORD)
    answers = {}
    for name in ("mona", "nomona"):
        assert [log_in(name, "guess", "10.0.6.1").status_code for _ in range(2)] == [401] * 2
        answers[name] = [timed_log_in(name, "guess 2", "10.0.6.2"), log_in(name, "guess 3", "10.0.6.1")]
    for (answer, took), refused in answers.values():
        assert answer.status_code == 401 and answer.json() == answers["mona"][0][0].json() and took >= 0.6
        assert refused.status_code == 429 and _words(refused) == _words(answers["mona"][1])


def _words(refused: Any) -> str:
    """A refusal's message without its countdown, which follows the caller's own pace (a slow host
    may cross a second between two names' refusals), not whether the name is a player's."""
    return re.sub(r"\d+", "N", refused.json()["error"]["message"])


def test_a_password_is_hashed_on_a_thread_of_lowest_priority(settings: Any) -> None:
    settings.PASSWORD_CHECKS_AT_ONCE = 1
    settings.PASSWORD_CHECK_WAIT_SECONDS = 0
    with password_checks.slot("10.0.7.1") as run:
        niceness = run(lambda: os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
        with pytest.raises(RateLimited):  # the one place is taken
            with password_checks.slot("10.0.7.2"):
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
    body = {"password": PASSWORD}
    sign_ups = [
        Client().post("/api/auth/signup", {**body, "username": f"new{n}"}, content_type="application/json")
        for n in range(3)
    ]
    assert [answer.status_code for answer in sign_ups] == [201, 201, 429]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "address_words", "name_words"),
    [
        ("fi", "kirjautumista tästä osoitteesta", "tällä nimellä tästä osoitteesta"),
        ("hr", "neuspjelih prijava s ove adrese", "za ovo ime s ove adrese"),
    ],
)
def test_the_log_in_refusals_are_in_the_players_language(
    settings: Any, language: str, address_words: str, name_words: str
) -> None:
    settings.RATE_LOGIN_FAILURES = 1
    settings.RATE_LOGIN_FAILURES_PER_ADDRESS = 2

    def attempt(name: str) -> Any:
        return Client(REMOTE_ADDR="10.0.9.1").post(
            "/api/auth/login",
            {"username": name, "password": "wrong"},
            content_type="application/json",
            HTTP_ACCEPT_LANGUAGE=language,
        )

    assert attempt("olga").status_code == 401
    refused = attempt("olga")
    assert refused.status_code == 429 and name_words in refused.json()["error"]["message"]
    refused = attempt("pete")
    assert refused.status_code == 429 and address_words in refused.json()["error"]["message"]
