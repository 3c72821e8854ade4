"""A hint (POST /api/sessions/{id}/hint): a legal next action from what the player sees, counted on
the session and its result like an undo, so that a hinted game is not clean (docs/ranking.md); none
in a ranked blind deal, where the answer and the session document say why in the player's words."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client, override_settings
from django.utils import timezone

from games import services
from games.engine import Game
from games.models import GameSession, Player, Result
from games.rooms import rooms
from games.sessions import live
from leaderboard.models import BoardEntry, PlayerStats
from tests.conftest import make_player
from tests.games.play_helpers import card_mentions, winning_log

pytestmark = pytest.mark.django_db

RUSSIAN_WIN = "RU1-C-MFXTMVO"  # its winning log has no undo


def _signed_in(name: str, language: str = "en") -> tuple[Client, Player]:
    player = make_player(name)
    browser = Client(HTTP_ACCEPT_LANGUAGE=language)
    browser.force_login(player)
    return browser, player


def _post(browser: Client, path: str, body: dict[str, Any] | None = None) -> Any:
    return browser.post(path, body or {}, content_type="application/json")


def _start(browser: Client, **choice: str) -> dict[str, Any]:
    answer = _post(browser, "/api/sessions", choice)
    assert answer.status_code in (200, 201), answer.content
    return dict(answer.json())


def _play(browser: Client, session_id: str, tokens: list[str]) -> dict[str, Any]:
    answer: dict[str, Any] = {}
    for token in tokens:
        response = _post(browser, f"/api/sessions/{session_id}/actions", {"action": token})
        assert response.status_code == 200, response.content
        answer = response.json()
    return answer


@override_settings(RATE_ACTIONS=1000)
def test_a_hint_names_a_legal_action_is_counted_and_its_game_ranks_only_on_the_board_not_the_clean_twin() -> None:
    hinted, hinter = _signed_in("hinter")
    started = _start(hinted, code=RUSSIAN_WIN)
    assert (started["hints"], started["hint_refusal"]) == (0, None)

    answer = _post(hinted, f"/api/sessions/{started['id']}/hint")
    assert answer.status_code == 200, answer.content
    hint = answer.json()
    assert hint["action"] in started["legal"] and hint["hints"] == 1
    assert hint["reason"] in ("home", "turns_card", "builds_suit", "empties_column", "deal", "fills_for_deal")
    # Where it is on the table, as the token says it.
    if hint["reason"] == "home":
        assert (hint["action"], hint["count"], hint["foundation"]) == (f"{hint['column']}>F", 1, True)
    else:
        assert hint["action"] == f"{hint['column']}:{hint['count']}>{hint['target']}"
    assert hint["message"] and card_mentions(hint) == 0  # it names columns, never a card
    assert _post(hinted, f"/api/sessions/{started['id']}/hint").json()["hints"] == 2
    live.clear()  # another process: the count is stored, not only remembered
    assert hinted.get(f"/api/sessions/{started['id']}").json()["hints"] == 2

    won = _play(hinted, started["id"], winning_log(RUSSIAN_WIN))
    assert won["finished"] and won["result"]["won"] and won["hints"] == 2
    assert (won["result"]["hints"], won["result"]["undos"]) == (2, 0)
    assert won["result"]["rank"] == 1 and won["result"]["clean_rank"] is None
    result = Result.objects.get(player=hinter)
    assert result.hints == 2 and not result.is_clean

    plain, player = _signed_in("plain")
    _play(plain, _start(plain, code=RUSSIAN_WIN)["id"], winning_log(RUSSIAN_WIN))
    board = f"code:{RUSSIAN_WIN}"
    entries = sorted(BoardEntry.objects.values_list("board", "player__username"))
    assert entries == [(board, "hinter"), (board, "plain"), (f"{board}:clean", "plain")]
    stats = {s.player_id: s for s in PlayerStats.objects.all()}
    assert (stats[hinter.pk].wins, stats[hinter.pk].clean_wins) == (1, 0)
    assert (stats[player.pk].wins, stats[player.pk].clean_wins) == (1, 1)


def _hints_to_their_end(code: str) -> list[str]:
    """The actions of hints followed from the deal until none is left (and the game not won)."""
    game = Game.from_code(code)
    tokens = []
    while (hint := game.hint()) is not None:
        game.push(hint.action)
        tokens.append(str(hint.action))
    assert not game.won
    return tokens


@override_settings(RATE_ACTIONS=1000)
def test_an_answer_that_names_no_action_says_so_and_is_not_counted() -> None:
    browser, _ = _signed_in("stuck")
    code = "SD1-S4-AAAAAAA"
    started = _start(browser, code=code)
    _play(browser, started["id"], _hints_to_their_end(code))
    answer = _post(browser, f"/api/sessions/{started['id']}/hint").json()
    assert answer["action"] is None and answer["reason"] is None and answer["hints"] == 0
    assert answer["message"] == "No move takes the game forward now: try one of your own, or undo."
    assert GameSession.objects.get(pk=started["id"]).hints == 0


@pytest.mark.usefixtures("prepared_dailies")
def test_no_hint_in_a_daily_attempt_and_its_document_says_why_in_the_players_language() -> None:
    browser, player = _signed_in("loyal", language="fi")
    started = _start(browser, daily="SP1-S1C")
    assert started["ranked"] and started["hint_refusal"]
    refused = _post(browser, f"/api/sessions/{started['id']}/hint")
    assert refused.status_code == 409
    error = refused.json()["error"]
    assert error["rule"] == "no_hints_blind" and error["message"] == started["hint_refusal"]
    assert error["message"].startswith("Ei vihjeitä")  # Finnish, as the player asked
    assert GameSession.objects.get(pk=started["id"]).hints == 0

    # Practice on the same daily is no competition: it gives hints.
    services.finish_session(player=player, session_id=started["id"])
    practice = _start(browser, daily="SP1-S1C")
    assert practice["ranked"] is False and practice["hint_refusal"] is None
    assert _post(browser, f"/api/sessions/{practice['id']}/hint").status_code == 200


def test_no_hint_in_a_race_on_a_hidden_fresh_deal() -> None:
    browser, host = _signed_in("host", language="hr")
    rooms.join_room(room_id=(room := rooms.create_room(host=host, variant="SD1-S1")).pk, player=make_player("racer"))
    rooms.start_room(room_id=room.pk, player=host, now=timezone.now() - dt.timedelta(seconds=5))
    session = GameSession.objects.get(player=host, in_room=True)
    refused = _post(browser, f"/api/sessions/{session.pk}/hint")
    assert refused.status_code == 409 and refused.json()["error"]["rule"] == "no_hints_blind"
    assert refused.json()["error"]["message"].startswith("Nema savjeta")  # Croatian


def test_a_hint_on_a_finished_game_or_on_another_players_is_refused() -> None:
    browser, player = _signed_in("owner")
    started = _start(browser, code="SP1-S4C-AAAAAAA")
    other, _ = _signed_in("other")
    assert _post(other, f"/api/sessions/{started['id']}/hint").status_code == 404
    assert _post(browser, "/api/sessions/not-a-session/hint").status_code == 404
    services.finish_session(player=player, session_id=started["id"])
    refused = _post(browser, f"/api/sessions/{started['id']}/hint")
    assert refused.status_code == 409 and "over" in refused.json()["error"]["message"]
    assert GameSession.objects.get(pk=started["id"]).hints == 0


def test_a_hint_given_elsewhere_reaches_this_processs_copy_with_the_next_action(
    django_capture_on_commit_callbacks: Any,
) -> None:
    browser, _ = _signed_in("roamer")
    started = _start(browser, code="SP1-S4C-AAAAAAA")
    with django_capture_on_commit_callbacks(execute=True):
        assert _post(browser, f"/api/sessions/{started['id']}/hint").json()["hints"] == 1
    cached = live.take(GameSession.objects.get(pk=started["id"]).pk)
    assert cached is not None and cached.session.hints == 1  # this process's copy counts it too
    live.put(cached.session, cached.game)
    # Another worker gives a hint: only the stored row knows of it, and the next append returns it.
    GameSession.objects.filter(pk=started["id"]).update(hints=5)
    moved = _play(browser, started["id"], [started["legal"][0]])
    assert moved["hints"] == 5
