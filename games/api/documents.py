"""OpenAPI shapes of the documents the play API answers with (SPEC section 8)."""

from drf_spectacular.utils import inline_serializer
from rest_framework import serializers

ErrorDocument = inline_serializer(
    "Error",
    {
        "error": inline_serializer(
            "ErrorDetail",
            {
                "message": serializers.CharField(),
                "index": serializers.IntegerField(allow_null=True),
                "token": serializers.CharField(allow_null=True),
                "rule": serializers.CharField(
                    required=False,
                    help_text="Only when an action or log is refused: the id of the rule it breaks "
                    "(group_one_suit, empty_column_king_only, malformed_token, ...); message says it in words",
                ),
            },
        )
    },
)

_RESULT = {
    "id": serializers.IntegerField(),
    "board": serializers.CharField(allow_null=True),
    "code": serializers.CharField(allow_null=True),
    "player": serializers.CharField(),
    "score": serializers.IntegerField(),
    "moves": serializers.IntegerField(),
    "won": serializers.BooleanField(),
    "sequences": serializers.IntegerField(required=False),
    "cards_home": serializers.IntegerField(required=False),
    "elapsed_ms": serializers.IntegerField(allow_null=True),
    "actions": serializers.IntegerField(),
    "undos": serializers.IntegerField(help_text="U tokens in the verified log; 0: a clean game"),
    "verified_at": serializers.DateTimeField(),
}
ResultDocument = inline_serializer("Result", _RESULT)

# A finished session's result, with where the player stands now on its board and its clean twin.
_RANKS = {
    "rank": serializers.IntegerField(allow_null=True, help_text="my rank on `board`; null if unranked"),
    "personal_best": serializers.BooleanField(help_text="this game is my entry on `board`"),
    "clean_board": serializers.CharField(allow_null=True, help_text="`board`:clean, ranking games without an undo"),
    "clean_rank": serializers.IntegerField(allow_null=True, help_text="my rank on the clean board"),
    "clean_personal_best": serializers.BooleanField(help_text="this game is my entry on the clean board"),
}
SessionResultDocument = inline_serializer("SessionResult", {**_RESULT, **_RANKS}, allow_null=True)

TableCounts = inline_serializer(
    "TableCounts",
    {
        "columns": serializers.IntegerField(),
        "deals_left": serializers.IntegerField(help_text="deals the stock still holds"),
        "sequences": serializers.IntegerField(help_text="sequences removed to win (0 in Russian)"),
        "foundations": serializers.IntegerField(help_text="foundation piles (4 in Russian, else 0)"),
    },
)

SessionDocument = inline_serializer(
    "Session",
    {
        "id": serializers.UUIDField(),
        "code": serializers.CharField(allow_null=True),
        "variant": serializers.CharField(),
        "game": serializers.CharField(),
        "ranked": serializers.BooleanField(),
        "board": serializers.CharField(allow_null=True),
        "daily": serializers.DateField(allow_null=True),
        "view": serializers.DictField(help_text="SPEC section 5 state, face-down cards and stock as counts"),
        "table": TableCounts,
        "legal": serializers.ListField(child=serializers.CharField()),
        "best": serializers.DictField(child=serializers.CharField(), help_text='"column:count" -> token'),
        "tap": serializers.DictField(child=serializers.CharField(), help_text='"column" -> token (Russian)'),
        "finished": serializers.BooleanField(),
        "started_at": serializers.DateTimeField(),
        "finished_at": serializers.DateTimeField(allow_null=True),
        "elapsed_ms": serializers.IntegerField(),
        "actions": serializers.IntegerField(),
        "undos": serializers.IntegerField(help_text="undos played so far; a game with none is clean"),
        "result": SessionResultDocument,
    },
)

SubmissionAnswer = inline_serializer("SubmissionAnswer", {"result": ResultDocument})

DailyOverview = inline_serializer(
    "DailyOverview",
    {
        "date": serializers.DateField(),
        "dailies": serializers.ListField(
            child=inline_serializer(
                "DailyEntry",
                {
                    "variant": serializers.CharField(),
                    "board": serializers.CharField(),
                    "played": serializers.BooleanField(),
                    "finished": serializers.BooleanField(),
                    "session": serializers.UUIDField(allow_null=True),
                    "code": serializers.CharField(allow_null=True),
                },
            )
        ),
    },
)

REFUSALS = {
    400: ErrorDocument,
    401: ErrorDocument,
    404: ErrorDocument,
    409: ErrorDocument,
    413: ErrorDocument,
    422: ErrorDocument,
    429: ErrorDocument,
}
