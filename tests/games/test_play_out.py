"""A play-out (POST /api/sessions/{id}/play-out): once every card is face up and the stock is empty
the session document offers it, and the server plays the game out to its win, each action judged
and appended to the log like any other; the result is the replay of that log. Refused in words,
changing nothing, while a card is hidden or when no win is found."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, override_settings

from games import services
from games.engine import Game, replay
from games.models import FairPlayReview, GameAction, GameSession, Result
from games.results.replay_verification import canonical
from games.solver import Solution
from tests.conftest import make_player
from tests.e2e.helpers import todays_dailies_with_russian_on
from tests.games.play_helpers import winning_log

pytestmark = pytest.mark.django_db


def _signed_in(name: str) -> Client:
    browser = Client()
    browser.force_login(make_player(name))
    return browser


def _post(browser: Client, path: str, body: dict[str, Any] | None = None) -> Any:
    return browser.post(path, body or {}, content_type="application/json")


def _open_prefix(code: str) -> list[str]:
    """The winning log's actions up to the first position with every card face up and the stock empty."""
    game = Game.from_code(code)
    played = []
    for token in winning_log(code):
        if game.nothing_hidden:
            return played
        game.apply(token)
        played.append(token)
    raise AssertionError("the log wins before every card is face up")


def _played_to_the_open_position(browser: Client, code: str, **start: str) -> tuple[dict[str, Any], list[str]]:
    started = _post(browser, "/api/sessions", start or {"code": code}).json()
    prefix = _open_prefix(code)
    doc = started
    for at, token in enumerate(prefix, start=1):
        assert not doc["play_out"]  # a card is still hidden
        response = _post(browser, f"/api/sessions/{started['id']}/actions", {"action": token, "at": at})
        assert response.status_code == 200, response.content
        doc = response.json()
    return doc, prefix


@override_settings(RATE_ACTIONS=1000)
@pytest.mark.parametrize("code", ["RU1-C-MFXTMVO", "SD1-S1-HJSZOZN", "SP1-S1C-QTEKPFM"])
def test_a_game_with_every_card_face_up_is_played_out_to_its_verified_win(code: str) -> None:
    browser = _signed_in("closer")
    doc, prefix = _played_to_the_open_position(browser, code)
    assert doc["play_out"] and not doc["finished"]

    answer = _post(browser, f"/api/sessions/{doc['id']}/play-out")
    assert answer.status_code == 200, answer.content
    won = answer.json()
    assert won["finished"] and won["view"]["won"] and won["play_out"] is False and won["legal"] == []
    tokens = list(GameAction.objects.filter(session_id=doc["id"]).order_by("seq").values_list("token", flat=True))
    assert tokens[: len(prefix)] == list(canonical(prefix))
    assert len(tokens) > len(prefix) and won["actions"] == len(tokens)
    # The result is the replay of the whole log, played-out actions and all.
    result = Result.objects.get(session_id=doc["id"])
    assert result.log.split() == tokens and result.won and won["result"]["id"] == result.pk
    replayed = replay(code, tokens)
    assert replayed.ok and replayed.game is not None and replayed.game.won
    assert (result.moves, result.score) == (replayed.game.moves, replayed.game.score)
    # The server played them: they carry no time of the player's.
    times = list(GameAction.objects.filter(session_id=doc["id"]).order_by("seq").values_list("at", flat=True))
    assert all(at is not None for at in times[: len(prefix)]) and all(at is None for at in times[len(prefix) :])
    again = _post(browser, f"/api/sessions/{doc['id']}/play-out")
    assert again.status_code == 409


def test_a_game_that_hides_a_card_is_not_played_out() -> None:
    browser = _signed_in("eager")
    started = _post(browser, "/api/sessions", {"code": "RU1-C-MFXTMVO"}).json()
    assert started["play_out"] is False
    refused = _post(browser, f"/api/sessions/{started['id']}/play-out")
    assert refused.status_code == 409
    error = refused.json()["error"]
    assert error["rule"] == "cards_hidden" and "every card is face up" in error["message"]
    assert GameSession.objects.get(pk=started["id"]).action_count == 0
    assert _post(_signed_in("stranger"), f"/api/sessions/{started['id']}/play-out").status_code == 404


@override_settings(RATE_ACTIONS=1000)
@pytest.mark.parametrize(
    ("status", "words"), [("unknown", "No way to win from here was found"), ("unwinnable", "No line of play wins")]
)
def test_no_win_found_is_a_409_in_words_that_changes_nothing(
    monkeypatch: pytest.MonkeyPatch, status: str, words: str
) -> None:
    browser = _signed_in("unlucky")
    doc, prefix = _played_to_the_open_position(browser, "RU1-C-MFXTMVO")
    monkeypatch.setattr(services, "solve_game", lambda game, budget: Solution(status, (), None, budget, 1))  # type: ignore[arg-type]
    refused = _post(browser, f"/api/sessions/{doc['id']}/play-out")
    assert refused.status_code == 409 and words in refused.json()["error"]["message"]
    session = GameSession.objects.get(pk=doc["id"])
    assert (session.action_count, session.finished) == (len(prefix), False)


@pytest.mark.django_db(transaction=True)
@pytest.mark.unprepared
@override_settings(RATE_ACTIONS=1000, FAIR_PLAY_PACE_ACTIONS=100_000, FAIR_PLAY_PACE_RUN=100_000)
def test_a_daily_attempt_played_out_counts_only_the_players_own_actions_for_its_pace() -> None:
    code = "RU1-C-MFXTMVO"
    todays_dailies_with_russian_on(code)
    browser = _signed_in("daily-closer")
    doc, prefix = _played_to_the_open_position(browser, code, daily="RU1-C")
    assert doc["ranked"] and doc["code"] is None and doc["play_out"]
    won = _post(browser, f"/api/sessions/{doc['id']}/play-out").json()
    assert won["finished"] and won["result"]["won"]
    review = FairPlayReview.objects.get(result__session_id=doc["id"])
    assert review.signals["pace"]["actions"] == len(prefix) < won["actions"]
