"""Daily challenges (docs/dailies.md): the deal, one ranked attempt, the secret code, the close."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import threading

import pytest
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from games import services
from games.dailies import schedule
from games.dailies.preparation import prepare_daily
from games.engine import DAILY_VARIANTS, Game, GameCode
from games.models import Daily, GameSession, Player, Result
from games.selectors import session_document
from tests.conftest import make_player
from tests.daily_helpers import store_unsettled_dailies
from tests.games.play_helpers import card_mentions, visible_cards
from web.errors import NotAuthenticated

# A day long past, so that the real clock of the API calls is after its publication.
DAY = dt.date(2020, 3, 1)
NOON = dt.datetime(2020, 3, 1, 12, 0, tzinfo=dt.UTC)
NEXT_DAY = dt.datetime(2020, 3, 2, tzinfo=dt.UTC)


def test_the_deal_number_is_hmac_sha256_of_date_and_variant() -> None:
    digest = hmac.new(b"s3cret", b"2020-03-01|SP1-S4C", hashlib.sha256).digest()
    assert schedule.daily_number("s3cret", DAY, "SP1-S4C") == int.from_bytes(digest, "big") % 26**20
    assert schedule.daily_number("s3cret", DAY, "SP1-S4C") != schedule.daily_number("s3cret", DAY, "SP1-S2C")
    assert schedule.daily_number("s3cret", DAY, "SP1-S4C") != schedule.daily_number("other", DAY, "SP1-S4C")


@pytest.fixture(autouse=True)
def _day_prepared(request: pytest.FixtureRequest) -> None:
    """DAY's and today's dailies stored as the preparer stores them, for the tests that play them."""
    marker = request.node.get_closest_marker("django_db")
    if marker is not None:
        request.getfixturevalue("transactional_db" if marker.kwargs.get("transaction") else "db")
        store_unsettled_dailies(DAY)
        store_unsettled_dailies(schedule.utc_today(timezone.now()))


@pytest.mark.django_db
def test_a_daily_is_the_candidate_the_preparer_stored_and_never_changes(settings) -> None:  # type: ignore[no-untyped-def]
    stored = list(Daily.objects.filter(date=DAY).order_by("pk"))  # by the fixture, in DAILY_VARIANTS order
    assert [d.variant for d in stored] == list(DAILY_VARIANTS)
    expected = GameCode.from_variant("RU1-C", schedule.daily_number(settings.DAILY_SECRET, DAY, "RU1-C"), long=True)
    assert stored[-1].stored_code.code == str(expected) and len(expected.letters) == 20
    settings.DAILY_SECRET = "a-new-secret"  # the secret changes; a stored daily does not
    assert schedule.daily_for(DAY, "RU1-C", now=NOON).stored_code.code == stored[-1].stored_code.code
    assert prepare_daily(DAY, "RU1-C") == stored[-1]  # a preparer leaves a stored daily as it is
    assert Daily.objects.filter(date=DAY).count() == 7


@pytest.mark.django_db
def test_tomorrows_dailies_are_not_out(player_api: APIClient) -> None:
    stored = Daily.objects.count()
    response = player_api.get("/api/daily", {"date": "2999-01-01"})
    assert response.status_code == 404
    assert Daily.objects.count() == stored
    assert player_api.get("/api/daily", {"date": "30/11/2026"}).status_code == 400


@pytest.mark.django_db
def test_one_ranked_attempt_then_practice(player: Player) -> None:
    first, created = services.start_session(player=player, daily="sp1-s4c", now=NOON)
    assert created and first.ranked and first.board == "daily:2020-03-01:SP1-S4C"
    again, created = services.start_session(player=player, daily="SP1-S4C", now=NOON + dt.timedelta(minutes=5))
    assert not created and again.pk == first.pk
    services.finish_session(player=player, session_id=first.pk, now=NOON + dt.timedelta(minutes=9))
    practice, created = services.start_session(player=player, daily="SP1-S4C", now=NOON + dt.timedelta(minutes=10))
    assert created and not practice.ranked and practice.board is None
    result = Result.objects.get(session=first)
    assert result.board == "daily:2020-03-01:SP1-S4C" and result.elapsed_ms == 9 * 60 * 1000


@pytest.mark.django_db
def test_a_daily_that_is_not_one_is_refused(player: Player) -> None:
    from web.errors import Unprocessable

    with pytest.raises(Unprocessable, match="no daily"):
        services.start_session(player=player, daily="SP1-S4R", now=NOON)


@pytest.mark.django_db
def test_the_code_and_hidden_cards_stay_secret_until_published(player: Player) -> None:
    session, _ = services.start_session(player=player, daily="SD1-S2", now=NOON)
    game = Game.from_code(session.stored_code.code)
    for moment in (NOON, NOON + dt.timedelta(hours=12, minutes=59)):
        doc = session_document(session, game, now=moment)
        assert doc["code"] is None and doc["view"]["code"] is None
        assert session.stored_code.code not in str(doc)
        assert card_mentions(doc) == visible_cards(doc["view"])
    published = session_document(session, game, now=NEXT_DAY + dt.timedelta(hours=1))
    assert published["code"] == session.stored_code.code


@pytest.mark.django_db
def test_daily_overview_tells_what_i_played(player: Player) -> None:
    api = APIClient()
    api.force_authenticate(player)
    session, _ = services.start_session(player=player, daily="RU1-C")
    overview = api.get("/api/daily").json()
    assert overview["date"] == schedule.utc_today(session.started_at).isoformat()
    by_variant = {entry["variant"]: entry for entry in overview["dailies"]}
    assert set(by_variant) == set(DAILY_VARIANTS)
    assert by_variant["RU1-C"]["played"] is True and by_variant["RU1-C"]["finished"] is False
    assert by_variant["RU1-C"]["session"] == str(session.pk)
    assert by_variant["SP1-S4C"]["played"] is False and by_variant["SP1-S4C"]["session"] is None
    assert all(entry["code"] is None for entry in overview["dailies"])
    assert session.stored_code.code not in str(overview)


@pytest.mark.django_db
def test_open_attempts_end_at_one_oclock_the_next_day_and_the_code_is_published(player: Player) -> None:
    session, _ = services.start_session(player=player, daily="SP1-S1C", now=NOON)
    services.apply_action(player=player, session_id=session.pk, token="D", now=NOON + dt.timedelta(minutes=1))
    assert services.close_expired_dailies(now=NEXT_DAY + dt.timedelta(minutes=59)) == 0
    assert services.close_expired_dailies(now=NEXT_DAY + dt.timedelta(hours=1)) == 1
    session.refresh_from_db()
    assert session.finished_at == NEXT_DAY + dt.timedelta(hours=1)
    result = Result.objects.get(session=session)
    assert result.moves == 1 and result.score == 499 and result.board == session.board
    api = APIClient()
    api.force_authenticate(player)
    published = api.get("/api/daily", {"date": "2020-03-01"}).json()["dailies"]
    assert {e["variant"]: e["code"] for e in published}["SP1-S1C"] == session.stored_code.code


@pytest.mark.django_db
def test_after_midnight_the_days_daily_gives_no_ranked_attempt(player: Player) -> None:
    the_daily = schedule.daily_for(DAY, "SD1-S1", now=NOON)
    assert not schedule.accepts_ranked_attempts(the_daily, NEXT_DAY)
    assert schedule.accepts_ranked_attempts(the_daily, NEXT_DAY - dt.timedelta(minutes=1))


@pytest.mark.django_db
def test_a_guest_is_asked_to_sign_up_for_the_daily_and_is_served_after_signing_up() -> None:
    from django.test import Client

    from games.players.guests import create_guest
    from tests.security.snapshot import snapshot

    guest = create_guest()
    browser = Client()
    browser.force_login(guest)
    before = snapshot()
    refused = browser.post("/api/sessions", {"daily": "SP1-S2C"}, content_type="application/json")
    assert refused.status_code == 401
    assert refused.json() == {"error": {"message": services.GUESTS_SIGN_UP, "index": None, "token": None}}
    assert "sign up" in services.GUESTS_SIGN_UP.lower()
    assert snapshot() == before  # not even the daily is made for the refusal
    with pytest.raises(NotAuthenticated):
        services.start_session(player=guest, daily="SP1-S2C", now=NOON)

    signed_up = browser.post(
        "/api/auth/signup", {"username": "newcomer", "password": "a long passphrase"}, content_type="application/json"
    )
    assert signed_up.status_code == 201
    served = browser.post("/api/sessions", {"daily": "SP1-S2C"}, content_type="application/json")
    assert served.status_code == 201
    doc = served.json()
    assert doc["ranked"] and doc["board"].startswith("daily:") and doc["board"].endswith(":SP1-S2C")
    assert doc["code"] is None and GameSession.objects.get().player_id == guest.pk  # the same player, renamed


@pytest.mark.django_db
def test_a_session_from_guest_days_leaves_only_practice(player: Player) -> None:
    the_daily = schedule.daily_for(DAY, "SD1-S2", now=NOON)
    earlier = GameSession.objects.create(
        player=player, stored_code=the_daily.stored_code, daily=the_daily, ranked=False, started_at=NOON, score=500
    )
    session, created = services.start_session(player=player, daily="SD1-S2", now=NOON)
    assert created and not session.ranked and session.board is None and session.pk != earlier.pk


@pytest.mark.django_db(transaction=True)
def test_concurrent_starts_of_the_same_daily_give_one_ranked_session() -> None:
    player = make_player("racer")
    barrier = threading.Barrier(6)
    answers: list[tuple[str, bool]] = []
    errors: list[BaseException] = []

    def start() -> None:
        try:
            barrier.wait()
            session, created = services.start_session(player=player, daily="SP1-S4C")
            answers.append((str(session.pk), created))
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=start) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert len({session_id for session_id, _ in answers}) == 1
    assert sum(created for _, created in answers) == 1
    assert GameSession.objects.filter(ranked=True).count() == 1
    assert Daily.objects.count() == 14  # DAY's and today's: the starts stored none


@pytest.mark.django_db
def test_a_read_after_one_oclock_closes_nothing_and_the_closer_ends_the_attempt(player: Player) -> None:
    session, _ = services.start_session(player=player, daily="SP1-S1C", now=NOON)
    services.apply_action(player=player, session_id=session.pk, token="D", now=NOON + dt.timedelta(minutes=1))
    client = APIClient()
    client.force_authenticate(player)
    for path in ("/api/leaderboards/daily:2020-03-01:SP1-S1C", f"/api/sessions/{session.pk}", "/api/daily"):
        assert client.get(path).status_code == 200
    session.refresh_from_db()
    assert session.finished_at is None  # a GET stays a read
    assert services.close_expired_dailies() == 1  # the closer's round
    board = APIClient().get("/api/leaderboards/daily:2020-03-01:SP1-S1C").json()
    assert [(e["player"], e["moves"], e["score"]) for e in board["entries"]] == [(player.username, 1, 499)]
    session.refresh_from_db()
    assert session.finished_at == NEXT_DAY + dt.timedelta(hours=1)


@pytest.mark.django_db
def test_giving_up_a_daily_after_its_publication_ends_it_at_one_oclock(player: Player) -> None:
    session, _ = services.start_session(player=player, daily="SD1-S4", now=NOON)
    services.apply_action(player=player, session_id=session.pk, token="D", now=NOON + dt.timedelta(minutes=1))
    late = NEXT_DAY + dt.timedelta(hours=3)
    finished, _ = services.finish_session(player=player, session_id=session.pk, now=late)
    assert finished.finished_at == NEXT_DAY + dt.timedelta(hours=1)
    assert Result.objects.get(session=session).elapsed_ms == (13 * 60) * 60 * 1000
    from web.errors import Conflict

    with pytest.raises(Conflict):
        services.apply_action(player=player, session_id=session.pk, token="D", now=late)


@pytest.mark.django_db
def test_an_action_after_the_publication_ends_the_attempt_and_is_refused(player: Player) -> None:
    from web.errors import Conflict

    session, _ = services.start_session(player=player, daily="SD1-S4", now=NOON)
    with pytest.raises(Conflict, match="over"):
        services.apply_action(player=player, session_id=session.pk, token="1:1>2", now=NEXT_DAY + dt.timedelta(hours=2))
    session.refresh_from_db()
    assert session.finished_at == NEXT_DAY + dt.timedelta(hours=1)
    assert Result.objects.get(session=session).moves == 0
