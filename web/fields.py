"""Serializer fields that refuse wrong JSON types instead of coercing them, and a serializer that
refuses fields it does not know."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.settings import api_settings


class StrictCharField(serializers.CharField):
    """A JSON string, never a number or a boolean turned into one.

    `pattern` is what the service accepts beyond this field's own checks (it words its own refusal):
    the OpenAPI document declares it, so that the document allows exactly what the service takes. A
    field with a pattern and a length is not trimmed: its length is that of the text as sent.
    """

    def __init__(self, *, pattern: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        assert pattern is None or self.max_length is None or not self.trim_whitespace, "a trimmed text's length"
        if pattern is not None:
            declared: dict[str, Any] = {"type": "string", "pattern": pattern}
            if self.max_length is not None:
                declared["maxLength"] = self.max_length
            extend_schema_field(declared)(cast(Any, self))  # typed for classes; an instance takes it too

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictIntegerField(serializers.IntegerField):
    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


# A JSON object with this serializer's fields and no other: a misspelt field is a 400 that names it
# rather than a value silently left out (the OpenAPI document says additionalProperties: false).
# A comment, not a docstring: the document would show it as every request body's description.
class ClosedSerializer(serializers.Serializer):
    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            unknown = sorted(str(name) for name in data if name not in self.fields)
            if unknown:
                message = gettext("Unknown field %(fields)s: the fields are %(known)s.") % {
                    "fields": ", ".join(repr(name) for name in unknown),
                    "known": ", ".join(self.fields),
                }
                raise serializers.ValidationError({api_settings.NON_FIELD_ERRORS_KEY: [message]})
        return super().to_internal_value(data)
