"""OpenAPI shapes of the leaderboard, player and replay documents (docs/api.md)."""

from drf_spectacular.utils import inline_serializer
from rest_framework import serializers

from games.api.documents import Fields, ResultDocument, TableCounts
from races.api.documents import PlayerRatingDocument

_ENTRY: Fields = {
    "rank": serializers.IntegerField(),
    "player": serializers.CharField(),
    "score": serializers.IntegerField(),
    "moves": serializers.IntegerField(),
    "won": serializers.BooleanField(),
    "sequences": serializers.IntegerField(required=False, help_text="Spider and Spiderette boards"),
    "cards_home": serializers.IntegerField(required=False, help_text="Russian Solitaire boards"),
    "elapsed_ms": serializers.IntegerField(allow_null=True),
    "undos": serializers.IntegerField(help_text="U tokens in the result's log; always 0 on a clean board"),
    "result": serializers.IntegerField(help_text="the result's id"),
}

# One class, used twice: the entries and my own entry.
_Entry = type(inline_serializer("LeaderboardEntry", _ENTRY))

LeaderboardDocument = inline_serializer(
    "Leaderboard",
    {
        "board": serializers.CharField(),
        "entries": _Entry(many=True),
        "next_cursor": serializers.CharField(allow_null=True, help_text="opaque; null on the last page"),
        "total": serializers.IntegerField(),
        "me": _Entry(allow_null=True, help_text="my entry; null if I have none or am not signed in"),
    },
)

ArchiveDocument = inline_serializer(
    "DailyArchive",
    {
        "days": inline_serializer(
            "ArchiveDay",
            {
                "date": serializers.DateField(),
                "boards": inline_serializer(
                    "ArchiveBoard",
                    {
                        "board": serializers.CharField(),
                        "variant": serializers.CharField(),
                        "players": serializers.IntegerField(help_text="players ranked on it"),
                        "leader": _Entry(allow_null=True, help_text="its first entry; null if nobody ranked"),
                    },
                    many=True,
                ),
            },
            many=True,
        ),
        "next_before": serializers.DateField(allow_null=True, help_text="the next page's before; null at the end"),
    },
)

AllTimeDocument = inline_serializer(
    "AllTimeBoard",
    {
        "variant": serializers.CharField(),
        "by": serializers.ChoiceField(choices=["best", "wins", "streak"]),
        "entries": serializers.ListField(
            child=serializers.DictField(),
            help_text="best: leaderboard entries (each player's best verified result on any deal of the "
            "variant); wins and streak: {rank, player, games, wins, clean_wins, best_score, daily_streak, "
            "best_daily_streak}",
        ),
    },
)

_STATS: Fields = {
    "variant": serializers.CharField(),
    "games": serializers.IntegerField(),
    "wins": serializers.IntegerField(),
    "clean_wins": serializers.IntegerField(help_text="wins without an undo or a hint"),
    "average_win_moves": serializers.FloatField(allow_null=True, help_text="the wins' moves on average; null: no win"),
    "average_win_ms": serializers.IntegerField(
        allow_null=True, help_text="the wins' playing time on average, of those timed (a submission has none)"
    ),
    "win_streak": serializers.IntegerField(help_text="wins in a row, in the order counted, up to the last game"),
    "best_win_streak": serializers.IntegerField(help_text="the most wins in a row"),
    "best_score": serializers.IntegerField(allow_null=True, help_text="Spider and Spiderette; null for Russian"),
    "best_cards_home": serializers.IntegerField(
        allow_null=True, help_text="Russian Solitaire's best game: the most cards home ..."
    ),
    "best_moves": serializers.IntegerField(allow_null=True, help_text="... then the fewest moves (Russian only)"),
    "daily_streak": serializers.IntegerField(help_text="consecutive UTC days with a finished ranked daily, alive"),
    "best_daily_streak": serializers.IntegerField(),
    "last_daily": serializers.DateField(allow_null=True),
}

_POINT: Fields = {
    "result": serializers.IntegerField(),
    "finished_at": serializers.DateTimeField(),
    "score": serializers.IntegerField(),
    "moves": serializers.IntegerField(),
    "won": serializers.BooleanField(),
}

