"""Request shapes of the play API; they refuse wrong JSON types and unknown fields with a 400.

The patterns are what games.deals.codes and the engine accept (games.api.openapi), declared so that the
OpenAPI document allows exactly what the service takes; the service words its own refusals (422).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.api.openapi import BLANK, CODE, DAILY_VARIANT, SPACE, VARIANT, padded, text
from games.engine import MAX_LOG_TOKENS
from web.fields import ClosedSerializer, StrictCharField, StrictIntegerField


class StartSessionSerializer(ClosedSerializer):
    code = StrictCharField(required=False, pattern=padded(CODE, SPACE))
    variant = StrictCharField(required=False, max_length=32, trim_whitespace=False, pattern=padded(VARIANT, BLANK))
    daily = StrictCharField(required=False, max_length=32, trim_whitespace=False, pattern=padded(DAILY_VARIANT, BLANK))

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if len(attrs) != 1:
            raise serializers.ValidationError('Give exactly one of "code", "variant" or "daily".')
        return attrs


class ActionSerializer(ClosedSerializer):
    # No length limit here: the blanks around a token are ignored (docs/notation.md), and a token too
    # long to read is a 422 that echoes it (games.services.judge); the body cap bounds it.
    action = StrictCharField(trim_whitespace=False, help_text="a token, like 3:4>7", pattern=text())
    at = StrictIntegerField(
        required=False,
        min_value=1,
        help_text="the position the action should take in the log (actions + 1); "
        "an action already stored there is answered, not applied twice",
    )


@extend_schema_field({"type": "array", "items": {}, "maxItems": MAX_LOG_TOKENS})
class TokenListField(serializers.ListField):
    """A JSON array; its items are checked by the replay, which names the first bad one."""

    def to_internal_value(self, data: Any) -> list[Any]:
        if not isinstance(data, list):
            self.fail("not_a_list", input_type=type(data).__name__)
        return data


class SubmissionSerializer(ClosedSerializer):
    code = StrictCharField(pattern=padded(CODE, SPACE))  # checked by games.deals.codes.parse_code, which words it
    moves = TokenListField()
    claimed_score = StrictIntegerField(required=False, allow_null=True)
    key = StrictCharField(required=False, allow_null=True, max_length=128, trim_whitespace=False, pattern=text(128))
