"""Game codes as stored deals: parsing input, fresh random deals, one Deal row per code."""

from __future__ import annotations

import secrets

from django.db import IntegrityError, transaction

from config.errors import Unprocessable
from games import refusals
from games.engine import DEAL_NUMBERS, GameCode, InvalidCode, parse_variant
from games.models import Deal


def parse_code(text: object) -> GameCode:
    try:
        return GameCode.parse(text)
    except InvalidCode as error:
        raise Unprocessable(refusals.of_error(error), index=0, rule=error.rule) from None


def parse_variant_or_refuse(text: object) -> str:
    try:
        return parse_variant(text)
    except InvalidCode as error:
        raise Unprocessable(refusals.of_error(error), rule=error.rule) from None


def fresh_code(variant: str) -> GameCode:
    """A deal nobody chose: drawn from the OS's random source."""
    return GameCode.from_variant(variant, secrets.randbelow(DEAL_NUMBERS))


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
