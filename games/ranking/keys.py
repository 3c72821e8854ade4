"""The ranking keys (docs/ranking.md) as one sortable string.

Every key is turned into fixed-width digits, "better" always smaller, so that
one byte-wise comparison orders entries exactly as the keys say. The same
string orders the PostgreSQL index, is the member of the Redis sorted set
(all scores 0, ranked by ZRANK / ZRANGE BYLEX) and is the opaque page cursor,
so SQL and Redis cannot disagree about an order.
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
from dataclasses import dataclass
from typing import Final

from django.utils.translation import gettext

from web.errors import BadRequest

_PROGRESS_TOP: Final = 999
_SCORE_OFFSET: Final = 10**9  # scores are bounded by 10,000 actions: far inside +-10^9
_NO_TIME: Final = 10**15 - 1  # a result without a server-measured time sorts after any with one
_WIDTHS: Final = (3, 10, 10, 15, 17, 19)  # progress, score, moves, time, finish (us), result id
KEY_LENGTH: Final = sum(_WIDTHS)
RESULT_ID_WIDTH: Final = _WIDTHS[-1]  # the key ends with the result id: a key is a prefix plus the id
_EPOCH: Final = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


@dataclass(frozen=True)
class RankKey:
    """What a result ranks by. `progress` is sequences removed or cards home."""

    progress: int
    score: int
    moves: int
    elapsed_ms: int | None
    finished_at: dt.datetime
    result_id: int  # last: two results never tie

    @classmethod
    def of(
        cls,
        *,
        russian: bool,
        progress: int,
        score: int,
        moves: int,
        elapsed_ms: int | None,
        finished_at: dt.datetime,
        result_id: int,
    ) -> RankKey:
        # Russian score can be inflated by take-backs, so it does not rank (docs/ranking.md).
        return cls(progress, 0 if russian else score, moves, elapsed_ms, finished_at, result_id)

    def sort_key(self) -> str:
        return self.prefix() + f"{self.result_id:0{RESULT_ID_WIDTH}d}"

    def prefix(self) -> str:
        """The key without its result id: all a statement needs that stores the result in the same
        round trip and pads its id itself (games.results.store.NewResult)."""
        elapsed = _NO_TIME if self.elapsed_ms is None else min(self.elapsed_ms, _NO_TIME - 1)
        finished_us = (self.finished_at - _EPOCH) // dt.timedelta(microseconds=1)
        parts = (_PROGRESS_TOP - self.progress, _SCORE_OFFSET - self.score, self.moves, elapsed, finished_us)
        return "".join(f"{value:0{width}d}" for value, width in zip(parts, _WIDTHS[:-1], strict=True))


def encode_cursor(sort_key: str) -> str:
    return base64.urlsafe_b64encode(sort_key.encode()).decode().rstrip("=")


def decode_cursor(cursor: str, length: int = KEY_LENGTH) -> str:
    """The key of `length` digits a cursor stands for; BadRequest if it is not one this server made
    (as written, so that the cursors accepted are exactly games.api.openapi.cursor's)."""
    try:
        key = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        key = ""
    if len(key) != length or not key.isdigit() or encode_cursor(key) != cursor:
        raise BadRequest(gettext("That cursor is not valid: use the next_cursor of the previous page."))
    return key
