"""What the OpenAPI document declares beyond the views' own annotations: the exact shapes of the ids
the service reads (so that a value the document allows is one the service accepts, and the other way
round), and a postprocessing hook for what holds for every call.

The patterns are ECMA-262 and Python regular expressions alike. Letter case is free where the service
folds it (codes, variants, board ids), and so are the blanks it strips around a value.
"""

from __future__ import annotations

from typing import Any, Literal

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter

from games.engine import ALL_VARIANTS, BLANKS, DAILY_VARIANTS
from games.services import MAX_TOKEN_CHARS
from games.sessions.why import GROUP

# What str.strip() removes (and so DRF's CharField): around a body's text field.
SPACE = r"\t\n\v\f\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
# What the engine strips around a code or a variant it reads (games.engine.BLANKS).
BLANK = "".join({" ": " ", "\t": r"\t", "\r": r"\r", "\n": r"\n"}[char] for char in BLANKS)


def any_case(text: str) -> str:
    """`text` (letters, digits and '-') in any letter case."""
    return "".join(f"[{char.upper()}{char.lower()}]" if char.isalpha() else char for char in text)


def _either(texts: tuple[str, ...]) -> str:
    return "(?:" + "|".join(any_case(text) for text in texts) + ")"


VARIANT = _either(ALL_VARIANTS)
DAILY_VARIANT = _either(DAILY_VARIANTS)
CODE = rf"{VARIANT}-(?:[A-Za-z]{{7}}|[A-Za-z]{{20}})"  # games.engine.codes: 7 deal letters, or 20

# A day of the Gregorian calendar, years 0001-9999, written YYYY-MM-DD (what date.fromisoformat reads).
_YEAR = "(?:[0-9]{3}[1-9]|[0-9]{2}[1-9][0-9]|[0-9][1-9][0-9]{2}|[1-9][0-9]{3})"
_DAY = (
    "(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])"
    "|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)"
    "|02-(?:0[1-9]|1[0-9]|2[0-8]))"
)
_LEAP = "(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)-02-29"
DATE = f"(?:{_YEAR}-{_DAY}|{_LEAP})"

# games.ranking.boards.parse_board: code:<code> or daily:<date>:<daily variant>, perhaps :clean after it.
BOARD_ID = (
    rf"[{SPACE}]*(?:{any_case('code')}:[{BLANK}]*{CODE}[{BLANK}]*"
    rf"|{any_case('daily')}:{DATE}:[{BLANK}]*{DAILY_VARIANT}[{BLANK}]*)(?::{any_case('clean')})?[{SPACE}]*"
)


def whole(pattern: str) -> str:
    """`pattern` as the whole value."""
    return f"^{pattern}$"


def padded(pattern: str, blanks: str) -> str:
    """`pattern` as the whole value, with any of `blanks` around it."""
    return f"^[{blanks}]*{pattern}[{blanks}]*$"


def cursor(digits: int) -> str:
    """A cursor this service makes (games.ranking.keys.encode_cursor): `digits` decimal digits in base64url,
    unpadded. Each three digits are four characters; the one or two left over, two or three."""
    lead = "(?:[MN][DTjz]|O[DT])"  # the first digit's bits, then the second's high ones
    full = f"{lead}[AEIMQUYcgk][w-z0-5]"
    rest = {0: "", 1: "(?:[MN][AQgw]|O[AQ])", 2: f"{lead}[AEIMQUYcgk]"}[digits % 3]
    return f"^(?:{full}){{{digits // 3}}}{rest}$"


def text(length: int | None = None) -> str:
    """What an untrimmed DRF CharField takes: not empty, no NUL, at most `length` characters."""
    bounded = f"{{1,{length}}}" if length is not None else "+"
    return rf"^[^\x00]{bounded}$"


def date_parameter(name: str, description: str, *, required: bool = False) -> OpenApiParameter:
    """A query's date (games.ranking.boards.query_date)."""
    return OpenApiParameter(
        name, OpenApiTypes.DATE, required=required, pattern=whole(DATE), allow_blank=False, description=description
    )


def variant_parameter(
    name: str,
    description: str,
    *,
    daily: bool = False,
    location: Literal["query", "path"] = "query",
    required: bool = False,
) -> OpenApiParameter:
    """A variant in a query or a path (games.engine.parse_variant), or only one with a daily."""
    pattern = padded(DAILY_VARIANT if daily else VARIANT, BLANK)
    return OpenApiParameter(
        name, str, location, required=required, pattern=pattern, allow_blank=False, description=description
    )


BOARD = OpenApiParameter(
    "board",
    str,
    OpenApiParameter.PATH,
    pattern=whole(BOARD_ID),
    description="code:<game code> or daily:<YYYY-MM-DD>:<variant>, either followed by :clean for its clean twin "
    "(each player's best result without an undo); any letter case",
)
STEP = OpenApiParameter(
    "step",
    {"type": "integer", "minimum": 0},
    description="actions replayed, 0 to the game's steps (default 0); past its last step, 404",
)

# Why not: about a group or about an action, never both (games.sessions.why.why_not). As one query object,
# exploded into its one field, so that the document can say "exactly one".
_TOKEN = rf"[^{BLANK}](?:[\s\S]{{0,{MAX_TOKEN_CHARS - 2}}}[^{BLANK}])?"
WHY_QUESTION = OpenApiParameter(
    "question",
    {
        "type": "object",
        "properties": {
            "group": {
                "type": "string",
                "pattern": whole(GROUP.pattern),
                "description": "column:count, like 3:4: may these cards be picked up?",
            },
            "action": {
                "type": "string",
                "pattern": padded(_TOKEN, BLANK),
                "description": "a token, like 3:4>7: why is it refused?",
            },
        },
        "minProperties": 1,
        "maxProperties": 1,
        "additionalProperties": False,
    },
    required=True,
    style="form",
    explode=True,
    description="group=... or action=...: exactly one of them",
)


# Request bodies whose serializer takes exactly one of its fields (its validate() refuses any other count).
EXACTLY_ONE = ("StartSessionRequest", "NewRoomRequest")


def postprocess(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """drf-spectacular's postprocessing hook: what holds for every call, said once.

    - A bad token or session is refused on every call (401), whether or not the call needs a player.
    - A body over MAX_BODY_BYTES is refused on every call that takes one (413).
    - A body is a JSON object with the fields its serializer names and no other (web.fields.ClosedSerializer).
    """
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for methods in result.get("paths", {}).values():
        for operation in methods.values():
            responses = operation.setdefault("responses", {})
            responses.setdefault("401", {"content": error, "description": ""})
            if "requestBody" in operation:
                operation["requestBody"]["required"] = True
                responses.setdefault("413", {"content": error, "description": ""})
            operation["responses"] = dict(sorted(responses.items()))
    schemas = result.get("components", {}).get("schemas", {})
    for name, schema in schemas.items():
        if name.endswith("Request") and schema.get("type") == "object":
            schema["additionalProperties"] = False
        if name in EXACTLY_ONE:
            schema["minProperties"] = schema["maxProperties"] = 1
    return result
