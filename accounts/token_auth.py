"""`Authorization: Token <key>` with the token's player cached in Redis.

DRF's TokenAuthentication asks PostgreSQL through the ORM on every request
(its cost: bench/README.md). Here the player behind a
token is kept in Redis for CACHE_SECONDS under a digest of the key (never
the key itself): the player's columns except the password hash. A request's
player is built from them with the password deferred, so reading it asks
PostgreSQL and saving the player never writes it back unless it was set.

Revocation stays exact. Deleting a token (log-out, the admin, a deleted
player) and saving a player replace the cached entry by a tombstone before
the change commits: until it expires (TOMBSTONE_SECONDS) every request with that key asks
PostgreSQL, and a request that read the token before the change cannot put
it back (entries are only ever added where nothing is stored). Without
Redis, or while it fails, every request asks PostgreSQL as before. What a
cache cannot see: a revocation while Redis is unreachable, or a bulk
`QuerySet.update()` of players, leaves an entry to live out CACHE_SECONDS.
Redis is asked with the event loop's client (web.storage): async code awaits
`authenticate_token`, DRF's sync path goes through asgiref's async_to_sync.

Each process also keeps the entries it read (LOCAL_SECONDS), so a script's
requests cost no Redis round trip either, but only while it listens to the
revocations: every tombstone is also published, a thread per process
subscribes and drops what it names, and a process whose subscription is not
up keeps nothing (and drops everything when it goes down). A change made in
this process drops its own copy at once; one made elsewhere arrives with the
publication (before the change has even committed; bench/README.md has the
delay). An entry read before a revocation and kept after it is
refused by a generation count.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import functools
import hashlib
import json
import logging
import threading
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import redis
from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_out
from django.core.exceptions import SynchronousOnlyOperation
from django.db import router
from django.db.models.signals import post_delete, post_save
from django.utils import timezone
from django.utils.translation import gettext_lazy
from rest_framework.authentication import TokenAuthentication, get_authorization_header
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed

from web import storage
from web.sockets import sign_ins

if TYPE_CHECKING:
    from games.models import Player  # what get_user_model() answers (AUTH_USER_MODEL)
else:
    Player = get_user_model()  # imported once the apps are ready (DRF's settings, the app's ready())
log = logging.getLogger(__name__)

CACHE_SECONDS = 60
TOMBSTONE_SECONDS = 10  # far longer than a read that began before the change can take
LOCAL_SECONDS = 30
LOCAL_MAX = 10_000
_TOMBSTONE = "-"

# Every column but the password hash, in a fixed order; datetimes travel as ISO text.
_FIELDS = [field for field in Player._meta.concrete_fields if field.attname != "password"]
_NAMES = [field.attname for field in _FIELDS]
_DATETIMES = frozenset(field.attname for field in _FIELDS if field.get_internal_type() == "DateTimeField")
_TOKEN_NAMES = [field.attname for field in Token._meta.concrete_fields]


def _prefix() -> str:
    return str(settings.CACHES["default"].get("KEY_PREFIX", ""))


def cache_key(token_key: str) -> str:
    return f"{_prefix()}:auth:token:{hashlib.sha256(token_key.encode()).hexdigest()}"


def channel() -> str:
    """Where the names of dropped entries are published."""
    return f"{_prefix()}:auth:forget"


class LocalCache:
    """This process's copies of cache entries, kept only while subscribed to the revocations."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.entries: dict[str, tuple[str, float]] = {}
        self.generation = 0  # moves on with every drop: a copy read before one is not kept
        self.live = False
        self.lock = threading.Lock()
        threading.Thread(target=self._listen, name="token-cache", daemon=True).start()

    def get(self, name: str) -> str | None:
        found = self.entries.get(name) if self.live else None
        return found[0] if found is not None and found[1] > time.monotonic() else None

    def keep(self, name: str, text: str, generation: int) -> None:
        with self.lock:
            if self.live and generation == self.generation:
                if len(self.entries) >= LOCAL_MAX:
                    self.entries.clear()
                self.entries[name] = (text, time.monotonic() + LOCAL_SECONDS)

    def drop(self, names: list[str]) -> None:
        with self.lock:
            self.generation += 1
            for name in names:
                self.entries.pop(name, None)

    def _down(self) -> None:
        with self.lock:
            self.live = False
            self.generation += 1
            self.entries.clear()
        self._tell_sockets(False)

    def _tell_sockets(self, up: bool) -> None:
        """The play sockets keep their sign-ins while the revocations of the configured Redis are heard."""
        sign_ins.listening(self.url, up)

    def _listen(self) -> None:
        heard = True
        while True:
            pubsub = None
            try:
                client = redis.Redis.from_url(
                    self.url, decode_responses=True, socket_timeout=5.0, socket_connect_timeout=1.0
                )
                pubsub = client.pubsub()
                pubsub.subscribe(channel())
                pinged = time.monotonic()
                while True:
                    message = pubsub.get_message(timeout=1.0)
                    if message is None:
                        if time.monotonic() - pinged > 2.0:
                            pubsub.ping()  # a Redis that went away silently fails this (or the read's timeout)
                            pinged = time.monotonic()
                    elif message["type"] == "subscribe":
                        with self.lock:
                            self.live = heard = True
                        self._tell_sockets(True)
                    elif message["type"] == "message":
                        names = str(message["data"]).split()
                        self.drop(names)
                        sign_ins.heard(names)
            except Exception as error:  # whatever it was: keep nothing until subscribed again
                if heard:
                    log.warning("token cache: revocations not heard (%s), keeping no copies", error)
                heard = False
            finally:
                self._down()
                if pubsub is not None:
                    with contextlib.suppress(Exception):
                        pubsub.close()
            time.sleep(1.0)


