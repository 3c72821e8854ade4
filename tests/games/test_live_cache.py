"""The live cache keeps its own copies: what a caller goes on changing is never what others read."""

from __future__ import annotations

import pytest

from games import live
from games.services import start_session
from tests.conftest import make_player

pytestmark = pytest.mark.django_db


def test_put_keeps_copies_of_the_session_and_the_game() -> None:
    started, _ = start_session(player=make_player(), code="SP1-S1C-AAAAAAA")
    session, game = live.take(started.id)  # type: ignore[misc]  (a new session's game is cached)
    live.put(session, game)
    session.action_count = 99
    session.deal.code = "changed by the caller"  # related rows are shared, as copy.copy shares them
    game.push(game.legal_actions()[0])
    kept_session, kept_game = live.take(session.id)  # type: ignore[misc]
    assert kept_session is not session and kept_session.action_count == 0
    assert kept_session.deal is session.deal and kept_session.player_id == session.player_id
    assert kept_session._state is not session._state and kept_session._state.db == session._state.db
    assert kept_game is not game and kept_game.moves == 0 and game.moves == 1
    kept_session.save(update_fields=["score"])  # a copy is still a model instance the ORM can save