PlayerPageDocument = inline_serializer(
    "PlayerPage",
    {
        "player": inline_serializer(
            "PlayerProfile", {"name": serializers.CharField(), "joined": serializers.DateTimeField()}
        ),
        "stats": inline_serializer("PlayerStats", _STATS, many=True),
        "results": serializers.ListField(child=ResultDocument),
        "next_cursor": serializers.CharField(allow_null=True),
        "series": serializers.DictField(
            child=inline_serializer("SeriesPoint", _POINT, many=True),
            help_text="variant -> its most recent games, oldest first",
        ),
        "ratings": PlayerRatingDocument,
    },
)

ReplayDocument = inline_serializer(
    "Replay",
    {
        "result": ResultDocument,
        "step": serializers.IntegerField(),
        "steps": serializers.IntegerField(),
        "token": serializers.CharField(allow_null=True, help_text="the action that led to this step"),
        "state": serializers.DictField(help_text="the state document (docs/state.md), every card shown"),
        "table": TableCounts,
    },
)

ParDocument = inline_serializer(
    "DailyPar",
    {
        "board": serializers.CharField(),
        "date": serializers.DateField(),
        "variant": serializers.CharField(),
        "code": serializers.CharField(help_text="published with the par"),
        "certified": serializers.BooleanField(),
        "par": serializers.IntegerField(allow_null=True, help_text="the solver's move count; null if not certified"),
        "beat": serializers.IntegerField(allow_null=True, help_text="players on this board who won in fewer moves"),
        "matched": serializers.IntegerField(allow_null=True, help_text="players who won in exactly par moves"),
        "candidates": inline_serializer(
            "DailyCandidate",
            {
                "k": serializers.IntegerField(),
                "code": serializers.CharField(),
                "verdict": serializers.ChoiceField(choices=["won", "unwinnable", "unknown"]),
                "seconds": serializers.FloatField(help_text="the solver's time on it"),
                "par": serializers.IntegerField(allow_null=True),
            },
            many=True,
            help_text="each candidate tried, in order, up to the one chosen",
        ),
    },
)

ParReplayDocument = inline_serializer(
    "DailyParReplay",
    {
        "daily": inline_serializer(
            "ParLineDaily",
            {
                "board": serializers.CharField(),
                "date": serializers.DateField(),
                "variant": serializers.CharField(),
                "code": serializers.CharField(),
                "par": serializers.IntegerField(),
            },
        ),
        "step": serializers.IntegerField(),
        "steps": serializers.IntegerField(),
        "token": serializers.CharField(allow_null=True, help_text="the action that led to this step"),
        "state": serializers.DictField(help_text="the state document (docs/state.md), every card shown"),
        "table": TableCounts,
    },
)

DailyRecapDocument = inline_serializer(
    "DailyRecap",
    {
        "date": serializers.DateField(),
        "variant": serializers.CharField(),
        "board": serializers.CharField(help_text="daily:<date>:<variant>"),
        "clean_board": serializers.CharField(help_text="its clean twin"),
        "score": serializers.IntegerField(),
        "moves": serializers.IntegerField(),
        "elapsed_ms": serializers.IntegerField(allow_null=True),
        "won": serializers.BooleanField(),
        "sequences": serializers.IntegerField(required=False, help_text="Spider and Spiderette"),
        "cards_home": serializers.IntegerField(required=False, help_text="Russian Solitaire"),
        "undos": serializers.IntegerField(),
        "clean": serializers.BooleanField(help_text="no undo: ranked on the clean twin too"),
        "rank": serializers.IntegerField(allow_null=True, help_text="my rank on the board now"),
        "clean_rank": serializers.IntegerField(
            allow_null=True, help_text="my rank on the clean twin now; null if not clean"
        ),
        "publishes_at": serializers.DateTimeField(help_text="01:00 UTC the next day: the code and the par are out"),
        "published": serializers.BooleanField(),
        "par": serializers.IntegerField(allow_null=True, help_text="null until published, or if not certified"),
        "next_dailies_at": serializers.DateTimeField(help_text="the next 00:00 UTC"),
        "streak": inline_serializer(
            "DailyStreak",
            {
                "current": serializers.IntegerField(help_text="consecutive days with a finished ranked daily, alive"),
                "best": serializers.IntegerField(),
                "from": serializers.DateField(help_text="the Monday the calendar starts on"),
                "days": inline_serializer(
                    "StreakDay",
                    {
                        "date": serializers.DateField(),
                        "status": serializers.ChoiceField(
                            choices=["won", "played", "missed", "open"],
                            help_text="open: today, not finished yet",
                        ),
                    },
                    many=True,
                    help_text="oldest first, from the later of `from`, my first day and the league's, to today",
                ),
            },
        ),
    },
)
