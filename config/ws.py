"""What every consumer shares: JSON frames, the size cap, flood control, the error shape, the language."""

from __future__ import annotations

import json
import time
from functools import cached_property
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.http import HttpRequest
from django.http.cookie import parse_cookie
from django.utils import translation

from config.errors import ServiceError, error_body

CLOSE_TOO_BIG = 1009
CLOSE_POLICY = 1008


def language_of(scope: dict[str, Any]) -> str:
    """The handshake's language as LocaleMiddleware picks it for HTTP: the language cookie, then
    Accept-Language, then LANGUAGE_CODE (a socket has no LocaleMiddleware of its own)."""
    headers = {bytes(k).decode("latin-1").lower(): bytes(v).decode("latin-1") for k, v in scope.get("headers") or []}
    cookies = scope.get("cookies")
    request = HttpRequest()
    request.COOKIES = dict(cookies) if cookies is not None else parse_cookie(headers.get("cookie", ""))
    if "accept-language" in headers:
        request.META["HTTP_ACCEPT_LANGUAGE"] = headers["accept-language"]
    return translation.get_language_from_request(request)


class JsonConsumer(AsyncWebsocketConsumer):
    """Decodes frames, closes a socket that sends frames over the cap or floods."""

    _window_start = 0.0
    _window_count = 0

    @cached_property
    def language(self) -> str:
        """The language this socket's player reads: wrap work in ``translation.override(self.language)``."""
        return language_of(self.scope)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        size = len(text_data.encode()) if text_data is not None else len(bytes_data or b"")
        if size > settings.WS_MAX_FRAME_BYTES:
            await self.close(code=CLOSE_TOO_BIG)
            return
        if self._flooding():
            await self.close(code=CLOSE_POLICY)
            return
        try:
            message = json.loads(text_data if text_data is not None else (bytes_data or b"").decode())
        except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: nested too deeply
            await self.send_error(400, 'Messages are JSON objects with a "type".')
            return
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await self.send_error(400, 'Messages are JSON objects with a "type".')
            return
        await self.receive_message(message)

    def _flooding(self) -> bool:
        now = time.monotonic()
        if now - self._window_start >= 1.0:
            self._window_start, self._window_count = now, 0
        self._window_count += 1
        return self._window_count > settings.RATE_WS_MESSAGES

    async def receive_message(self, message: dict[str, Any]) -> None:
        await self.send_error(400, "This socket accepts no messages.")

    async def send_json(self, payload: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(payload, separators=(",", ":")))

    async def send_error(self, status: int, message: str, **detail: Any) -> None:
        await self.send_json({"type": "error", "status": status, **error_body(message, **detail)})

    async def send_refusal(self, error: ServiceError) -> None:
        payload: dict[str, Any] = {"type": "error", "status": error.status, **error.body()}
        if error.retry_after is not None:
            payload["retry_after"] = error.retry_after
        await self.send_json(payload)
