"""Fair play's signals on hand-made daily attempts (games.dailies.fair_play, docs/dailies.md "Fair play"):
linked accounts by device and by address, pace, clairvoyance (the par line), a new account winning
within par; each stored with the result when the attempt ends, and a result that crosses a line held
off the boards with its player told it is under review."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.utils import timezone

from games import services
from games.dailies import fair_play
from games.dailies.schedule import utc_today
from games.models import AttemptOrigin, Daily, FairPlayReview, GameAction, GameSession, Player, Result
from leaderboard.models import BoardEntry, PlayerStats
from tests.conftest import make_player
from tests.games.play_helpers import winning_log
from tests.leaderboard.factories import daily_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("unlimited_actions")]

CODE = "RU1-C-MFXTMVO"  # a Russian Solitaire deal with a won log of 99 actions and no undo
LOG = winning_log(CODE)
FREE = "SD1-S1-HJSZOZN"  # free play: a code that is no daily
HUMAN_MS = 900
BOT_MS = 30


# ------------------------------------------------------------------ the signals alone


def _times(gaps_ms: list[int]) -> list[dt.datetime]:
    at = dt.datetime(2026, 1, 1, 12, tzinfo=dt.UTC)
    times = [at]
    for gap in gaps_ms:
        at += dt.timedelta(milliseconds=gap)
        times.append(at)
    return times


def test_pace_crosses_its_line_on_a_sustained_machine_pace_only() -> None:
    bot = fair_play.pace(_times([BOT_MS] * 60))
    assert bot["median_ms"] == BOT_MS and bot["fast_run"] == 61 and fair_play.too_fast(bot)
    person = fair_play.pace(_times([HUMAN_MS, 400, 2500, 300, 1200] * 12))
    assert not fair_play.too_fast(person)
    # A person's quick flurry (a few double-clicks) is not a machine's run.
    flurry = fair_play.pace(_times([HUMAN_MS] * 30 + [60] * 8 + [HUMAN_MS] * 30))
    assert flurry["fast_run"] == 9 and not fair_play.too_fast(flurry)
    # A long run of sub-line actions inside slow play is, even when the median is a person's.
    burst = fair_play.pace(_times([HUMAN_MS] * 60 + [40] * 30))
    assert burst["median_ms"] == HUMAN_MS and fair_play.too_fast(burst)


def test_pace_holds_a_script_driving_the_page_and_not_the_fastest_person() -> None:
    """The lines sit outside a person's play (bench/README.md, "Fair play"): a script acting the
    moment the page shows each answer holds a median gap near 150 ms and is held; the quickest
    deliberate clicks of a person (a quarter of a second and more) are not."""
    page_floor = fair_play.pace(_times([140, 150, 90, 160, 130] * 8))
    assert page_floor["median_ms"] == 140 and fair_play.too_fast(page_floor)
    quickest_person = fair_play.pace(_times([260, 300, 420, 280, 350] * 8))
    assert not fair_play.too_fast(quickest_person)
    # A long run of double-click-fast actions, each under the run line, even amid slow play.
    run = fair_play.pace(_times([HUMAN_MS] * 60 + [120] * 30))
    assert run["median_ms"] == HUMAN_MS and fair_play.too_fast(run)


def test_clairvoyance_measures_how_much_of_the_par_line_a_log_follows_in_order() -> None:
    par = " ".join(LOG)
    assert fair_play.clairvoyance(LOG, par) == {"par_tokens": len(LOG), "prefix": len(LOG), "share": 1.0}
    nearly = [*LOG[:40], LOG[41], LOG[40], *LOG[42:]]  # two moves swapped: still the line
    assert fair_play.clairvoyance(nearly, par)["share"] >= 0.95
    other = fair_play.clairvoyance(["D", "1>2", "3>4"], par)
    assert other["prefix"] == 0 and other["share"] < 0.1
    assert fair_play.clairvoyance(LOG, "")["share"] is None  # no par line: nothing to compare


def test_the_keyed_hash_keeps_no_address_and_changes_with_its_key(settings) -> None:  # type: ignore[no-untyped-def]
    first = fair_play.keyed_hash("address", "203.0.113.9")
    assert "203.0.113.9" not in first and len(first) == 64
    assert fair_play.keyed_hash("address", "203.0.113.9") == first
    settings.FAIR_PLAY_HASH_KEY = "another key"
    assert fair_play.keyed_hash("address", "203.0.113.9") != first


# ------------------------------------------------------------------ attempts played through the service


@pytest.fixture
def daily() -> Daily:
    return daily_of(utc_today(timezone.now()), "RU1-C", CODE)


def _browser(player: Player, *, device: str | None, address: str) -> Client:
    browser = Client(REMOTE_ADDR=address)
    browser.force_login(player)
    if device is not None:
        browser.cookies["device"] = device
    return browser


def _start(browser: Client) -> GameSession:
    answer = browser.post("/api/sessions", {"daily": "RU1-C"}, content_type="application/json")
    assert answer.status_code == 201, answer.content
    return GameSession.objects.get(pk=answer.json()["id"])


def _play(player: Player, session: GameSession, tokens: list[str], *, gap_ms: int) -> Result:
    at = session.started_at
    for token in tokens:
        at += dt.timedelta(milliseconds=gap_ms)
        services.apply_action(player=player, session_id=session.id, token=token, now=at)
    session.refresh_from_db()
    if not session.finished:
        services.finish_session(player=player, session_id=session.id, now=at + dt.timedelta(seconds=1))
    return Result.objects.select_related("fair_play").get(session=session)


def _attempt(
    name: str, *, device: str | None = "dev-" + "a" * 20, address: str = "198.51.100.1", **play: Any
) -> Result:
    player = make_player(name)
    session = _start(_browser(player, device=device, address=address))
    return _play(player, session, play.pop("tokens", LOG), gap_ms=play.pop("gap_ms", HUMAN_MS))


def _ranked(result: Result) -> bool:
    return BoardEntry.objects.filter(result=result).exists()


def test_an_honest_attempt_is_clear_on_the_board_and_provisional_until_the_close(daily: Daily) -> None:
    result = _attempt("honest")
    review = result.fair_play  # type: ignore[attr-defined]
    assert review.status == FairPlayReview.Status.CLEAR and review.reasons == []
    signals = review.signals
    assert signals["pace"]["actions"] == len(LOG) and signals["pace"]["median_ms"] == HUMAN_MS
    assert signals["linked"] == {"device": 0, "address": 0}
    assert signals["clairvoyance"]["share"] is None  # this daily has no par line
    assert signals["account"]["games_before"] == 0 and signals["account"]["age_days"] < 1
    assert _ranked(result) and BoardEntry.objects.filter(board=f"{daily.board}:clean", result=result).exists()
    assert PlayerStats.objects.get(player=result.player).wins == 1
    document = Client(REMOTE_ADDR="198.51.100.1")
    document.force_login(result.player)
    mine = document.get(f"/api/sessions/{result.session_id}").json()["result"]
    assert mine["fair_play"]["status"] == "provisional" and mine["rank"] == 1
    final = fair_play.status_of(result, now=daily.publishes_at)
    assert final is not None and final["status"] == "final"


def test_a_machine_paced_attempt_is_held_off_every_board_and_its_player_told(daily: Daily) -> None:
    result = _attempt("quick", gap_ms=BOT_MS)
    review = result.fair_play  # type: ignore[attr-defined]
    assert review.status == FairPlayReview.Status.HELD and review.reasons == ["pace"]
    assert not BoardEntry.objects.filter(board__startswith=daily.board).exists()
    assert not PlayerStats.objects.filter(player=result.player).exists()
    browser = Client()
    browser.force_login(result.player)
    mine = browser.get(f"/api/sessions/{result.session_id}").json()["result"]
    assert mine["fair_play"]["status"] == "under_review" and mine["rank"] is None


def test_a_copy_of_the_par_line_is_flagged_and_a_log_of_ones_own_is_not(daily: Daily) -> None:
    daily.par_line = " ".join(LOG)
    daily.save(update_fields=["par_line"])
    copied = _attempt("copier", device="dev-copier-0000000000", address="198.51.100.7")
    assert copied.fair_play.reasons == ["clairvoyance"]  # type: ignore[attr-defined]
    daily.par_line = " ".join(reversed(LOG))  # a line the player's log does not follow
    daily.save(update_fields=["par_line"])
    own = _attempt("thinker", device="dev-thinker-000000000", address="198.51.100.8")
    assert own.fair_play.reasons == []  # type: ignore[attr-defined]
    assert own.fair_play.signals["clairvoyance"]["share"] < 0.5  # type: ignore[attr-defined]


def test_a_new_account_that_wins_within_par_is_held_an_established_one_is_not(daily: Daily, settings) -> None:  # type: ignore[no-untyped-def]
    daily.par = 200  # the log's moves are within it
    daily.save(update_fields=["par"])
    settings.FAIR_PLAY_NEAR_PAR = 0.4  # this test looks at the account alone
    fresh = _attempt("newcomer", device="dev-newcomer-00000000", address="198.51.100.20")
    assert fresh.fair_play.reasons == ["new_account_at_par"]  # type: ignore[attr-defined]
    assert fresh.fair_play.signals["moves_to_par"] == round(len(LOG) / 200, 3)  # type: ignore[attr-defined]
    veteran = make_player("veteran")
    Player.objects.filter(pk=veteran.pk).update(date_joined=timezone.now() - dt.timedelta(days=90))
    veteran.refresh_from_db()
    session = _start(_browser(veteran, device="dev-veteran-000000000", address="198.51.100.21"))
    result = _play(veteran, session, LOG, gap_ms=HUMAN_MS)
    assert result.fair_play.reasons == []  # type: ignore[attr-defined]
    assert result.fair_play.signals["account"]["age_days"] >= 90  # type: ignore[attr-defined]


def _veteran(name: str) -> Player:
    player = make_player(name)
    Player.objects.filter(pk=player.pk).update(date_joined=timezone.now() - dt.timedelta(days=90))
    player.refresh_from_db()
    return player


def test_a_win_hardly_longer_than_par_holds_nothing_alone_and_is_shown_beside_another_signal(daily: Daily) -> None:
    """A strong player who sees only the face-up cards wins in about par's moves too (bench/README.md,
    "Fair play"), so near par holds no result by itself; beside a signal that does, staff see it."""
    daily.par = round(len(LOG) / 1.2)  # the log is 1.2 times par
    daily.save(update_fields=["par"])
    strong = _veteran("strong")
    session = _start(_browser(strong, device="dev-veteran-000000000", address="198.51.100.21"))
    result = _play(strong, session, LOG, gap_ms=HUMAN_MS)
    assert result.fair_play.reasons == []  # type: ignore[attr-defined]
    assert result.fair_play.signals["moves_to_par"] <= settings.FAIR_PLAY_NEAR_PAR  # type: ignore[attr-defined]
    assert _ranked(result)
    quick = _veteran("quick")
    session = _start(_browser(quick, device="dev-quick-00000000000", address="198.51.100.22"))
    assert _play(quick, session, LOG, gap_ms=BOT_MS).fair_play.reasons == ["pace", "near_par"]  # type: ignore[attr-defined]


def test_a_second_account_from_the_same_device_or_address_is_linked(daily: Daily) -> None:
    scout = make_player("scout")
    scouting = _start(_browser(scout, device="dev-shared-0000000000", address="198.51.100.30"))
    _play(scout, scouting, LOG[:10], gap_ms=HUMAN_MS)  # given up after a look
    same_device = _attempt("twin", device="dev-shared-0000000000", address="203.0.113.5")
    assert same_device.fair_play.reasons == ["linked_device"]  # type: ignore[attr-defined]
    same_address = _attempt("flatmate", device="dev-flatmate-00000000", address="198.51.100.30")
    assert same_address.fair_play.reasons == ["linked_address"]  # type: ignore[attr-defined]
    elsewhere = _attempt("stranger", device="dev-stranger-00000000", address="192.0.2.44")
    assert elsewhere.fair_play.reasons == []  # type: ignore[attr-defined]
    kept = AttemptOrigin.objects.get(session=scouting)
    assert "198.51.100.30" not in kept.address and "dev-shared" not in kept.device
    assert kept.address == fair_play.keyed_hash("address", "198.51.100.30")


def test_the_scouts_own_finished_attempt_is_not_linked_by_a_later_account(daily: Daily) -> None:
    """Only accounts that played before an attempt ended count against it: the first is clear."""
    first = _attempt("early", device="dev-house-00000000000", address="198.51.100.40", tokens=LOG[:5])
    _attempt("late", device="dev-house-00000000000", address="198.51.100.40", tokens=LOG[:5])
    first.fair_play.refresh_from_db()  # type: ignore[attr-defined]
    assert first.fair_play.reasons == []  # type: ignore[attr-defined]


def test_practice_and_free_play_are_not_screened(daily: Daily) -> None:
    player = make_player("practiser")
    session, _ = services.start_session(player=player, code=FREE)
    result = _play(player, session, winning_log(FREE), gap_ms=BOT_MS)
    assert not FairPlayReview.objects.filter(result=result).exists()
    assert _ranked(result)


def test_each_action_keeps_the_servers_time_on_the_path_that_stored_it(daily: Daily) -> None:
    player = make_player("timed")
    session, _ = services.start_session(player=player, code=FREE)
    at = session.started_at + dt.timedelta(seconds=3)
    services.apply_action(player=player, session_id=session.id, token=winning_log(FREE)[0], now=at)
    assert GameAction.objects.get(session=session, seq=1).at == at


@pytest.mark.postgres
def test_the_group_commit_statement_keeps_each_actions_time() -> None:
    from games.engine import Game, parse_action
    from games.sessions import play_repository as play
    from games.sessions.live import LiveGame, LiveSession

    player = make_player("grouped")
    session, _ = services.start_session(player=player, code=FREE)
    game = Game.from_code(FREE)
    action = parse_action(winning_log(FREE)[0])
    game.push(action)
    at = session.started_at + dt.timedelta(seconds=7)
    _, values = play.next_row(LiveGame(LiveSession.of(session), game), action, now=at)
    with connection.cursor() as cursor:
        cursor.execute(play.APPEND.many, play.APPEND.gather([values]))
    assert GameAction.objects.get(session=session, seq=1).at == at
