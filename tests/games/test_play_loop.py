"""The play socket's common action on the event loop (games/sessions/play_loop.py): it answers what the
database thread answers, commits before it answers, groups appends into one commit (web.storage,
web.group_commit) without letting one session's moved-on log or one failed statement take the
others down, and a socket whose sign-in it keeps is still closed once its player is signed out."""

from __future__ import annotations

import asyncio
import datetime as dt
import uuid
from typing import Any

import psycopg
import pytest
import redis
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import DataError, connection
from django.utils import timezone
from rest_framework.authtoken.models import Token

from accounts import token_auth
from config.asgi import application
from games import services
from games.models import GameAction, GameSession, Player
from games.sessions import live
from games.sessions import play_repository as play
from tests.conftest import make_player
from tests.games.play_helpers import follow
from tests.security.snapshot import snapshot
from web import group_commit, storage
from web.sockets import sign_ins

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("socket_cleanup"),
    pytest.mark.postgres,
    pytest.mark.redis,
]
ORIGIN = (b"origin", b"http://127.0.0.1")
HOST = (b"host", b"127.0.0.1")
CODE = "SD1-S4-AAAAAAA"
# What differs between two sessions on one deal played alike: their ids and their clocks.
_OWN = {"type", "id", "started_at", "elapsed_ms"}


def prepare(sessions: int = 1) -> tuple[Player, str, list[GameSession]]:
    player = make_player("sam")
    started = [services.start_session(player=player, code=CODE)[0] for _ in range(sessions)]
    return player, Token.objects.create(user=player).key, started


async def listening() -> None:
    """The revocations' subscription is up (the token cache's listener thread): sign-ins are kept."""
    token_auth.local_cache()
    for _ in range(500):
        if sign_ins.is_listening():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the token cache never subscribed to the revocations")


async def open_socket(session: GameSession, token: str) -> tuple[WebsocketCommunicator, dict[str, Any]]:
    headers = [ORIGIN, HOST, (b"authorization", f"Token {token}".encode())]
    socket = WebsocketCommunicator(application, f"/ws/play/{session.id}/", headers=headers)
    assert (await socket.connect(timeout=5))[0]
    hello = await socket.receive_json_from(timeout=5)
    assert hello["type"] == "session"
    return socket, hello


