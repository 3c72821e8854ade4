"""Token authentication on the WebSocket handshake (`Authorization: Token <key>`).

Runs inside AuthMiddlewareStack: a valid token replaces the session's user.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.middleware import BaseMiddleware


@database_sync_to_async
def _player_for_token(key: str) -> Any:
    from rest_framework.authtoken.models import Token

    token = Token.objects.select_related("user").filter(key=key).first()
    return token.user if token and token.user.is_active else None


class TokenAuthMiddleware(BaseMiddleware):
    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        header = dict(scope.get("headers") or []).get(b"authorization", b"")
        scheme, _, key = header.decode("latin-1").partition(" ")
        if scheme.lower() == "token" and key.strip():
            player = await _player_for_token(key.strip())
            if player is not None:
                scope["user"] = player
            else:
                from django.contrib.auth.models import AnonymousUser

                scope["user"] = AnonymousUser()
        return await super().__call__(scope, receive, send)
