"""Log records as JSON lines, with the request id being served (docs/operations.md, "Logs")."""

from __future__ import annotations

import datetime as dt
import logging
import os
from typing import Any

import orjson

from operations import requests


class JsonFormatter(logging.Formatter):
    """A call adds fields with `extra={"fields": {...}}` and may name its `request_id` (else the current one)."""

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
