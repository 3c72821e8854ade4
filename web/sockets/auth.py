"""Token authentication on the WebSocket handshake (`Authorization: Token <key>`), and whether a
socket's player is still signed in (kept between messages by web/sockets/sign_ins.py).
"""

from __future__ import annotations

import datetime as dt
from importlib import import_module
from typing import Any, cast

from channels.db import database_sync_to_async
from channels.middleware import BaseMiddleware
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils import timezone
from django.utils.module_loading import import_string

SESSION_KEPT = dt.timedelta(seconds=60)


def token_authentication() -> Any:
    """The HTTP API's own (the first TokenAuthentication in DRF's settings), without naming an app."""
    from rest_framework.authentication import BaseAuthentication, TokenAuthentication
    from rest_framework.settings import api_settings

    # The stubs type the setting as written (dotted paths); read, it holds the imported classes.
    classes = cast("list[type[BaseAuthentication]]", api_settings.DEFAULT_AUTHENTICATION_CLASSES)
    for authentication in classes:
        if issubclass(authentication, TokenAuthentication):
            return authentication()
    raise ImproperlyConfigured("REST_FRAMEWORK's DEFAULT_AUTHENTICATION_CLASSES name no TokenAuthentication")


def hear_revocations() -> None:
    """Start this process's listener for the token cache's revocations, once (REVOCATIONS_LISTENER,
    accounts/token_auth.py): while it is up, a socket keeps its sign-in between messages
    (web/sockets/sign_ins.py). Named in the settings, so that neither this package nor a socket's app
    imports the accounts app."""
    import_string(settings.REVOCATIONS_LISTENER)()


@database_sync_to_async
def _player_for_token(key: str) -> Any:
    """The token's player as the HTTP API finds it (revoked, expired or inactive: None)."""
    from rest_framework.exceptions import AuthenticationFailed

    try:
        return token_authentication().authenticate_credentials(key)[0]
    except AuthenticationFailed:
        return None


class TokenAuthMiddleware(BaseMiddleware):
    """Channels' middleware: fills the socket's own scope in (no copy kept) and passes it on."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        header = dict(scope.get("headers") or []).get(b"authorization", b"")
        scheme, _, key = header.decode("latin-1").partition(" ")
        if scheme.lower() == "token" and key.strip():
            player = await _player_for_token(key.strip())
            if player is not None:
                scope["user"] = player
                scope["auth_token"] = key.strip()
            else:
                from django.contrib.auth.models import AnonymousUser

                scope["user"] = AnonymousUser()
        return await self.inner(scope, receive, send)


def signed_in_until(scope: dict[str, Any]) -> dt.datetime | None:
    """Until when the socket's token or session stands and its player is active (None: not now). In a
    database thread."""
    from django.contrib.auth import SESSION_KEY, get_user_model
    from rest_framework.exceptions import AuthenticationFailed

    player_model = get_user_model()
    user = scope.get("user")
    if not isinstance(user, player_model):
        return None
    key = scope.get("auth_token")
    if key is not None:
        try:
            _, token = token_authentication().authenticate_credentials(key)
        except AuthenticationFailed:
            return None
        created: dt.datetime = token.created
        return created + dt.timedelta(seconds=settings.TOKEN_SECONDS)
    session = scope.get("session")
    session_key = getattr(session, "session_key", None)
    if session is None or session_key is None:
        return None
    store = import_module(settings.SESSION_ENGINE).SessionStore
    stored = store(session_key=session_key).load()  # {} once logged out (flushed) or expired
    if stored.get(SESSION_KEY) != str(user.pk):
        return None
    if not player_model._default_manager.filter(pk=user.pk, is_active=True).exists():
        return None
    # A session's end is its stored expiry, which the store does not hand out: ask again a minute on.
    return timezone.now() + SESSION_KEPT
