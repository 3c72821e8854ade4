"""Request ids: one per HTTP request or socket, so that one action can be followed from the
balancer's log line to the worker's.

nginx sends its `$request_id` as X-Request-ID (deploy/nginx); a worker reached directly makes
its own. The id lives in a context variable for the request's or socket's task, and the threads
it hands work to (Django's request thread, the sockets' database threads) carry the context.
"""

from __future__ import annotations

import re
import secrets
from contextvars import ContextVar
from typing import Any

HEADER = b"x-request-id"
# What is taken from the header: short and plain, so a caller cannot put anything odd in a log line.
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