async def act(
    socket: WebsocketCommunicator, token: str, at: int | None = None, seen: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The answer to an action: a refusal as sent, else the document the client holds after it
    (`seen` with the delta merged in, as the browser does)."""
    await socket.send_json_to({"type": "action", "action": token, **({"at": at} if at else {})})
    frame = dict(await socket.receive_json_from(timeout=5))
    return frame if frame["type"] == "error" or seen is None else follow(seen, frame)


def threaded(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The session ids of the actions that went to apply_action on a database thread."""
    calls: list[str] = []
    apply_action = services.apply_action

    def spy(**kwargs: Any) -> Any:
        calls.append(str(kwargs["session_id"]))
        return apply_action(**kwargs)

    monkeypatch.setattr(services, "apply_action", spy)
    return calls


def stored_count(session_id: uuid.UUID) -> tuple[int, int]:
    return GameSession.objects.get(pk=session_id).action_count, GameAction.objects.filter(session_id=session_id).count()


async def test_the_loop_answers_what_the_database_thread_answers_and_after_the_commit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, token, (fast, slow) = await database_sync_to_async(prepare)(2)
    calls = threaded(monkeypatch)
    await listening()
    fast_socket, fast_seen = await open_socket(fast, token)
    slow_socket, slow_seen = await open_socket(slow, token)
    for at in range(1, 9):
        move = fast_seen["legal"][0]
        fast_seen = await act(fast_socket, move, at, fast_seen)
        assert await database_sync_to_async(stored_count)(fast.id) == (at, at)  # stored when answered
        live.forget(slow.id)  # a cache miss: the database thread judges on the stored state
        slow_seen = await act(slow_socket, move, at, slow_seen)
        assert {k: v for k, v in fast_seen.items() if k not in _OWN} == {
            k: v for k, v in slow_seen.items() if k not in _OWN
        }
    assert await act(fast_socket, "1:1>1") == await act(slow_socket, "1:1>1")  # a refusal, worded alike
    # The fast socket's first action asked whether it is signed in; its refusal is judged on the
    # stored state too (the cached copy may be behind). Every other action stayed on the loop.
    assert calls.count(str(fast.id)) == 2 and calls.count(str(slow.id)) == 9
    await fast_socket.disconnect()
    await slow_socket.disconnect()


async def test_an_action_refused_on_the_loop_changes_nothing(monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    _, token, (session,) = await database_sync_to_async(prepare)()
    calls = threaded(monkeypatch)
    await listening()
    socket, seen = await open_socket(session, token)
    seen = await act(socket, seen["legal"][0], 1, seen)
    settings.RATE_ACTIONS = 0  # the next action is over this game's budget
    before = await database_sync_to_async(snapshot)()
    refused = await act(socket, seen["legal"][0], 2)
    assert refused["type"] == "error" and refused["status"] == 429
    assert await database_sync_to_async(snapshot)() == before
    assert calls == [str(session.id)]  # refused on the loop: only the first action left it
    settings.RATE_ACTIONS = 100
    assert (await act(socket, seen["legal"][0], 2))["actions"] == 2  # the game was left as it was
    await socket.disconnect()


def _append_values(sessions: list[GameSession], player: Player) -> list[play.AppendValues]:
    """The append of each session's first legal action, as the play socket would send it."""
    values = []
    for session in sessions:
        current = play.load(session.id, player)
        action = services.judge(current.session, current.game, str(current.game.legal_actions()[0]), timezone.now())
        values.append(play.next_row(current, action)[1])
        live.forget(session.id)  # judged on a copy: the cache stays as stored
    return values


async def test_a_batch_commits_the_sessions_whose_log_did_not_move_on() -> None:
    player, _, sessions = await database_sync_to_async(prepare)(3)
    first, second, moved = await database_sync_to_async(_append_values)(sessions, player)
    assert await storage.commit_row(play.APPEND, moved) is not None  # another worker's append
    rows = await asyncio.gather(*(storage.commit_row(play.APPEND, v) for v in (first, moved, second)))
    assert rows[0] is not None and rows[1] is None and rows[2] is not None
    counts = [await database_sync_to_async(stored_count)(session.id) for session in sessions]
    assert counts == [(1, 1), (1, 1), (1, 1)]  # the moved-on log got nothing more
    for written in (first, second):  # each value of a batched append is stored where it belongs
        assert await database_sync_to_async(stored_append)(written["id"]) == {
            key: written[key] for key in ("count", "token", "score", "moves", "progress", "won", "undos")
        }


def stored_append(session_id: uuid.UUID) -> dict[str, object]:
    session = GameSession.objects.get(pk=session_id)
    token = GameAction.objects.get(session_id=session_id, seq=session.action_count).token
    return {
        "count": session.action_count,
        "token": token,
        "score": session.score,
        "moves": session.moves,
        "progress": session.progress,
        "won": session.won,
        "undos": session.undos,
    }


# A statement alone or many at once, with the transaction it ran in, and one that fails on a zero.
TXID = group_commit.Statement(
    one="SELECT txid_current(), 1 / %(n)s",
    many="SELECT n, txid_current(), 1 / n FROM unnest(%(n)s::int[]) AS n",
    gather=lambda writes: {"n": [write["n"] for write in writes]},
    key=lambda write: write["n"],
)


async def test_writes_arriving_together_share_one_transaction() -> None:
    together = await asyncio.gather(*(storage.commit_row(TXID, {"n": n}) for n in (1, 2, 3)))
    alone = await storage.commit_row(TXID, {"n": 4})
    assert alone is not None and all(row is not None for row in together)
    assert len({row[0] for row in together if row is not None}) == 1
    assert alone[0] != together[0][0]  # type: ignore[index]


async def test_a_failing_write_fails_only_itself() -> None:
    player, _, sessions = await database_sync_to_async(prepare)(2)
    first, second = await database_sync_to_async(_append_values)(sessions, player)
    answers = await asyncio.gather(
        storage.commit_row(play.APPEND, first),
        storage.commit_row(TXID, {"n": 0}),
        storage.commit_row(TXID, {"n": 1}),
        storage.commit_row(play.APPEND, second),
        return_exceptions=True,
    )
    assert isinstance(answers[1], DataError) and isinstance(answers[1].__cause__, psycopg.errors.DivisionByZero)
    written = (answers[0], answers[2], answers[3])
    assert all(answer is not None and not isinstance(answer, BaseException) for answer in written)
    counts = [await database_sync_to_async(stored_count)(session.id) for session in sessions]
    assert counts == [(1, 1), (1, 1)]


async def test_scripts_arriving_together_share_one_transaction_and_a_failing_one_fails_alone() -> None:
    scripts = [[("SELECT txid_current()", []), ("SELECT %s::int * 2", [n]), ("SELECT 1 / %s", [n])] for n in (1, 0, 3)]
    answers = await asyncio.gather(*(storage.commit_each(script) for script in scripts), return_exceptions=True)
    assert isinstance(answers[1], DataError)  # its own error, and only its own
    first, third = answers[0], answers[2]
    assert isinstance(first, list) and isinstance(third, list)
    assert [row[0] for row in first[1:]] == [2, 1] and [row[0] for row in third[1:]] == [6, 0]  # type: ignore[index]
    # Retried one by one after the failure: each its own transaction then; together at first they shared one.
    together = await asyncio.gather(*(storage.commit_each(script) for script in (scripts[0], scripts[2])))
    assert together[0][0] == together[1][0]


def _revoke_elsewhere(token: str, player: Player) -> None:
    """What another process's log-out does here: the row goes (no signal in this process), and the
    publication arrives through Redis."""
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM authtoken_token WHERE key = %s", [token])
    client = redis.Redis.from_url(token_auth.settings.REDIS_URL, decode_responses=True)
    client.set(token_auth.cache_key(token), token_auth._TOMBSTONE, ex=token_auth.TOMBSTONE_SECONDS)
    client.publish(token_auth.channel(), f"{token_auth.cache_key(token)} {sign_ins.player_name(player.pk)}")


async def test_a_kept_sign_in_ends_with_a_revocation_from_another_process(monkeypatch: pytest.MonkeyPatch) -> None:
    player, token, (session,) = await database_sync_to_async(prepare)()
    calls = threaded(monkeypatch)
    await listening()
    socket, seen = await open_socket(session, token)
    for at in (1, 2):
        seen = await act(socket, seen["legal"][0], at, seen)
    assert calls == [str(session.id)]  # the second action's sign-in was the kept one
    witness = sign_ins.SignIn(player.pk)  # lapses with the socket's, when the publication is heard
    witness.arm(witness.arming(), timezone.now() + dt.timedelta(hours=1))
    await database_sync_to_async(_revoke_elsewhere)(token, player)
    for _ in range(500):
        if not witness.holds():
            break
        await asyncio.sleep(0.01)
    before = await database_sync_to_async(snapshot)()
    refused = await act(socket, seen["legal"][0], 3)
    assert refused["type"] == "error" and refused["status"] == 401
    assert await socket.receive_output(timeout=5) == {"type": "websocket.close", "code": 4401}
    assert await database_sync_to_async(snapshot)() == before
    witness.close()
