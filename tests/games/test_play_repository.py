"""Play's repository: a game loaded from the cache or the stored log, an append that says plainly
when the stored log moved on, and an action judged on the stored state when this process's copy
is behind another worker's."""

from __future__ import annotations

import pytest

from games.engine import Game, Undo
from games.models import GameAction, GameSession, Player
from games.services import RACED, apply_action, start_session
from games.sessions import live
from games.sessions import play_repository as play
from games.sessions.live import LiveGame
from games.sessions.play_repository import Appended, LogMovedOn
from tests.conftest import make_player
from web.errors import Conflict, NotFound

pytestmark = pytest.mark.django_db

CODE = "SD1-S4-AAAAAAA"


def _legal(game: Game) -> list[str]:
    return [str(action) for action in game.legal_actions() if not isinstance(action, Undo)]


def _stored_log(session: GameSession) -> list[str]:
    return list(GameAction.objects.filter(session=session).order_by("seq").values_list("token", flat=True))


def _as_another_worker(player: Player, session: GameSession, token: str) -> LiveGame:
    """Play `token` as a second process would, and leave this process's cache as it was before it:
    behind the stored log by one action."""
    behind = live.take(session.id)
    assert behind is not None
    apply_action(player=player, session_id=session.id, token=token)  # from the stored log (no entry)
    live.put(behind.session, behind.game)
    return behind


def test_append_says_the_log_moved_on_and_writes_nothing() -> None:
    player = make_player()
    session, _ = start_session(player=player, code=CODE)
    first, second = _legal(Game.from_code(CODE))[:2]
    stale = _as_another_worker(player, session, first)

    current = play.load(session.id, player)
    assert not current.stored and current.session.action_count == 0  # this process's copy, behind
    action = current.game.apply(second)
    assert play.append(current, action) == LogMovedOn()
    assert _stored_log(session) == [first]

    reloaded = play.load(session.id, player, stored=True)
    assert reloaded.stored and reloaded.session.action_count == 1
    action = reloaded.game.apply(_legal(reloaded.game)[0])
    appended = play.append(reloaded, action)
    assert isinstance(appended, Appended) and appended.live.session.action_count == 2
    assert appended.live.session.code_secret is False
    assert _stored_log(session) == [first, str(action)]
    assert stale.session.action_count == 0  # what a caller held is never changed behind it


def test_a_second_process_with_a_stale_cache_judges_on_the_stored_state_without_losing_or_doubling() -> None:
    player = make_player()
    session, _ = start_session(player=player, code=CODE)
    first = _legal(Game.from_code(CODE))[0]
    _as_another_worker(player, session, first)
    after_first = Game.from_code(CODE)
    after_first.apply(first)
    following = _legal(after_first)[0]

    played = apply_action(player=player, session_id=session.id, token=following)  # this copy is behind
    assert played.session.action_count == 2 and played.game.moves == after_first.moves + 1
    assert _stored_log(session) == [first, following]
    again = apply_action(player=player, session_id=session.id, token=following, at=2)  # a resend: answered
    assert again.session.action_count == 2 and _stored_log(session) == [first, following]


def test_an_action_refused_on_a_stale_copy_is_judged_again_on_the_stored_log() -> None:
    player = make_player()
    session, _ = start_session(player=player, code=CODE)
    start = Game.from_code(CODE)
    # A first action after which something is legal that was not legal before it.
    for first in _legal(start):
        after = Game.from_code(CODE)
        after.apply(first)
        newly = [token for token in _legal(after) if token not in _legal(start)]
        if newly:
            break
    else:
        pytest.fail(f"no action of {CODE} opens another")
    _as_another_worker(player, session, first)
    played = apply_action(player=player, session_id=session.id, token=newly[0])
    assert played.session.action_count == 2 and _stored_log(session) == [first, newly[0]]


def test_a_resend_for_a_position_this_copy_has_not_seen_is_applied_once() -> None:
    player = make_player()
    session, _ = start_session(player=player, code=CODE)
    first = _legal(Game.from_code(CODE))[0]
    _as_another_worker(player, session, first)
    after = Game.from_code(CODE)
    after.apply(first)
    second = _legal(after)[0]
    assert apply_action(player=player, session_id=session.id, token=second, at=2).session.action_count == 2
    assert apply_action(player=player, session_id=session.id, token=second, at=2).session.action_count == 2
    assert _stored_log(session) == [first, second]


def test_a_log_that_moves_on_under_both_tries_is_a_conflict(monkeypatch: pytest.MonkeyPatch) -> None:
    player = make_player()
    session, _ = start_session(player=player, code=CODE)
    tries: list[int] = []

    def moved_on(current: LiveGame, action: object, **_: object) -> LogMovedOn:
        tries.append(current.session.action_count)
        return LogMovedOn()

    monkeypatch.setattr(play, "append", moved_on)
    with pytest.raises(Conflict) as refused:
        apply_action(player=player, session_id=session.id, token=_legal(Game.from_code(CODE))[0])
    assert str(refused.value) == RACED and tries == [0, 0]  # the cached copy, then the stored state: no more
    assert _stored_log(session) == []


def test_another_players_session_is_missing_whether_cached_or_not() -> None:
    owner, other = make_player(), make_player("bob")
    session, _ = start_session(player=owner, code=CODE)
    for _ in range(2):
        with pytest.raises(NotFound):
            play.load(session.id, other)
        live.forget(session.id)
    assert play.load(session.id, owner).session.player_id == owner.pk
