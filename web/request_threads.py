"""Each HTTP request's thread-sensitive work on a thread kept for the next request (asgiref's
`ThreadSensitiveContext(executor=...)`), not on threads made for it alone. A thread whose request was
not answered whole (a sync view may still run on it) is let go.
"""

from __future__ import annotations

from collections import deque
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext

MAX_IDLE = 32  # threads kept between bursts; as many run at once as requests do


class KeptThreads:
    """ASGI middleware in front of Django's handler (config/asgi.py)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.idle: deque[ThreadPoolExecutor] = deque()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        try:
            executor = self.idle.pop()
        except IndexError:
            executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="http")
        answered = False

        async def sending(message: dict[str, Any]) -> None:
            nonlocal answered
            await send(message)
            answered = message["type"] == "http.response.body" and not message.get("more_body", False)

        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.app(scope, receive, sending)
        finally:
            if answered and len(self.idle) < MAX_IDLE:
                self.idle.append(executor)
            else:
                executor.shutdown(wait=False)
