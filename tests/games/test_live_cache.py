"""The live cache keeps its own copies: what a caller goes on changing is never what others read."""

from __future__ import annotations

import dataclasses

import pytest

from games.engine import Action, Undo
from games.models import GameSession
from games.services import start_session
from games.sessions import live
from games.sessions.live import LiveSession
from tests.conftest import make_player

pytestmark = pytest.mark.django_db


def test_put_keeps_a_copy_of_the_game_beside_a_frozen_session() -> None:
    started, _ = start_session(player=make_player(), code="SP1-S1C-AAAAAAA")
    entry = live.take(started.id)
    assert entry is not None  # a new session's game is cached
    live.put(entry.session, entry.game)
    entry.game.push(entry.game.legal_actions()[0])
    kept = live.take(started.id)
    assert kept is not None and kept.game is not entry.game and kept.game.moves == 0 and entry.game.moves == 1
    assert kept.session == LiveSession.of(GameSession.objects.select_related("stored_code", "daily").get(id=started.id))
    assert (kept.session.player_id, kept.session.code, kept.session.action_count) == (
        started.player_id,
        "SP1-S1C-AAAAAAA",
        0,
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        kept.session.action_count = 99  # type: ignore[misc]  # nobody can change what the cache holds


def test_a_reader_gets_the_cached_game_only_for_the_log_length_it_reflects() -> None:
    started, _ = start_session(player=make_player(), code="SP1-S1C-AAAAAAA")
    entry = live.take(started.id)
    assert entry is not None
    entry.game.push(entry.game.legal_actions()[0])
    live.put(entry.session, entry.game)  # an entry at length 0 holding a game with a move: tells them apart
    row = GameSession.objects.select_related("stored_code").get(id=started.id)
    assert live.game_for(row).moves == 1  # same length as the row: the cached game, as a copy
    assert live.game_for(row) is not live.game_for(row)
    GameSession.objects.filter(id=started.id).update(action_count=1)  # another worker moved it on
    moved = GameSession.objects.select_related("stored_code").get(id=started.id)
    assert live.game_for(moved).moves == 0  # replayed from the stored log (empty here), not trusted


def _cached_after_three_moves() -> tuple[GameSession, list[Action]]:
    """A new session whose cached game has played three moves: the session and the moves, in order."""
    started, _ = start_session(player=make_player(), code="SP1-S1C-AAAAAAA")
    entry = live.take(started.id)
    assert entry is not None
    played = []
    for _ in range(3):
        played.append(entry.game.legal_actions()[0])
        entry.game.push(played[-1])
    live.put(entry.session, entry.game)
    return started, played


def test_a_cached_game_gives_back_its_undo_history_to_a_writer_and_to_a_reader() -> None:
    started, played = _cached_after_three_moves()
    row = GameSession.objects.select_related("stored_code").get(id=started.id)
    read = live.game_for(row)
    assert [read.pop() for _ in played] == played[::-1]  # the reader's copy can undo what was played
    taken = live.take(started.id)
    assert taken is not None and taken.game.undo_available == 3  # the reader's undos were its own
    taken.game.push(Undo())
    assert taken.game.undo_available == 2 and taken.game.peek() == played[1]


def test_a_played_session_counts_the_action_and_keeps_every_other_field() -> None:
    started, _ = start_session(player=make_player(), code="SP1-S1C-AAAAAAA")
    game = live.game_for(started)
    counters = {"action_count": 0, "score": 500, "moves": 0, "progress": 0, "won": False, "undos": 0}
    # Every other field a value of its own, so that one left behind or mixed up is seen.
    others = {field.name: object() for field in dataclasses.fields(LiveSession) if field.name not in counters}
    session = LiveSession(**others, **counters)  # type: ignore[arg-type]
    game.push(game.legal_actions()[0])
    moved = session.played(game, undo=False)
    game.push(Undo())
    undone = moved.played(game, undo=True)
    for name, value in others.items():
        assert getattr(moved, name) is value and getattr(undone, name) is value, name
    assert (moved.action_count, moved.moves, moved.score, moved.undos) == (1, 1, 499, 0)
    assert (undone.action_count, undone.moves, undone.score, undone.undos) == (2, game.moves, game.score, 1)
