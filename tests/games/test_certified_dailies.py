"""Certified dailies (docs/dailies.md): the first candidate of the HMAC chain that the real solver
wins within its budget is the daily, with its par; the cap marks it not certified; a request never
waits for the solver; the par, the line and the candidates stay secret until the daily is published.

Russian Solitaire Classic is the daily variant used here: the solver settles its deals (won or
unwinnable) in a fraction of a second, and most of them cannot be won, so the chains of these
dates under this secret pass candidates over before they find one.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import io
from collections.abc import Callable

import pytest
from asgiref.sync import async_to_sync
from django.core.management import call_command
from django.test import Client

from games.dailies import schedule
from games.dailies.preparation import prepare_ahead, prepare_daily
from games.deals.secret_codes import is_secret
from games.engine import DAILY_VARIANTS, Game, GameCode
from games.models import Daily, DailyCandidate
from tests.daily_helpers import store_unsettled_dailies
from web.errors import NotFound

SECRET = "test-daily-secret"
VARIANT = "RU1-C"
FIRST_WON = dt.date(2020, 3, 3)  # its candidate 0 is won
LATER_WON = dt.date(2020, 3, 2)  # its first candidates cannot be won
WON, UNWINNABLE, UNKNOWN = (DailyCandidate.Verdict(v) for v in ("won", "unwinnable", "unknown"))


@pytest.fixture(autouse=True)
def _solver_settings(settings):  # type: ignore[no-untyped-def]
    settings.DAILY_SECRET = SECRET
    settings.DAILY_SOLVER_BUDGET_SECONDS = 5.0
    settings.DAILY_CANDIDATE_CAP = 40


def tried(date: dt.date, variant: str = VARIANT) -> list[DailyCandidate]:
    return list(DailyCandidate.objects.filter(date=date, variant=variant).order_by("k"))


def assert_certified_first_won(daily: Daily) -> None:
    """The daily is the first won candidate of its chain, every one before it tried and passed over."""
    chain = tried(daily.date, daily.variant)
    assert daily.certified and daily.candidate is not None
    assert [c.k for c in chain] == list(range(daily.candidate + 1))
    assert all(c.verdict in (UNWINNABLE, UNKNOWN) and c.par is None and c.line == "" for c in chain[:-1])
    chosen = chain[-1]
    assert chosen.verdict == WON
    assert (
        daily.stored_code.code
        == chosen.code
        == str(schedule.candidate_code(daily.date, daily.variant, daily.candidate))
    )
    game = Game.from_code(daily.stored_code.code)  # the par is the engine's, after the engine's replay of the line
    assert game.run(daily.par_line.split()) is None and game.won
    assert daily.par == chosen.par == game.moves and daily.par_line == chosen.line


def test_candidate_k_is_the_hmac_of_the_date_the_variant_and_k() -> None:
    def hmac_number(message: bytes) -> int:
        return int.from_bytes(hmac.new(SECRET.encode(), message, hashlib.sha256).digest(), "big") % 26**20

    assert schedule.daily_number(SECRET, LATER_WON, VARIANT) == hmac_number(b"2020-03-02|RU1-C")
    assert schedule.daily_number(SECRET, LATER_WON, VARIANT, 0) == hmac_number(b"2020-03-02|RU1-C")
    assert schedule.daily_number(SECRET, LATER_WON, VARIANT, 3) == hmac_number(b"2020-03-02|RU1-C|3")
    code = schedule.candidate_code(LATER_WON, VARIANT, 3)
    assert code == GameCode.from_variant(VARIANT, hmac_number(b"2020-03-02|RU1-C|3"), long=True)


@pytest.mark.django_db
def test_a_daily_is_the_first_candidate_of_its_chain_that_the_solver_wins() -> None:
    daily = prepare_daily(FIRST_WON, VARIANT)
    assert daily is not None
    assert daily.candidate == 0
    assert_certified_first_won(daily)


@pytest.mark.django_db
def test_a_day_whose_first_candidates_fail_takes_the_next_and_keeps_it() -> None:
    daily = prepare_daily(LATER_WON, VARIANT)
    assert daily is not None and daily.candidate is not None
    assert daily.candidate >= 1 and tried(LATER_WON)[0].verdict == UNWINNABLE
    assert_certified_first_won(daily)
    before = [(c.pk, c.tried_at) for c in tried(LATER_WON)]
    again = prepare_daily(LATER_WON, VARIANT)  # stored: nothing is tried again, nothing changes
    assert again is not None and again.pk == daily.pk and again.stored_code.code == daily.stored_code.code
    assert [(c.pk, c.tried_at) for c in tried(LATER_WON)] == before


@pytest.mark.django_db
def test_the_cap_uses_the_last_candidate_tried_and_marks_the_daily_not_certified(settings) -> None:  # type: ignore[no-untyped-def]
    settings.DAILY_CANDIDATE_CAP = 2  # the first two candidates of this day cannot be won
    daily = prepare_daily(LATER_WON, VARIANT)
    assert daily is not None
    assert not daily.certified and daily.par is None and daily.par_line == ""
    assert daily.candidate == 1 and daily.stored_code.code == str(schedule.candidate_code(LATER_WON, VARIANT, 1))
    assert [(c.k, c.verdict) for c in tried(LATER_WON)] == [(0, UNWINNABLE), (1, UNWINNABLE)]


@pytest.mark.django_db
def test_a_candidate_whose_budget_runs_out_is_passed_over(settings) -> None:  # type: ignore[no-untyped-def]
    settings.DAILY_SOLVER_BUDGET_SECONDS = 0.001  # four suits: far too little to win or to prove anything
    settings.DAILY_CANDIDATE_CAP = 2
    daily = prepare_daily(LATER_WON, "SP1-S4C")
    assert daily is not None and not daily.certified and daily.par is None and daily.candidate == 1
    chain = tried(LATER_WON, "SP1-S4C")
    assert [(c.k, c.verdict) for c in chain] == [(0, UNKNOWN), (1, UNKNOWN)]
    assert all(c.seconds < 1 for c in chain)


@pytest.mark.django_db
def test_a_daily_asked_for_while_it_is_prepared_is_being_prepared_and_nothing_is_stored() -> None:
    morning = dt.datetime(2020, 3, 2, 8, tzinfo=dt.UTC)
    calls = iter(range(100))
    stopped = prepare_daily(LATER_WON, VARIANT, should_stop=lambda: next(calls) >= 1)  # one candidate, then stop
    assert stopped is None and len(tried(LATER_WON)) == 1 and not Daily.objects.exists()
    with pytest.raises(schedule.DailyPreparing) as preparing:
        schedule.daily_for(LATER_WON, VARIANT, now=morning)  # a request neither stores nor solves
    assert preparing.value.retry_after == schedule.PREPARING_RETRY_SECONDS
    assert not Daily.objects.exists() and len(tried(LATER_WON)) == 1
    with pytest.raises(NotFound, match="There was no"):  # the day after: it never was
        schedule.daily_for(LATER_WON, VARIANT, now=morning + dt.timedelta(days=1))
    finished = prepare_daily(LATER_WON, VARIANT)  # goes on where it was: candidate 0 is not solved again
    assert finished is not None and finished.certified
    assert schedule.daily_for(LATER_WON, VARIANT, now=morning) == finished


@pytest.mark.django_db
def test_prepared_days_ahead_are_neither_served_nor_playable_before_their_day(settings) -> None:  # type: ignore[no-untyped-def]
    settings.DAILY_SOLVER_BUDGET_SECONDS = 0.001
    settings.DAILY_CANDIDATE_CAP = 1
    today = dt.date(2020, 3, 1)
    prepared = prepare_ahead(today, days=1)
    assert prepared.pending == 0
    assert sorted((d.date, d.variant) for d in prepared.dailies) == sorted(
        (today + dt.timedelta(days=offset), v) for offset in (0, 1) for v in DAILY_VARIANTS
    )
    tomorrow = Daily.objects.get(date=dt.date(2020, 3, 2), variant=VARIANT)
    noon = dt.datetime(2020, 3, 1, 12, tzinfo=dt.UTC)
    with pytest.raises(NotFound):
        schedule.daily_for(tomorrow.date, VARIANT, now=noon)
    assert async_to_sync(is_secret)(GameCode.parse(tomorrow.stored_code.code), now=noon)


@pytest.mark.django_db
def test_preparing_stops_between_candidates_when_asked(settings) -> None:  # type: ignore[no-untyped-def]
    settings.DAILY_SOLVER_BUDGET_SECONDS = 0.001
    settings.DAILY_CANDIDATE_CAP = 1
    asked: list[int] = []
    stop: Callable[[], bool] = lambda: asked.append(1) or len(asked) > 3  # noqa: E731
    prepared = prepare_ahead(dt.date(2020, 3, 1), days=1, should_stop=stop)
    assert len(prepared.dailies) == 3 and prepared.pending == 2 * len(DAILY_VARIANTS) - 3
    assert DailyCandidate.objects.count() == 3


@pytest.mark.django_db
def test_the_prepare_command_names_only_whether_each_daily_is_certified(settings) -> None:  # type: ignore[no-untyped-def]
    settings.DAILY_SOLVER_BUDGET_SECONDS = 0.001
    settings.DAILY_CANDIDATE_CAP = 1
    out = io.StringIO()
    call_command("prepare_dailies", days=0, stdout=out)
    lines = out.getvalue().splitlines()
    assert len(lines) == len(DAILY_VARIANTS) == Daily.objects.count()
    assert all(line.endswith(("certified winnable", "not certified")) for line in lines)
    for daily in Daily.objects.select_related("stored_code"):
        assert daily.stored_code.code not in out.getvalue()
    closer = io.StringIO()
    call_command("close_dailies", stdout=closer)  # the closer prepares too: here all is ready already
    assert f"{len(DAILY_VARIANTS) * (settings.DAILY_PREPARE_DAYS + 1)} dailies ready, 0 still" in closer.getvalue()


class Clock:
    """timezone.now() for the API calls of one test."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, now: dt.datetime) -> None:
        self.now = now
        monkeypatch.setattr("django.utils.timezone.now", lambda: self.now)


