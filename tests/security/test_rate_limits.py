"""Rate limits per player (or per address before sign-in): a 429 that says when to retry, that
changes nothing, and that does not spill over onto another player."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config.asgi import application
from games.models import Player
from games.services import start_session
from tests.conftest import make_player
from tests.loopback import free_port
from tests.security.snapshot import snapshot
from web import ratelimit

pytestmark = pytest.mark.django_db
CODE = "SP1-S1C-AAAAAAA"
PASSWORD = "a long passphrase 7"


def as_player(player: Player) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=player)[0].key}")
    return client


def assert_limited(response: Any, words: str, window: int) -> None:
    assert response.status_code == 429, response.content
    retry = int(response["Retry-After"])
    assert 1 <= retry <= window
    message = response.json()["error"]["message"]
    wait = f"Try again in {retry} second." if retry == 1 else f"Try again in {retry} seconds."
    assert words in message and wait in message


def test_sign_ups_per_address(settings: Any) -> None:
    settings.RATE_SIGNUPS = 2
    for name in ("first", "second"):
        assert (
            APIClient().post("/api/auth/signup", {"username": name, "password": PASSWORD}, format="json").status_code
            == 201
        )
    before = snapshot()
    refused = APIClient().post("/api/auth/signup", {"username": "third", "password": PASSWORD}, format="json")
    assert_limited(refused, "Too many sign-ups", 3600)
    assert snapshot() == before
    elsewhere = APIClient(REMOTE_ADDR="127.0.0.9").post(
        "/api/auth/signup", {"username": "third", "password": PASSWORD}, format="json"
    )
    assert elsewhere.status_code == 201  # another address is not held back


def test_refused_sign_ups_use_none_of_the_addresss_quota(settings: Any) -> None:
    settings.RATE_SIGNUPS = 10
    make_player("taken", PASSWORD)
    refused = [("weak", "short"), ("weak2", "password"), ("x", PASSWORD), ("bad name!", PASSWORD)]
    refused += [("taken", PASSWORD), ("TAKEN", PASSWORD), ("admin", PASSWORD)] * 3
    for name, password in refused:
        answer = APIClient().post("/api/auth/signup", {"username": name, "password": password}, format="json")
        assert answer.status_code in (409, 422), answer.content
    assert len(refused) > settings.RATE_SIGNUPS
    signed_up = [
        APIClient().post("/api/auth/signup", {"username": f"real{n}", "password": PASSWORD}, format="json")
        for n in range(settings.RATE_SIGNUPS)
    ]
    assert [answer.status_code for answer in signed_up] == [201] * settings.RATE_SIGNUPS
    before = snapshot()
    over = APIClient().post("/api/auth/signup", {"username": "one_more", "password": PASSWORD}, format="json")
    assert_limited(over, "Too many sign-ups", 3600)  # the sign-ups that succeeded are counted
    assert snapshot() == before


def test_failed_log_ins_per_name(settings: Any) -> None:
    settings.RATE_LOGIN_FAILURES = 3
    make_player("carol", PASSWORD)
    make_player("dave", PASSWORD)
    for _ in range(3):
        assert (
            APIClient().post("/api/auth/login", {"username": "carol", "password": "wrong"}, format="json").status_code
            == 401
        )
    before = snapshot()
    refused = APIClient().post("/api/auth/login", {"username": "carol", "password": PASSWORD}, format="json")
    assert_limited(refused, "Too many failed log-ins", 300)
    assert snapshot() == before  # not even the right password makes a token now
    assert (
        APIClient().post("/api/auth/login", {"username": "dave", "password": PASSWORD}, format="json").status_code
        == 200
    )


@pytest.mark.usefixtures("still_clock")
def test_actions_per_session(settings: Any) -> None:
    settings.RATE_ACTIONS = 3
    alice, bob = make_player("alice"), make_player("bob")
    mine, _ = start_session(player=alice, code=CODE)
    theirs, _ = start_session(player=bob, code=CODE)
    client = as_player(alice)
    statuses = [
        client.post(f"/api/sessions/{mine.id}/actions", {"action": "U"}, format="json").status_code for _ in range(3)
    ]
    assert statuses == [422, 422, 422]  # refused actions count too: a flood of garbage is a flood
    before = snapshot()
    refused = client.post(f"/api/sessions/{mine.id}/actions", {"action": "D"}, format="json")
    assert_limited(refused, "Too many actions", 1)
    assert snapshot() == before
    assert as_player(bob).post(f"/api/sessions/{theirs.id}/actions", {"action": "D"}, format="json").status_code == 200


def test_submissions_per_player(settings: Any) -> None:
    settings.RATE_SUBMISSIONS = 2
    alice, bob = make_player("alice"), make_player("bob")
    body = {"code": CODE, "moves": ["D"]}
    assert [as_player(alice).post("/api/submissions", body, format="json").status_code for _ in range(2)] == [201, 201]
    before = snapshot()
    assert_limited(as_player(alice).post("/api/submissions", body, format="json"), "Too many submissions", 60)
    assert snapshot() == before
    assert as_player(bob).post("/api/submissions", body, format="json").status_code == 201


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("socket_cleanup", "still_clock")
async def test_actions_over_the_socket_are_limited_too(settings: Any) -> None:
    settings.RATE_ACTIONS = 2

    def prepare() -> tuple[str, str]:
        player = make_player("sally")
        return str(start_session(player=player, code=CODE)[0].id), Token.objects.create(user=player).key

    session_id, token = await database_sync_to_async(prepare)()
    socket = WebsocketCommunicator(
        application,
        f"/ws/play/{session_id}/",
        headers=[
            (b"origin", b"http://127.0.0.1"),
            (b"host", b"127.0.0.1"),
            (b"authorization", f"Token {token}".encode()),
        ],
    )
    assert (await socket.connect(timeout=5))[0]
    await socket.receive_json_from(timeout=5)
    answers = []
    for _ in range(5):
        await socket.send_json_to({"type": "action", "action": "U"})
        answers.append(await socket.receive_json_from(timeout=5))
    assert [answer.get("status") for answer in answers] == [422, 422, 429, 429, 429]
    limited = answers[2:]
    assert limited[0]["retry_after"] == 1 and "Try again" in limited[0]["error"]["message"]
    await socket.disconnect()


@pytest.mark.redis
def test_a_window_counter_in_redis_expires_after_its_window(settings: Any) -> None:
    client = redis.Redis.from_url(settings.REDIS_URL)
    subject = f"expiry-{id(settings)}"
    counts = [ratelimit.count_attempt("probe", subject, seconds=60).count for _ in range(3)]
    assert counts == [1, 2, 3]
    assert 0 < client.ttl(ratelimit._key("probe", subject)) <= 60  # set on the first hit, never left to live forever


@pytest.mark.redis
def test_a_refusal_from_redis_says_the_time_left_in_the_window() -> None:
    message = "Too many."
    for _ in range(2):
        ratelimit.hit("probe", "left", limit=2, seconds=90, message=message)
    with pytest.raises(ratelimit.RateLimited) as refused:
        ratelimit.hit("probe", "left", limit=2, seconds=90, message=message)
    left = refused.value.retry_after
    assert 88 <= left <= 90 and f"Try again in {left} seconds." in str(refused.value)


def test_the_in_process_limit_counts_per_subject_in_a_window_opened_by_the_first_hit(still_clock: Any) -> None:
    clock = still_clock
    clock.now = 1_000.9  # just before a whole second: a window on the clock's boundaries would end now
    ratelimit.hit_in_process("probe", "game-1", limit=2, seconds=1, message="Too many.")
    clock.now = 1_001.2
    ratelimit.hit_in_process("probe", "game-1", limit=2, seconds=1, message="Too many.")
    with pytest.raises(ratelimit.RateLimited) as refused:
        ratelimit.hit_in_process("probe", "game-1", limit=2, seconds=1, message="Too many.")
    assert refused.value.retry_after == 1 and "Try again in 1 second." in str(refused.value)
    ratelimit.hit_in_process("probe", "game-2", limit=2, seconds=1, message="Too many.")  # another game
    clock.now = 1_001.9  # a second after the first hit: the next window starts from nothing
    ratelimit.hit_in_process("probe", "game-1", limit=2, seconds=1, message="Too many.")


async def test_limits_counted_on_the_loop_hold_while_redis_is_away(settings: Any) -> None:
    settings.REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there: Redis is away
    limits = [ratelimit.Limit("probe-loop", "away", 2, 60, "Too many.")]
    await ratelimit.hit_each(limits)
    await ratelimit.hit_each(limits)
    with pytest.raises(ratelimit.RateLimited):
        await ratelimit.hit_each(limits)


@pytest.mark.redis
async def test_limits_counted_together_stop_at_the_first_past_its_limit(settings: Any) -> None:
    """A submission refused by its address's limit is not counted against its player's too."""
    first = ratelimit.Limit("together-first", "x", 1, 60, "First.")
    second = ratelimit.Limit("together-second", "x", 5, 60, "Second.")
    await ratelimit.hit_each([first, second])
    with pytest.raises(ratelimit.RateLimited) as refused:
        await ratelimit.hit_each([first, second])
    assert refused.value.message.startswith("First.") and 59 <= refused.value.retry_after <= 60
    counters = redis.Redis.from_url(settings.REDIS_URL)
    assert int(counters.get("rl:together-second:x") or 0) == 1  # not counted past the first refusal, as in turn
    assert int(counters.get("rl:together-first:x") or 0) == 2
    counters.delete("rl:together-first:x", "rl:together-second:x")
