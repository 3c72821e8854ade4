"""Game codes as stored deals: parsing input, fresh random deals, one Deal row per code."""

from __future__ import annotations

import secrets

from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from games import refusals
from games.engine import DEAL_NUMBERS, LONG_DEAL_NUMBERS, GameCode, InvalidCode, parse_variant
from games.models import Deal
from web.errors import Unprocessable

# The longest code is 28 characters (a long code, docs/codes.md); anything much longer is refused
# before the engine would echo it back in its message.
MAX_CODE_CHARS = 64


def parse_code(text: object) -> GameCode:
    """A game code from a player's input, short or long; a 422 naming what is wrong."""
    if isinstance(text, str):
        length = len(text.strip(" \t\r\n"))
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


def deal_for(code: GameCode) -> Deal:
    """The stored Deal of a code, made on first use (safe under concurrent first uses)."""
    text = str(code)
    try:
        return Deal.objects.get(code=text)
    except Deal.DoesNotExist:
        pass
    try:
        with transaction.atomic():
            return Deal.objects.create(code=text, game=code.game, variant=code.variant)
    except IntegrityError:
        return Deal.objects.get(code=text)