_locals: dict[str, LocalCache] = {}
_locals_lock = threading.Lock()


def local_cache() -> LocalCache | None:
    url = settings.REDIS_URL
    if not url:
        return None
    with _locals_lock:
        found = _locals.get(url)
        if found is None:
            found = _locals[url] = LocalCache(url)
    return found


def _encode(player: Player, created: dt.datetime) -> str:
    values: list[Any] = [created.isoformat()]
    for name in _NAMES:
        value = getattr(player, name)
        values.append(value.isoformat() if isinstance(value, dt.datetime) else value)
    return json.dumps(values, separators=(",", ":"))


def _decode(text: str) -> tuple[Player, dt.datetime] | None:
    """The player and the token's creation time, or None for an entry of another version. Each
    call gets a player of its own; the text is parsed once (`_parsed`)."""
    found = _parsed(text)
    if found is None:
        return None
    values, created = found
    return Player.from_db(router.db_for_read(Player), _NAMES, list(values)), created


@functools.lru_cache(maxsize=LOCAL_MAX)
def _parsed(text: str) -> tuple[tuple[Any, ...], dt.datetime] | None:
    """The player's column values (in _NAMES's order) and the token's creation time. Kept by the
    whole text, so a changed entry is parsed anew; which text stands is still asked of this
    process's copies or Redis on every request."""
    values = json.loads(text)
    if not isinstance(values, list) or len(values) != len(_NAMES) + 1:
        return None  # written by another version of the model: ask PostgreSQL
    created, values = dt.datetime.fromisoformat(values[0]), values[1:]
    for n, name in enumerate(_NAMES):
        if name in _DATETIMES and values[n] is not None:
            values[n] = dt.datetime.fromisoformat(values[n])
    return tuple(values), created


class TokenExpired(AuthenticationFailed):
    """A token older than TOKEN_SECONDS: the script logs in again for a new one."""

    default_detail = gettext_lazy("That token has expired: log in again for a new one.")


def expires_at(created: dt.datetime) -> dt.datetime:
    return created + dt.timedelta(seconds=settings.TOKEN_SECONDS)


def _refuse_if_expired(created: dt.datetime) -> None:
    if expires_at(created) <= timezone.now():
        raise TokenExpired()


