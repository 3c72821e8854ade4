"""Request shapes of the play API; they refuse wrong JSON types with a 400."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from web.fields import StrictCharField, StrictIntegerField


class StartSessionSerializer(serializers.Serializer):
    # No length limit here: a code of any other length is a 422 that says what is wrong (games.codes).
    code = StrictCharField(required=False)
    variant = StrictCharField(required=False, max_length=32)
    daily = StrictCharField(required=False, max_length=32)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if len(attrs) != 1:
            raise serializers.ValidationError('Give exactly one of "code", "variant" or "daily".')
        return attrs


class ActionSerializer(serializers.Serializer):
    # No length limit here: the blanks around a token are ignored (docs/notation.md), and a token too
    # long to read is a 422 that echoes it (games.services.judge); the body cap bounds it.
    action = StrictCharField(trim_whitespace=False, help_text="a token, like 3:4>7")
    at = StrictIntegerField(
        required=False,
        min_value=1,
        help_text="the position the action should take in the log (actions + 1); "
        "an action already stored there is answered, not applied twice",
    )


class TokenListField(serializers.ListField):
    """A JSON array; its items are checked by the replay, which names the first bad one."""

    def to_internal_value(self, data: Any) -> list[Any]:
        if not isinstance(data, list):
            self.fail("not_a_list", input_type=type(data).__name__)
        return data


class SubmissionSerializer(serializers.Serializer):
    code = StrictCharField()  # checked by games.codes.parse_code, which names what is wrong
    moves = TokenListField()
    claimed_score = StrictIntegerField(required=False, allow_null=True)
    key = StrictCharField(required=False, allow_null=True, max_length=128)
