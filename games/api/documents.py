"""OpenAPI shapes of the documents the play API answers with (docs/state.md, docs/api.md)."""

from drf_spectacular.utils import inline_serializer
from rest_framework import serializers

from games.engine.hint import REASONS

# Annotated: a dict of mixed field classes would be inferred dict[str, object], which inline_serializer refuses.
Fields = dict[str, serializers.Field]

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

_RESULT: Fields = {
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
    "undos": serializers.IntegerField(help_text="U tokens in the verified log"),
    "hints": serializers.IntegerField(help_text="hints its game was given; no undo and no hint: a clean game"),
    "verified_at": serializers.DateTimeField(),
}
ResultDocument = inline_serializer("Result", _RESULT)

# A finished session's result, with where the player stands now on its board and its clean twin.
_RANKS: Fields = {
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
        "home_move_cards": serializers.IntegerField(help_text="cards one move to a foundation takes (0: none)"),
        "deals": serializers.IntegerField(help_text="deals the full stock holds (0: the game has no stock)"),
        "goal": serializers.ChoiceField(
            choices=["sequences", "cards_home"], help_text="what a win counts, named as results name it"
        ),
        "goal_total": serializers.IntegerField(help_text="how many of `goal` win (8, 4 or 52)"),
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
        "view": serializers.DictField(help_text="the state document (docs/state.md), hidden cards as counts"),
        "table": TableCounts,
        "legal": serializers.ListField(child=serializers.CharField()),
        "best": serializers.DictField(child=serializers.CharField(), help_text='"column:count" -> token'),
        "tap": serializers.DictField(child=serializers.CharField(), help_text='"column" -> token (Russian)'),
        "finished": serializers.BooleanField(),
        "started_at": serializers.DateTimeField(),
        "finished_at": serializers.DateTimeField(allow_null=True),
        "elapsed_ms": serializers.IntegerField(),
        "actions": serializers.IntegerField(),
        "undos": serializers.IntegerField(help_text="undos played so far"),
        "hints": serializers.IntegerField(help_text="hints given so far; a game with no undo and no hint is clean"),
        "hint_refusal": serializers.CharField(
            allow_null=True,
            help_text="why this game gives no hint, in my language (a ranked blind deal); null: it gives them",
        ),
        "play_out": serializers.BooleanField(
            help_text="every card is face up and the stock is empty: POST .../play-out may play it out to its win"
        ),
        "room": serializers.UUIDField(allow_null=True, help_text="the race room this game is played in, if any"),
        "starts_in_ms": serializers.IntegerField(
            help_text="a race's countdown: until then the cards are face down and no action is taken"
        ),
        "result": SessionResultDocument,
    },
)

OpenSessionsDocument = inline_serializer(
    "OpenSessions",
    {
        "sessions": inline_serializer(
            "OpenSession",
            {
                "id": serializers.UUIDField(),
                "variant": serializers.CharField(),
                "code": serializers.CharField(allow_null=True, help_text="null while the code is secret (a daily)"),
                "daily": serializers.DateField(allow_null=True, help_text="the daily's date, if it is one"),
                "ranked": serializers.BooleanField(),
                "moves": serializers.IntegerField(help_text="the move count so far"),
                "actions": serializers.IntegerField(help_text="tokens in the log so far"),
                "started_at": serializers.DateTimeField(),
            },
            many=True,
            help_text="newest first",
        )
    },
)

WhyDocument = inline_serializer(
    "Why",
    {
        "group": serializers.CharField(required=False, help_text="the group asked about, column:count"),
        "action": serializers.CharField(required=False, help_text="the action asked about"),
        "targets": serializers.ListField(
            child=serializers.IntegerField(), required=False, help_text="a group's legal target columns"
        ),
        "allowed": serializers.BooleanField(),
        "rule": serializers.CharField(allow_null=True, help_text="the id of the rule it breaks, null if none"),
        "params": serializers.DictField(allow_null=True, help_text="what the rule's sentence names"),
        "message": serializers.CharField(allow_null=True, help_text="the rule in the player's language"),
    },
)

HintDocument = inline_serializer(
    "Hint",
    {
        "action": serializers.CharField(allow_null=True, help_text="the action's token; null: no action to suggest"),
        "reason": serializers.ChoiceField(
            choices=list(REASONS), allow_null=True, help_text="why this action (docs/rules.md, Hints)"
        ),
        "column": serializers.IntegerField(allow_null=True, help_text="the column the cards to move are in"),
        "count": serializers.IntegerField(allow_null=True, help_text="how many cards, from the column's top"),
        "target": serializers.IntegerField(allow_null=True, help_text="the column they go to; null: none"),
        "foundation": serializers.BooleanField(help_text="the card goes home"),
        "message": serializers.CharField(help_text="the hint, or why there is none, in my language"),
        "hints": serializers.IntegerField(help_text="hints this game has been given, this one included"),
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
                    "status": serializers.ChoiceField(
                        ["ready", "preparing"],
                        help_text="preparing: today's daily is not stored yet (Retry-After says when to ask again)",
                    ),
                    "played": serializers.BooleanField(),
                    "finished": serializers.BooleanField(),
                    "session": serializers.UUIDField(allow_null=True),
                    "code": serializers.CharField(allow_null=True),
                    "certified": serializers.BooleanField(
                        allow_null=True, help_text="the solver won it before anyone got it; null while being prepared"
                    ),
                    "certification": serializers.ChoiceField(
                        ["certified", "none_won", "unchecked"],
                        allow_null=True,
                        help_text="certified: the solver won it; none_won: the capped candidates were tried, none won; "
                        "unchecked: stored before certification existed; null while being prepared",
                    ),
                    "par": serializers.IntegerField(
                        allow_null=True, help_text="the solver's move count; null until published or if not certified"
                    ),
                },
            )
        ),
    },
)

