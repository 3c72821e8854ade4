"""OpenAPI shapes of the rated races' documents (docs/api.md)."""

from drf_spectacular.utils import inline_serializer
from rest_framework import serializers

from games.api.documents import Fields, TableCounts

_SHOWN: Fields = {
    "rating": serializers.IntegerField(help_text="60 points a unit of the model's mean: a new player is 1500"),
    "uncertainty": serializers.IntegerField(help_text="two standard deviations, in points: rating ± this"),
    "races": serializers.IntegerField(help_text="rated races played in this game"),
    "provisional": serializers.BooleanField(help_text="fewer rated races than provisional_races"),
}

RatingBoardDocument = inline_serializer(
    "RatingBoard",
    {
        "game": serializers.ChoiceField(choices=["SP", "SD", "RU"]),
        "group": serializers.ChoiceField(choices=["rated", "provisional"]),
        "provisional_races": serializers.IntegerField(help_text="races before a rating stops being provisional"),
        "entries": inline_serializer(
            "RatingEntry", {"rank": serializers.IntegerField(), "player": serializers.CharField(), **_SHOWN}, many=True
        ),
        "next_cursor": serializers.CharField(allow_null=True),
    },
)

PlayerRatingDocument = inline_serializer(
    "PlayerRating",
    {
        "game": serializers.CharField(),
        **_SHOWN,
        "history": inline_serializer(
            "RatingPoint",
            {
                "at": serializers.DateTimeField(),
                "rating": serializers.IntegerField(),
                "uncertainty": serializers.IntegerField(),
                "place": serializers.IntegerField(),
                "racers": serializers.IntegerField(),
                "room": serializers.UUIDField(),
            },
            many=True,
        ),
    },
    many=True,
)

RaceReviewDocument = inline_serializer(
    "RaceReview",
    {
        "room": serializers.UUIDField(),
        "code": serializers.CharField(),
        "variant": serializers.CharField(),
        "solver": inline_serializer(
            "RaceSolver",
            {
                "status": serializers.ChoiceField(choices=["pending", "won", "unwinnable", "unknown"]),
                "par": serializers.IntegerField(allow_null=True),
                "steps": serializers.IntegerField(help_text="actions in the solver's winning line"),
                "seconds_budget": serializers.FloatField(),
            },
        ),
        "players": inline_serializer(
            "RacerReview",
            {
                "player": serializers.CharField(),
                "result": serializers.IntegerField(allow_null=True),
                "won": serializers.BooleanField(),
                "steps": serializers.IntegerField(),
                "left_line_at": serializers.IntegerField(
                    allow_null=True,
                    help_text="the first action (1 = first) that is not the solver's action at that step; "
                    "null if the game follows the line, or there is no line",
                ),
            },
            many=True,
        ),
    },
)

RaceLineDocument = inline_serializer(
    "RaceSolverLine",
    {
        "race": inline_serializer(
            "RaceLineRace",
            {
                "room": serializers.UUIDField(),
                "code": serializers.CharField(),
                "variant": serializers.CharField(),
                "par": serializers.IntegerField(allow_null=True),
            },
        ),
        "step": serializers.IntegerField(),
        "steps": serializers.IntegerField(),
        "token": serializers.CharField(allow_null=True),
        "state": serializers.DictField(help_text="the state document (docs/state.md), every card shown"),
        "table": TableCounts,
    },
)