class CachedTokenAuthentication(TokenAuthentication):
    """TokenAuthentication (same header, same refusals) answering from the Redis cache when it can,
    and refusing a token past its expiry (TOKEN_SECONDS after it was made)."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        """DRF's sync path: this process's copy answers without I/O (so on the event loop itself,
        web.async_views), anything else through `authenticate_token`."""
        local = local_cache()
        stored = local.get(cache_key(key)) if local is not None else None
        found = _decode(stored) if stored else None
        if found is not None:
            return _as_read(key, *found)
        if _on_event_loop():  # the copy went meanwhile: as the ORM would, refuse to block the loop
            raise SynchronousOnlyOperation("the token's player must be read off the event loop")
        return async_to_sync(self.authenticate_token)(key)

    async def authenticate_token(self, key: str) -> tuple[Player, Token]:
        """The token's player and the token, from this process's copy or Redis, else from
        PostgreSQL (and then kept); DRF's AuthenticationFailed if refused."""
        client = storage.redis_client()
        if client is None:
            return await self._from_database(key)
        name = cache_key(key)
        local = local_cache()
        stored = local.get(name) if local is not None else None
        generation = local.generation if local is not None else 0
        if stored is None:
            try:
                stored = await client.get(name)
            except (redis.RedisError, OSError) as error:
                log.warning("token cache unavailable, asking PostgreSQL: %s", error)
                return await self._from_database(key)
            if local is not None and stored and stored != _TOMBSTONE:
                local.keep(name, stored, generation)
        found = _decode(stored) if stored and stored != _TOMBSTONE else None
        if found is None:
            user, token = await self._from_database(key)
            if stored is None and isinstance(user, Player):
                text = _encode(user, token.created)
                try:
                    if await client.set(name, text, nx=True, ex=CACHE_SECONDS) and local is not None:
                        local.keep(name, text, generation)
                except (redis.RedisError, OSError) as error:
                    log.warning("token cache unavailable, not kept: %s", error)
            return user, token
        return _as_read(key, *found)

    async def _from_database(self, key: str) -> tuple[Any, Token]:
        user, token = await sync_to_async(super().authenticate_credentials)(key)
        _refuse_if_expired(token.created)
        return user, token

    def answers_at_once(self, request: Any) -> bool:
        """Whether `authenticate` answers `request` without I/O, so on the event loop itself
        (web.async_views): no token (or a header refused as it stands), or a token whose player this
        process holds."""
        header = get_authorization_header(request).split()
        if len(header) != 2 or header[0].lower() != self.keyword.lower().encode():
            return True
        local = local_cache()
        try:
            return local is not None and local.get(cache_key(header[1].decode())) is not None
        except UnicodeError:
            return True


def _on_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _as_read(key: str, player: Player, created: dt.datetime) -> tuple[Player, Token]:
    """The cached player and their token, as the ORM would have read them; refused as DRF refuses."""
    if not player.is_active:
        raise AuthenticationFailed("User inactive or deleted.")
    _refuse_if_expired(created)
    # As the ORM would have read it (so saving it updates its row): from_db, Django's public way.
    stored_as = {"key": key, "user_id": player.pk, "created": created}
    token = Token.from_db(router.db_for_read(Token), _TOKEN_NAMES, [stored_as[name] for name in _TOKEN_NAMES])
    token.user = player
    return player, token


def forget(token_keys: list[str], *, players: Sequence[object] = ()) -> None:
    """Tombstone these tokens' entries and have every process drop its copy: the next requests ask
    PostgreSQL. The play sockets of `players` ask the database again on their next message."""
    signed_out = [sign_ins.player_name(pk) for pk in players]
    sign_ins.heard(signed_out)  # this process's sockets at once, before the change commits
    if not settings.REDIS_URL or not (token_keys or signed_out):
        return
    names = [cache_key(key) for key in token_keys]
    local = local_cache()
    if local is not None:
        local.drop(names)
    _tell_processes(names, signed_out)


def _tell_processes(names: list[str], signed_out: list[str]) -> None:
    # The blocking client: a signal handler is sync code, and may run where an event loop is running.
    client = storage.blocking_redis(settings.REDIS_URL)
    try:
        pipe = client.pipeline(transaction=False)
        for name in names:
            pipe.set(name, _TOMBSTONE, ex=TOMBSTONE_SECONDS)
        pipe.publish(channel(), " ".join(names + signed_out))
        pipe.execute()
    except (redis.RedisError, OSError) as error:
        log.error("token cache not told of a change (%s): cached entries live out %s s", error, CACHE_SECONDS)


def _token_deleted(sender: type[Token], instance: Token, **kwargs: Any) -> None:
    forget([instance.key], players=[instance.user_id])


def _player_saved(sender: type[Player], instance: Player, created: bool, **kwargs: Any) -> None:
    if created:
        return
    keys = list(Token.objects.filter(user_id=instance.pk).values_list("key", flat=True)) if settings.REDIS_URL else []
    forget(keys, players=[instance.pk])


def _player_deleted(sender: type[Player], instance: Player, **kwargs: Any) -> None:
    forget([], players=[instance.pk])


def _logged_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if user is not None:
        forget([], players=[user.pk])


def connect_signals() -> None:
    """Called once from the leaderboard app's ready(). A deleted player's tokens go by cascade, each
    with its post_delete."""
    post_delete.connect(_token_deleted, sender=Token, dispatch_uid="token_cache_token_deleted")
    post_save.connect(_player_saved, sender=Player, dispatch_uid="token_cache_player_saved")
    # The play sockets keep their sign-in between messages (web/sockets/sign_ins.py): these end it.
    post_delete.connect(_player_deleted, sender=Player, dispatch_uid="sign_ins_player_deleted")
    user_logged_out.connect(_logged_out, dispatch_uid="sign_ins_logged_out")
