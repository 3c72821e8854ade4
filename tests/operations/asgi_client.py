"""Requests to the whole ASGI application in this process (config.asgi), as a server would make them."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote, urlparse

from asgiref.testing import ApplicationCommunicator

from config.asgi import application


async def call(
    path: str,
    *,
    method: str = "GET",
    headers: dict[str, str] | None = None,
    body: bytes = b"",
    client: tuple[str, int] | None = None,
) -> Any:
    """{"status", "headers", "body"} of one request through the operations layer and Django, from
    `client` (the peer's address and port, as the server puts it in the scope) if given."""
    sent = {"Host": "testserver", **(headers or {})}
    parsed = urlparse(path)
    scope: dict[str, Any] = {
        "type": "http",
        "http_version": "1.1",
        "method": method.upper(),
        "path": unquote(parsed.path),
        "query_string": parsed.query.encode(),
        "headers": [(name.lower().encode(), value.encode()) for name, value in sent.items()],
    }
    if client is not None:
        scope["client"] = client
    communicator = ApplicationCommunicator(application, scope)
    await communicator.send_input({"type": "http.request", "body": body})
    response = await communicator.receive_output(timeout=20)
    assert response["type"] == "http.response.start"
    response["body"] = b""
    while True:
        chunk = await communicator.receive_output(timeout=20)
        response["body"] += chunk["body"]
        if not chunk.get("more_body", False):
            break
    # Django's handler finishes the request (its signals, then the access log) after the last byte.
    await communicator.wait(timeout=20)
    del response["type"]
    response["headers"] = {bytes(k).decode().lower(): bytes(v).decode() for k, v in response.get("headers", ())}
    return response
