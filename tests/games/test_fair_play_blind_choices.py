"""Blind choices (games.dailies.blind_choices, docs/dailies.md "Fair play"): where a player chose which of
several face-down cards to turn, how often the card opened the next one, against the luck of a
player who cannot see the cards; a log that always picks the lucky hidden card against one that
never does, and the signal stored with a daily result and holding it past its line."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone

from games import services
from games.dailies import blind_choices
from games.dailies.schedule import utc_today
from games.engine import DealRow, Game, Move
from games.models import GameSession, Result
from tests.conftest import make_player
from tests.leaderboard.factories import daily_of

CODE = "SD1-S1-HJSZOZN"


def chosen_by_the_hidden_cards(code: str, *, lucky: bool, cap: int = 150) -> list[str]:
    """A game played knowing the hidden cards: where moves could turn face-down cards in two or more
    columns, the one whose card is lucky (or, `lucky=False`, one whose card is not); elsewhere a
    turn if there is one, else the first move to a position not seen yet."""
    game = Game.from_code(code)
    tokens: list[str] = []
    seen: set[str] = set()
    while not game.won and len(tokens) < cap:
        columns = game.view()["columns"]
        legal = [action for action in game.legal_actions() if str(action) != "U"]
        turning = [
            a
            for a in legal
            if type(a) is Move and columns[a.source - 1]["down"] and a.count == len(columns[a.source - 1]["up"])
        ]

        def fresh(action: object) -> bool:
            trial = game.copy()
            trial.push(action)  # type: ignore[arg-type]
            return repr(trial.view()) not in seen

        if len({a.source for a in turning}) >= 2:
            before = blind_choices.read(code, tokens).lucky
            luck = [(blind_choices.read(code, [*tokens, str(a)]).lucky > before, a) for a in turning]
            pick = next((a for is_lucky, a in luck if is_lucky == lucky), turning[0])
        elif turning:
            pick = turning[0]
        else:
            others = [a for a in legal if fresh(a) and type(a) is not DealRow] or [a for a in legal if fresh(a)]
            if not others:
                break
            pick = others[0]
        game.push(pick)
        tokens.append(str(pick))
        seen.add(repr(game.view()))
    return tokens


LUCKY = chosen_by_the_hidden_cards(CODE, lucky=True)
UNLUCKY = chosen_by_the_hidden_cards(CODE, lucky=False)


def test_the_odds_are_those_of_a_player_who_cannot_see_the_cards() -> None:
    coin = blind_choices.Turns()
    for _ in range(10):
        coin = coin.add(fits=True, chance=0.5)
    assert coin.count == 10 and coin.expected == 5 and coin.odds() == pytest.approx(1 / 1024)
    mixed = blind_choices.Turns().add(fits=True, chance=0.2).add(fits=False, chance=0.6)
    assert mixed.odds() == pytest.approx(1 - 0.8 * 0.4)  # at least one lucky: all but none
    assert blind_choices.Turns().odds() == 1.0  # no blind choice: nothing to tell


def test_a_log_that_picks_the_lucky_hidden_card_is_luckier_than_chance_and_one_that_does_not_is_not() -> None:
    lucky = blind_choices.read(CODE, LUCKY).document()
    unlucky = blind_choices.read(CODE, UNLUCKY).document()
    # Lucky wherever the hidden cards allowed (once no card in reach was lucky).
    assert lucky["count"] >= 5 and lucky["lucky"] >= lucky["count"] - 1 and lucky["lucky"] > lucky["expected"] + 1.5
    assert lucky["odds"] < 0.15
    assert unlucky["count"] >= 2 and unlucky["lucky"] == 0 and unlucky["odds"] == 1.0


def test_choosing_by_what_is_face_up_alone_is_never_suspiciously_lucky() -> None:
    """A player who always turns the leftmost column it can is lucky about as often as chance says."""
    game = Game.from_code(CODE)
    tokens: list[str] = []
    while len(tokens) < 60:
        columns = game.view()["columns"]
        legal = [a for a in game.legal_actions() if str(a) != "U"]
        turning = [
            a
            for a in legal
            if type(a) is Move and columns[a.source - 1]["down"] and a.count == len(columns[a.source - 1]["up"])
        ]
        pick = min(turning, key=lambda a: a.source) if turning else next((a for a in legal if type(a) is DealRow), None)
        if pick is None:
            break
        game.push(pick)
        tokens.append(str(pick))
    reading = blind_choices.read(CODE, tokens)
    assert reading.count >= 3 and reading.odds() > 0.05


@pytest.mark.django_db
@pytest.mark.usefixtures("unlimited_actions")
def test_the_signal_is_stored_with_the_daily_result_and_holds_it_past_its_line(settings) -> None:  # type: ignore[no-untyped-def]
    daily_of(utc_today(timezone.now()), "SD1-S1", CODE)
    settings.FAIR_PLAY_BLIND_CHOICES = 5
    settings.FAIR_PLAY_BLIND_ODDS = 0.15  # below it: the lucky log, for this test only
    results = {}
    for name, tokens in (("seer", LUCKY), ("guesser", UNLUCKY)):
        player = make_player(name)
        browser = Client(REMOTE_ADDR=f"198.51.100.{len(results) + 70}")
        browser.force_login(player)
        answer = browser.post("/api/sessions", {"daily": "SD1-S1"}, content_type="application/json")
        session = GameSession.objects.get(pk=answer.json()["id"])
        at = session.started_at
        for token in tokens:
            at += dt.timedelta(seconds=2)
            services.apply_action(player=player, session_id=session.id, token=token, now=at)
        session.refresh_from_db()
        if not session.finished:
            services.finish_session(player=player, session_id=session.id, now=at + dt.timedelta(seconds=1))
        results[name] = Result.objects.select_related("fair_play").get(session=session)
    seer, guesser = results["seer"].fair_play, results["guesser"].fair_play  # type: ignore[attr-defined]
    assert seer.reasons == ["blind_luck"] and seer.status == "held"
    assert seer.signals["blind_choices"] == blind_choices.read(CODE, LUCKY).document()
    assert guesser.reasons == [] and guesser.signals["blind_choices"]["lucky"] == 0