@pytest.mark.django_db
def test_the_par_the_line_and_the_candidates_stay_secret_until_published(monkeypatch: pytest.MonkeyPatch) -> None:
    daily = prepare_daily(LATER_WON, VARIANT)
    assert daily is not None and daily.certified and daily.par is not None
    board = daily.board
    # Another variant of that day, whose candidate the solver did not settle: not certified.
    uncertified = store_unsettled_dailies(LATER_WON, ["SD1-S4"])[0]
    candidate_codes = [c.code for c in tried(LATER_WON)]
    line_start = " ".join(daily.par_line.split()[:6])
    clock = Clock(monkeypatch, dt.datetime(2020, 3, 2, 12, tzinfo=dt.UTC))
    client = Client()
    assert client.get("/api/leaderboards/daily:2020-03-02:SP1-S2C/par").status_code == 404
    assert not Daily.objects.filter(variant="SP1-S2C").exists()  # decided from the date: nothing is made
    for moment in (dt.datetime(2020, 3, 2, 12, tzinfo=dt.UTC), dt.datetime(2020, 3, 3, 0, 59, 59, tzinfo=dt.UTC)):
        clock.now = moment
        overview = client.get("/api/daily", {"date": "2020-03-02"}).json()
        entry = next(e for e in overview["dailies"] if e["variant"] == VARIANT)
        assert entry["certified"] is True and entry["par"] is None and entry["code"] is None
        assert next(e for e in overview["dailies"] if e["variant"] == "SD1-S4")["certified"] is False
        answers = [
            client.get(f"/api/leaderboards/{board}/par"),
            client.get(f"/api/leaderboards/{board}:clean/par"),
            client.get(f"/api/leaderboards/{board}/par/replay", {"step": "3"}),
            client.get(f"/api/leaderboards/{uncertified.board}/par"),
            client.get("/api/leaderboards/daily:2020-03-02:SP1-S2C/par"),
        ]
        assert {a.status_code for a in answers} == {404}
        assert len({a.content for a in answers}) == 1  # one answer for all: it tells nothing apart
        assert "shown once its day is over" in answers[0].json()["error"]["message"]
        pages = [client.get(f"/replay/par/{board}/"), client.get(f"/leaderboards/{board}/")]
        for text in [str(overview), *(a.content.decode() for a in answers + pages)]:
            assert daily.stored_code.code not in text and line_start not in text
            assert not any(code in text for code in candidate_codes)

    clock.now = dt.datetime(2020, 3, 3, 1, tzinfo=dt.UTC)  # published
    entry = next(
        e for e in client.get("/api/daily", {"date": "2020-03-02"}).json()["dailies"] if e["variant"] == VARIANT
    )
    assert entry["par"] == daily.par and entry["code"] == daily.stored_code.code and entry["certified"] is True
    par = client.get(f"/api/leaderboards/{board}/par").json()
    assert par["par"] == daily.par and par["code"] == daily.stored_code.code and par["certified"] is True
    assert [(c["k"], c["code"], c["verdict"]) for c in par["candidates"]] == [
        (c.k, c.code, c.verdict) for c in tried(LATER_WON)
    ]
    not_certified = client.get(f"/api/leaderboards/{uncertified.board}/par").json()
    assert not_certified["certified"] is False and not_certified["par"] is None and not_certified["beat"] is None
    refused = client.get(f"/api/leaderboards/{uncertified.board}/par/replay")
    assert refused.status_code == 404 and "not certified" in refused.json()["error"]["message"]


