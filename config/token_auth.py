"""`Authorization: Token <key>` with the token's player cached in Redis.

DRF's TokenAuthentication asks PostgreSQL through the ORM on every request
(~1 ms of CPU, a fifth of a leaderboard read). Here the player behind a
token is kept in Redis for CACHE_SECONDS under a digest of the key (never
the key itself): the player's columns except the password hash. A request's
player is built from them with the password deferred, so reading it asks
PostgreSQL and saving the player never writes it back unless it was set.

Revocation stays exact. Deleting a token (log-out, the admin, a deleted
player) and saving a player replace the cached entry by a tombstone before
the change commits: until it expires every request with that key asks
PostgreSQL, and a request that read the token before the change cannot put
it back (entries are only ever added where nothing is stored). Without
Redis, or while it fails, every request asks PostgreSQL as before. What a
cache cannot see: a revocation while Redis is unreachable, or a bulk
`QuerySet.update()` of players, leaves an entry to live out CACHE_SECONDS.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
import threading
from typing import Any

import redis
from django.conf import settings
from django.db import router
from django.db.models.signals import post_delete, post_save
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed

from leaderboard.models import Player

log = logging.getLogger(__name__)

CACHE_SECONDS = 60
_TOMBSTONE = "-"

# Every column but the password hash, in a fixed order; datetimes travel as ISO text.
_FIELDS = [field for field in Player._meta.concrete_fields if field.attname != "password"]
_NAMES = [field.attname for field in _FIELDS]
_DATETIMES = frozenset(field.attname for field in _FIELDS if field.get_internal_type() == "DateTimeField")

_clients: dict[str, redis.Redis] = {}
_clients_lock = threading.Lock()


def _redis() -> redis.Redis | None:
    url = settings.REDIS_URL
    if not url:
        return None
    with _clients_lock:
        client = _clients.get(url)
        if client is None:
            client = _clients[url] = redis.Redis.from_url(
                url, decode_responses=True, socket_timeout=1.0, socket_connect_timeout=1.0
            )
    return client


def cache_key(token_key: str) -> str:
    prefix = settings.CACHES["default"].get("KEY_PREFIX", "")
    return f"{prefix}:auth:token:{hashlib.sha256(token_key.encode()).hexdigest()}"


def _encode(player: Player) -> str:
    values = []
    for name in _NAMES:
        value = getattr(player, name)
        values.append(value.isoformat() if isinstance(value, dt.datetime) else value)
    return json.dumps(values, separators=(",", ":"))


def _decode(text: str) -> Player | None:
    values = json.loads(text)
    if not isinstance(values, list) or len(values) != len(_NAMES):
        return None  # written by another version of the model: ask PostgreSQL
    for n, name in enumerate(_NAMES):
        if name in _DATETIMES and values[n] is not None:
            values[n] = dt.datetime.fromisoformat(values[n])
    return Player.from_db(router.db_for_read(Player), _NAMES, values)


class CachedTokenAuthentication(TokenAuthentication):
    """TokenAuthentication (same header, same refusals) answering from the Redis cache when it can."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        client = _redis()
        if client is None:
            return super().authenticate_credentials(key)
        name = cache_key(key)
        try:
            stored = client.get(name)
        except (redis.RedisError, OSError) as error:
            log.warning("token cache unavailable, asking PostgreSQL: %s", error)
            return super().authenticate_credentials(key)
        player = _decode(stored) if stored and stored != _TOMBSTONE else None
        if player is None:
            user, token = super().authenticate_credentials(key)
            if stored is None and isinstance(user, Player):
                try:
                    client.set(name, _encode(user), nx=True, ex=CACHE_SECONDS)
                except (redis.RedisError, OSError) as error:
                    log.warning("token cache unavailable, not kept: %s", error)
            return user, token
        if not player.is_active:
            raise AuthenticationFailed("User inactive or deleted.")
        token = Token(key=key, user_id=player.pk)
        token.user = player
        token._state.adding = False
        return player, token


def forget(token_keys: list[str]) -> None:
    """Tombstone these tokens' entries: the next requests ask PostgreSQL."""
    client = _redis()
    if client is None or not token_keys:
        return
    try:
        pipe = client.pipeline(transaction=False)
        for key in token_keys:
            pipe.set(cache_key(key), _TOMBSTONE, ex=CACHE_SECONDS)
        pipe.execute()
    except (redis.RedisError, OSError) as error:
        log.error("token cache not told of a change (%s): cached entries live out %s s", error, CACHE_SECONDS)


def _token_deleted(sender: type[Token], instance: Token, **kwargs: Any) -> None:
    forget([instance.key])


def _player_saved(sender: type[Player], instance: Player, created: bool, **kwargs: Any) -> None:
    if created or not settings.REDIS_URL:
        return
    forget(list(Token.objects.filter(user_id=instance.pk).values_list("key", flat=True)))


def connect_signals() -> None:
    """Called once from the leaderboard app's ready(). A deleted player's tokens go by cascade, each
    with its post_delete."""
    post_delete.connect(_token_deleted, sender=Token, dispatch_uid="token_cache_token_deleted")
    post_save.connect(_player_saved, sender=Player, dispatch_uid="token_cache_player_saved")
