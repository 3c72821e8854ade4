"""The API's JSON parser: a body nested too deeply for Python's parser is a 400, not a crash."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from rest_framework.parsers import JSONParser

from web.errors import BadRequest


class SafeJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise BadRequest(gettext("The body's JSON is nested too deeply.")) from None
