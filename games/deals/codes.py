"""Game codes: parsing input, fresh random codes, and the one StoredCode row of each code used."""

from __future__ import annotations

import secrets
from typing import Any

from django.db import DEFAULT_DB_ALIAS
from django.utils import timezone
from django.utils.translation import gettext

from games import refusals
from games.engine import BLANKS, DEAL_NUMBERS, LONG_DEAL_NUMBERS, GameCode, InvalidCode, parse_variant
from games.models import StoredCode
from web.errors import Unprocessable
from web.storage import fetch_each, values_database

# The longest code is 28 characters (a long code, docs/codes.md); anything much longer is refused
# before the engine would echo it back in its message.
MAX_CODE_CHARS = 64


def parse_code(text: object) -> GameCode:
    """A game code from a player's input, short or long; a 422 naming what is wrong."""
    if isinstance(text, str):
        length = len(text.strip(BLANKS))
        if length > MAX_CODE_CHARS:
            raise Unprocessable(
                gettext(
                    "That is not a game code: it has %(length)s characters, and a game code has at most 28, "
                    "like SP1-S4C-AAAAAAD (7 deal letters) or SP1-S4C-QWERTYUIOPASDFGHJKLZ (20)."
                )
                % {"length": length},
                index=0,
            )
    try:
        return GameCode.parse(text)
    except InvalidCode as error:
        raise Unprocessable(refusals.of_error(error), index=0, rule=error.rule) from None


def parse_variant_or_refuse(text: object) -> str:
    try:
        return parse_variant(text)
    except InvalidCode as error:
        raise Unprocessable(refusals.of_error(error), rule=error.rule) from None


def fresh_code(variant: str, *, long: bool = False) -> GameCode:
    """A deal nobody chose, drawn from the OS's random source: a short code to share, or a long
    one for a deal that must stay secret for a while (nobody can find a long code from its cards)."""
    return GameCode.from_variant(variant, secrets.randbelow(LONG_DEAL_NUMBERS if long else DEAL_NUMBERS), long=long)


# Get or make in one statement (PostgreSQL, SQLite >= 3.35): the no-op update makes RETURNING give
# the existing row's id too, and a concurrent first use waits on the unique index instead of failing,
# so it needs no savepoint and joins the caller's transaction (a submission's result's).
_STORED_CODE = f"""INSERT INTO {StoredCode._meta.db_table} (code, game, variant, created_at) VALUES (%s, %s, %s, %s)
ON CONFLICT (code) DO UPDATE SET code = excluded.code
RETURNING id"""


def stored_code_statement(code: GameCode) -> tuple[str, list[Any]]:
    """The get-or-make of the code's StoredCode row, whose row is its id (stored_code_row)."""
    now = values_database().ops.adapt_datetimefield_value(timezone.now())
    return _STORED_CODE, [str(code), code.game, code.variant, now]


def stored_code_row(code: GameCode, stored_code_id: int | None) -> StoredCode:
    """The StoredCode of `code` stored as `stored_code_id` (None: a statement about to run makes or
    finds it, and its id is set then); created_at is left deferred (an existing row keeps its own,
    read only if asked for)."""
    values = [stored_code_id, str(code), code.game, code.variant]
    return StoredCode.from_db(DEFAULT_DB_ALIAS, ["id", "code", "game", "variant"], values)


def stored_code_for(code: GameCode) -> StoredCode:
    """The StoredCode row of a code, made on first use (safe under concurrent first uses)."""
    (row,) = fetch_each([stored_code_statement(code)])
    assert row is not None  # an upsert always gives its row
    return stored_code_row(code, row[0])