@pytest.mark.django_db
def test_no_get_address_tells_the_par_the_line_or_the_candidates_of_a_certified_daily_before_publication(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The whole URL configuration crawled on the day of a certified daily a player has finished."""
    import json

    from rest_framework.authtoken.models import Token

    from games import services
    from games.models import Result
    from tests.conftest import make_player
    from tests.security.crawl import addresses

    daily = prepare_daily(LATER_WON, VARIANT)
    assert daily is not None and daily.certified
    Clock(monkeypatch, dt.datetime(2020, 3, 2, 12, tzinfo=dt.UTC))
    alice = make_player("alice")
    session, _ = services.start_session(player=alice, daily=VARIANT)
    for token in daily.par_line.split()[:5]:
        services.apply_action(player=alice, session_id=session.pk, token=token)
    services.finish_session(player=alice, session_id=session.pk)
    result = Result.objects.get(session=session)
    secrets = [c.code for c in tried(LATER_WON)] + [" ".join(daily.par_line.split()[:8])]
    values = {
        "session_id": [str(session.pk)],
        "board": [daily.board, f"{daily.board}:clean"],
        "name": ["alice"],
        "result_id": [str(result.pk)],
        "room_id": ["1"],
        "challenge_id": ["1"],
        "game": ["russian"],
        "variant": [VARIANT],
        "token_id": ["0000000000000000"],  # the address answers DELETE only
    }
    as_alice, anonymous = Client(), Client()
    as_alice.defaults["HTTP_AUTHORIZATION"] = f"Token {Token.objects.create(user=alice).key}"
    extra = ["/api/daily?date=2020-03-02", f"/api/leaderboards/{daily.board}?around=me"]
    for client in (as_alice, anonymous):
        for address in [*addresses(values), *extra]:
            response = client.get(address)
            assert response.status_code < 500, address
            text = (b"".join(response) if response.streaming else response.content).decode()  # type: ignore[attr-defined]
            assert not any(secret in text for secret in secrets), f"GET {address} tells a secret"
            if response.get("Content-Type", "").startswith("application/json"):
                assert not _published_par(json.loads(text)), f"GET {address} tells the par"


def _published_par(document: object) -> bool:
    """Whether a JSON document anywhere carries a par (or candidates) that is not null."""
    if isinstance(document, dict):
        return any(
            (key in ("par", "par_line", "candidates") and value is not None) or _published_par(value)
            for key, value in document.items()
        )
    if isinstance(document, list):
        return any(_published_par(item) for item in document)
    return False
