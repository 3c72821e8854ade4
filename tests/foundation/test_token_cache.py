"""Token authentication answers from the Redis cache, and a revoked token is refused at once."""

from __future__ import annotations

import time

import pytest
import redis
from django.conf import settings
from django.db import connection
from django.test import override_settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts import token_auth
from games.models import Player
from tests.conftest import make_player

pytestmark = [pytest.mark.django_db, pytest.mark.redis]

PASSWORD = "correct horse 9"
DOWN = "redis://127.0.0.1:1/0"  # nothing listens there


def _client(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def _stored(token: str) -> str | None:
    value = redis.Redis.from_url(settings.REDIS_URL, decode_responses=True).get(token_auth.cache_key(token))
    return None if value is None else str(value)


def _token(player: Player) -> str:
    """A script's token (a browser log-in also saves the player, which tombstones the entry a while)."""
    return str(Token.objects.get_or_create(user=player)[0].key)


def test_a_token_is_cached_without_its_key_or_the_password_hash(api: APIClient) -> None:
    player = make_player()
    token = _token(player)
    assert _client(token).get("/api/auth/me").status_code == 200
    stored = _stored(token)
    assert stored is not None and stored.startswith("[") and token not in stored and player.password not in stored
    assert "alice" in stored
    again = _client(token).get("/api/auth/me")  # from the cache
    assert again.status_code == 200 and again.json()["username"] == "alice"
    assert again.json()["joined"] == _client(token).get("/api/auth/me").json()["joined"]


def test_a_cached_token_is_refused_after_log_out(api: APIClient) -> None:
    token = _token(make_player())
    client = _client(token)
    assert client.get("/api/auth/me").status_code == 200
    assert str(_stored(token)).startswith("[")  # cached
    assert client.post("/api/auth/logout").status_code == 200
    refused = client.get("/api/auth/me")
    assert refused.status_code == 401 and "not valid" in refused.json()["error"]["message"]
    assert client.get("/api/leaderboards/code:SP1-S4C-AAAAAAD").status_code == 401


def test_a_token_deleted_elsewhere_is_refused(api: APIClient) -> None:
    """Another process (or the admin) deletes the token: the cached entry goes with it."""
    player = make_player()
    token = _token(player)
    assert _client(token).get("/api/auth/me").status_code == 200
    assert str(_stored(token)).startswith("[")  # cached
    Token.objects.filter(user=player).delete()
    assert _client(token).get("/api/auth/me").status_code == 401


def test_a_deactivated_or_deleted_player_is_refused(api: APIClient) -> None:
    player = make_player()
    token = _token(player)
    assert _client(token).get("/api/auth/me").status_code == 200
    player.is_active = False
    player.save()
    assert _client(token).get("/api/auth/me").status_code == 401
    player.is_active = True
    player.save()
    assert _client(token).get("/api/auth/me").status_code == 200
    assert _client(token).get("/api/auth/me").status_code == 200  # cached again
    player.delete()
    assert _client(token).get("/api/auth/me").status_code == 401


def test_a_read_from_before_a_revocation_cannot_put_the_token_back(api: APIClient) -> None:
    token = _token(make_player())
    token_auth.forget([token])  # what a revocation leaves: a tombstone while it commits
    assert _client(token).get("/api/auth/me").status_code == 200  # PostgreSQL: still valid
    assert _stored(token) == "-"  # and not cached over the tombstone


def test_the_cached_player_never_writes_a_stale_password_back(api: APIClient) -> None:
    token = _token(make_player())
    authenticate = token_auth.CachedTokenAuthentication().authenticate_credentials
    authenticate(token)  # fills the cache
    player, _ = authenticate(token)  # from the cache
    assert isinstance(player, Player) and "password" in player.get_deferred_fields()
    Player.objects.filter(pk=player.pk).update(password=Player.objects.get(pk=player.pk).password)
    player.first_name = "Al"
    player.save()
    fresh = Player.objects.get(pk=player.pk)
    assert fresh.first_name == "Al" and fresh.check_password(PASSWORD)
    assert player.check_password(PASSWORD)  # read from PostgreSQL when asked for


def test_a_change_to_the_player_is_seen_at_once(api: APIClient) -> None:
    player = make_player()
    token = _token(player)
    assert _client(token).get("/api/auth/me").json()["username"] == "alice"
    player.username = "alicia"  # e.g. renamed in the admin
    player.save()
    assert _client(token).get("/api/auth/me").json()["username"] == "alicia"


def test_without_redis_tokens_are_checked_in_postgresql(api: APIClient) -> None:
    token = _token(make_player())
    for url in (None, DOWN):
        with override_settings(REDIS_URL=url):
            assert _client(token).get("/api/auth/me").status_code == 200
            assert _client("0" * 40).get("/api/auth/me").status_code == 401
    assert _stored(token) is None


def _listening() -> token_auth.LocalCache:
    local = token_auth.local_cache()
    assert local is not None
    deadline = time.monotonic() + 5
    while not local.live and time.monotonic() < deadline:
        time.sleep(0.01)
    assert local.live
    return local


def test_a_process_keeps_a_copy_and_drops_it_when_another_process_revokes(api: APIClient) -> None:
    token = _token(make_player())
    local = _listening()
    name = token_auth.cache_key(token)
    assert _client(token).get("/api/auth/me").status_code == 200
    assert local.get(name) is not None
    # Another process logs the player out: the row goes, its tombstone and publication follow.
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM authtoken_token WHERE key = %s", [token])
    client = redis.Redis.from_url(settings.REDIS_URL, decode_responses=True)
    client.set(name, "-", ex=60)
    client.publish(token_auth.channel(), name)
    deadline = time.monotonic() + 5
    while local.get(name) is not None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert local.get(name) is None
    assert _client(token).get("/api/auth/me").status_code == 401


def test_a_copy_read_before_a_revocation_is_not_kept() -> None:
    local = _listening()
    generation = local.generation
    local.drop(["something"])  # a revocation lands while the read is on its way
    local.keep("late", "[]", generation)
    assert local.get("late") is None


def test_no_copies_are_kept_while_the_revocations_are_not_heard() -> None:
    local = _listening()
    with local.lock:
        local.live = False
    try:
        local.keep("unheard", "[]", local.generation)
        assert local.get("unheard") is None
    finally:
        with local.lock:
            local.live = True


def test_a_token_answered_from_the_cache_is_the_stored_row() -> None:
    """Built as the ORM reads a row: Django takes it for that row, not a new token with a taken key."""
    player = make_player()
    key = _token(player)
    stored = Token.objects.get(key=key)
    authentication = token_auth.CachedTokenAuthentication()
    authentication.authenticate_credentials(key)  # a first read puts the entry in the cache
    assert _stored(key) is not None
    cached_player, cached = authentication.authenticate_credentials(key)
    assert (cached.key, cached.user_id, cached.created) == (stored.key, player.pk, stored.created)
    assert cached.user is cached_player
    cached.validate_unique()  # a new Token with this key would be refused: "Token with this Key already exists."
    cached.save()
    assert Token.objects.filter(user=player).count() == 1


def test_each_request_gets_a_player_of_its_own_and_a_changed_entry_is_read_anew() -> None:
    """An entry's text is decoded once (accounts/token_auth.py), but each request gets its own
    player from it, and a changed player's new entry is not answered from the old text."""
    player = make_player()
    key = _token(player)
    authentication = token_auth.CachedTokenAuthentication()
    authentication.authenticate_credentials(key)  # the first read puts the entry in the cache
    first = authentication.authenticate_credentials(key)[0]
    assert first.username == "alice"
    first.username = "changed by one request"
    second = authentication.authenticate_credentials(key)[0]
    assert second is not first and second.username == "alice"

    player.username = "alicia"
    player.save()  # the entry is tombstoned: PostgreSQL answers
    assert authentication.authenticate_credentials(key)[0].username == "alicia"
    redis.Redis.from_url(settings.REDIS_URL).delete(token_auth.cache_key(key))  # the tombstone's time is up
    authentication.authenticate_credentials(key)  # cached again, renamed
    renamed = authentication.authenticate_credentials(key)[0]
    assert renamed.username == "alicia" and _stored(key) is not None
