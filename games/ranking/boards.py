"""Board ids: `code:<game code>` and `daily:<YYYY-MM-DD>:<variant>`, each with a clean twin
`<board>:clean` that ranks only results without an undo (docs/ranking.md)."""

from __future__ import annotations

import datetime as dt
import functools
import re
from dataclasses import dataclass

from django.utils.translation import gettext

from games import refusals
from games.deals.variants import goal_of
from games.engine import DAILY_VARIANTS, GameCode, InvalidCode, parse_variant
from web.errors import BadRequest, NotFound

CLEAN = ":clean"
_SHAPES = (
    "code:<game code> (code:SP1-S4C-AAAAAAD) or daily:<YYYY-MM-DD>:<variant> (daily:2026-11-30:SP1-S4C), "
    "either followed by :clean for its clean twin"
)


@dataclass(frozen=True)
class Board:
    id: str  # canonical
    variant: str
    date: dt.date | None = None  # dailies only
    clean: bool = False  # the clean twin: results without an undo only

    @property
    def progress_field(self) -> str:
        """What an entry counts towards the goal: cards home (Russian) or sequences removed."""
        return goal_of(self.variant)


def clean_twin(board: str) -> str:
    """The id of a board's clean twin (`board` is a canonical id without the suffix)."""
    return board + CLEAN


def daily_board_id(date: dt.date, variant: str) -> str:
    """The board of the daily of `date` and `variant`: ``daily:2026-11-30:SP1-S4C``."""
    return f"daily:{date.isoformat()}:{variant}"


_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def iso_date(text: str) -> dt.date | None:
    """The day `text` writes as YYYY-MM-DD, and in no other way date.fromisoformat reads; else None."""
    if not _ISO_DATE.fullmatch(text):
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        return None


def query_date(text: str | None) -> dt.date | None:
    """A query's date: None when it is not given; BadRequest if it is not a day written YYYY-MM-DD."""
    if text is None:
        return None
    date = iso_date(text)
    if date is None:
        raise BadRequest(gettext("The date must look like 2026-11-30."))
    return date


def parse_board(text: object, *, today: dt.date | None = None) -> Board:
    """The board named by `text` (any letter case); BadRequest naming what is wrong.

    With `today`, a daily board of a later date is NotFound: its deal does not exist yet.
    """
    if not isinstance(text, str) or ":" not in text:
        raise BadRequest(gettext("A board is %(shapes)s.") % {"shapes": _SHAPES})
    return _parsed(text, today)


# A board is read far more often than named anew: each text's board is worked out once (a Board is
# frozen, so readers share it). A refusal is not kept: it is worded again, in the request's language.
@functools.lru_cache(maxsize=1024)
def _parsed(text: str, today: dt.date | None) -> Board:
    kind, _, rest = text.strip().partition(":")
    kind = kind.lower()
    clean = rest.lower().endswith(CLEAN)
    if clean:
        rest = rest[: -len(CLEAN)]
    try:
        if kind == "code":
            code = GameCode.parse(rest)
            board = Board(id=f"code:{code}", variant=code.variant)
        elif kind == "daily":
            board = _daily(rest, today)
        else:
            raise BadRequest(
                gettext("Unknown kind of board %(kind)s: a board is %(shapes)s.")
                % {"kind": repr(kind), "shapes": _SHAPES}
            )
    except InvalidCode as error:
        raise BadRequest(f"{refusals.of_error(error)}.") from None
    if clean:
        return Board(id=clean_twin(board.id), variant=board.variant, date=board.date, clean=True)
    return board


def _daily(rest: str, today: dt.date | None) -> Board:
    date_text, _, variant_text = rest.partition(":")
    date = iso_date(date_text)
    if date is None:
        raise BadRequest(gettext("%(date)s is not a date written YYYY-MM-DD.") % {"date": repr(date_text)})
    variant = parse_variant(variant_text)
    if variant not in DAILY_VARIANTS:
        raise BadRequest(
            gettext("%(variant)s has no daily challenge. The dailies are: %(dailies)s.")
            % {"variant": variant, "dailies": ", ".join(DAILY_VARIANTS)}
        )
    if today is not None and date > today:
        raise NotFound(gettext("The dailies of %(date)s are not out yet.") % {"date": date.isoformat()})
    return Board(id=daily_board_id(date, variant), variant=variant, date=date)
