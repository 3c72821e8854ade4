"""The live cache keeps its own copies: what a caller goes on changing is never what others read."""

from __future__ import annotations

import dataclasses

import pytest

from games import live
from games.engine import Undo
from games.live import LiveSession
from games.models import GameSession
from games.services import start_session
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


def _cached_after_three_moves() -> tuple[GameSession, live.LiveGame, tuple[tuple[int, ...], ...]]:
    """A new session whose cached game has played three moves: the session, the entry put back, its undo records."""
    started, _ = start_session(player=make_player(), code="SP1-S1C-AAAAAAA")
    entry = live.take(started.id)
    assert entry is not None
    for _ in range(3):
        entry.game.push(entry.game.legal_actions()[0])
    records = entry.game.undo_records()
    live.put(entry.session, entry.game)
    return started, entry, records


def test_a_cached_game_gives_back_its_undo_history_to_a_writer_and_to_a_reader() -> None:
    started, entry, records = _cached_after_three_moves()
    row = GameSession.objects.select_related("stored_code").get(id=started.id)
    assert live.game_for(row).undo_records() == records  # the reader's copy can undo what was played
    taken = live.take(started.id)
    assert taken is not None and taken.game.undo_records() == records
    taken.game.push(Undo())
    assert taken.game.undo_records() == records[:-1] and taken.game.undo_available == 2


@pytest.mark.parametrize("hot", [True, False])
def test_an_entry_out_of_the_hot_few_keeps_its_history_pickled_and_gives_all_of_it_back(
    hot: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(live, "HOT", 1)
    started, entry, records = _cached_after_three_moves()
    if not hot:
        other, _ = start_session(player=make_player("other"), code="SP1-S1C-AAAAAAA")  # put after: the hot one
        assert live._entries[other.id].history is None
    kept = live._entries[started.id]
    assert (kept.history is None) is hot  # a game played now is not pickled on each action
    assert (kept.game.undo_records() == records) is hot and kept.game is not entry.game
    row = GameSession.objects.select_related("stored_code").get(id=started.id)
    read = live.game_for(row)
    assert read.undo_records() == records and read is not kept.game  # a reader's own copy, all of it
    taken = live.take(started.id)
    assert taken is not None and taken.game.undo_records() == records
    taken.game.push(Undo())
    assert taken.game.undo_records() == records[:-1]
