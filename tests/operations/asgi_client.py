"""Requests to the whole ASGI application in this process (config.asgi), as a server would make them."""

from __future__ import annotations

from typing import Any

from channels.testing import HttpCommunicator

from config.asgi import application


async def call(path: str, *, method: str = "GET", headers: dict[str, str] | None = None, body: bytes = b"") -> Any:
    """{"status", "headers", "body"} of one request through the operations layer and Django."""
    sent = {"Host": "testserver", **(headers or {})}
    pairs = [(name.lower().encode(), value.encode()) for name, value in sent.items()]
    communicator = HttpCommunicator(application, method, path, body=body, headers=pairs)
    response = await communicator.get_response(timeout=20)
    response["headers"] = {bytes(k).decode().lower(): bytes(v).decode() for k, v in response["headers"]}
    return response