_NAMED = {"name": serializers.CharField(help_text="in the player's language")}

VariantsDocument = inline_serializer(
    "Variants",
    {
        "games": inline_serializer(
            "GameChoice",
            {
                "prefix": serializers.CharField(help_text="SP1, SD1 or RU1"),
                "key": serializers.CharField(help_text="the rules page: spider, spiderette, russian"),
                "name": serializers.CharField(),
                "columns": serializers.IntegerField(),
                "sequences": serializers.IntegerField(),
                "deals": serializers.IntegerField(help_text="deals the full stock holds (0: no stock)"),
                "goal": serializers.ChoiceField(choices=["sequences", "cards_home"], help_text="what a win counts"),
                "goal_total": serializers.IntegerField(help_text="how many of `goal` win"),
                "suits": inline_serializer(
                    "SuitsChoice",
                    {"suits": serializers.IntegerField(), **_NAMED, "level": serializers.CharField()},
                    many=True,
                ),
                "rules": inline_serializer(
                    "RuleChoice",
                    {"rule": serializers.CharField(), **_NAMED, "note": serializers.CharField()},
                    many=True,
                ),
            },
            many=True,
        ),
        "variants": inline_serializer(
            "VariantChoice",
            {
                "id": serializers.CharField(help_text="SP1-S4C, SD1-S2, RU1-C, ..."),
                "game": serializers.CharField(help_text="the game's prefix"),
                "suits": serializers.IntegerField(),
                "rule": serializers.CharField(help_text="C (Classic) or R (Relaxed)"),
                "daily": serializers.BooleanField(help_text="has a daily challenge"),
                **_NAMED,
            },
            many=True,
        ),
        "daily": serializers.ListField(child=serializers.CharField(), help_text="the daily variants, in order"),
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
    503: ErrorDocument,
}

_PROGRESS: Fields = {
    "player": serializers.CharField(),
    "moves": serializers.IntegerField(),
    "score": serializers.IntegerField(),
    "sequences": serializers.IntegerField(required=False),
    "cards_home": serializers.IntegerField(required=False),
    "finished": serializers.BooleanField(),
    "out_of_time": serializers.BooleanField(
        help_text="still playing at the race's time limit: the game ended as it stood, placed last"
    ),
    "won": serializers.BooleanField(),
    "elapsed_ms": serializers.IntegerField(allow_null=True),
    "undos": serializers.IntegerField(help_text="undos so far (the verified result's once finished)"),
    "result": serializers.IntegerField(allow_null=True),
}

RoomDocument = inline_serializer(
    "Room",
    {
        "id": serializers.UUIDField(),
        "host": serializers.CharField(),
        "state": serializers.ChoiceField(choices=["lobby", "racing", "finished"]),
        "variant": serializers.CharField(),
        "code": serializers.CharField(allow_null=True, help_text="null while a fresh deal's race is on"),
        "created_at": serializers.DateTimeField(),
        "started_at": serializers.DateTimeField(allow_null=True, help_text="the go, after the countdown"),
        "starts_in_ms": serializers.IntegerField(help_text="the countdown to the go; 0 once the race is on"),
        "ends_in_ms": serializers.IntegerField(
            help_text="until the race's time limit, when games still open end and place last; 0 unless racing"
        ),
        "ended_at": serializers.DateTimeField(allow_null=True),
        "players": inline_serializer("RacerProgress", _PROGRESS, many=True),
        "host_may_end": serializers.BooleanField(
            help_text="whether the host may end the race now: not once it is over, nor a race that would be rated"
            " while another racer plays"
        ),
        "you": inline_serializer(
            "RoomViewer",
            {
                "member": serializers.BooleanField(),
                "host": serializers.BooleanField(),
                "session": serializers.UUIDField(allow_null=True, help_text="your refereed session once started"),
            },
        ),
        # Added to a finished race's document by the rated races (games.rooms.race_events describers).
        "rated": serializers.CharField(
            required=False,
            allow_null=True,
            help_text="rated, or why not (called_off, known_code, too_few, linked); null until decided",
        ),
        "rematch": inline_serializer(
            "RoomRematch",
            {
                "room": serializers.UUIDField(),
                "state": serializers.ChoiceField(choices=["lobby", "racing", "finished"]),
                "players": serializers.ListField(child=serializers.CharField(), help_text="who has joined it"),
            },
            required=False,
            allow_null=True,
        ),
    },
)


def refusals(*statuses: int) -> dict[int, object]:
    return {status: ErrorDocument for status in statuses}
