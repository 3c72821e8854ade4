"""Log records as JSON lines: one object per line, with the request id of the request or socket
that was being served (operations.requests), so a log search joins the balancer's line to the
worker's. nginx writes its access log in the same shape (deploy/nginx)."""

from __future__ import annotations

import datetime as dt
import logging
import os
from typing import Any

import orjson

from operations import requests


class JsonFormatter(logging.Formatter):
    """`{"time", "level", "logger", "message", "pid", "request_id"?, ...fields, "exception"?}`.

    A call adds its own fields with `extra={"fields": {...}}`, and may name its request with
    `extra={"request_id": ...}` (else the one being served when the line is written).
    """

    def format(self, record: logging.LogRecord) -> str:
        document: dict[str, Any] = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(timespec="milliseconds"),
            "source": "app",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "pid": os.getpid(),
        }
        request_id = getattr(record, "request_id", None) or requests.current.get()
        if request_id:
            document["request_id"] = request_id
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            document.update(fields)
        if record.exc_info:
            document["exception"] = self.formatException(record.exc_info)
        elif record.stack_info:
            document["stack"] = self.formatStack(record.stack_info)
        return orjson.dumps(document, default=str).decode()
