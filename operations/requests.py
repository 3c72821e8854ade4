"""Request ids: nginx's `$request_id` (X-Request-ID), or one made here, for each request and socket.

It lives in a context variable, which Django's request thread and the sockets' database threads carry.
"""

from __future__ import annotations

import re
import secrets
from contextvars import ContextVar
from typing import Any

HEADER = b"x-request-id"
# Short and plain: a caller cannot put anything odd in a log line.
_WELL_FORMED = re.compile(r"[A-Za-z0-9._:-]{1,64}")

current: ContextVar[str] = ContextVar("request_id", default="")


def from_scope(scope: dict[str, Any]) -> str:
    """The X-Request-ID the balancer sent with this request or socket, or a new id."""
    for name, value in scope.get("headers") or ():
        if name == HEADER:
            text = bytes(value).decode("latin-1")
            if _WELL_FORMED.fullmatch(text):
                return text
            break
    return secrets.token_hex(16)
