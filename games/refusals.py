"""A refused action in the player's language.

The rules engine refuses with a rule id and its parameters (``games.engine.rules``):
``group_one_suit`` with ``{"game": "Spider", "card": "8H", "below": "9S"}``. Here
that becomes a sentence in the active language with Django's gettext, the
cards named in the language's words, as the play page names them (the same
msgids as ``frontend/static/frontend/js/cards.js``): "hertta 8", "8 herc".

Each msgid is the engine's English sentence with ``%(name)s`` placeholders, so
English reads exactly as the engine says it (cards as ``8♥``). A rule with no
sentence here (hand-made positions, which no player meets) keeps the engine's
English message.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.formats import number_format
from django.utils.translation import gettext, gettext_noop, ngettext

from games.engine import EngineError
from games.engine.cards import CARD_OF_NAME, display
from games.engine.rules import CARD_PARAMS, GROUPED_PARAMS, english, english_values

# The card's words: the msgids of the play page's catalog (djangojs), kept the same here.
CARD_NAME = gettext_noop("%(rank)s of %(suit)s")
RANK_NAMES = (
    gettext_noop("ace"),
    gettext_noop("two"),
    gettext_noop("three"),
    gettext_noop("four"),
    gettext_noop("five"),
    gettext_noop("six"),
    gettext_noop("seven"),
    gettext_noop("eight"),
    gettext_noop("nine"),
    gettext_noop("ten"),
    gettext_noop("jack"),
    gettext_noop("queen"),
    gettext_noop("king"),
)
SUIT_NAMES = {
    "S": gettext_noop("spades"),
    "H": gettext_noop("hearts"),
    "D": gettext_noop("diamonds"),
    "C": gettext_noop("clubs"),
}

SENTENCES: dict[str, str] = {
    "malformed_not_text": gettext_noop("An action is written as text, like 3:4>7; got %(token)s (%(type)s)"),
    "malformed_empty": gettext_noop("The action is empty: write A:N>B, D, U, A>F or Fs>B (for example 3:4>7)"),
    "malformed_not_ascii": gettext_noop(
        "%(text)s is not an action: only ASCII digits and the letters of A:N>B, D, U, A>F or Fs>B "
        "(for example 3:4>7) may be used, not %(char)s"
    ),
    "malformed_blank_inside": gettext_noop(
        "%(text)s is not an action: an action has no spaces or other blank characters inside"
    ),
    "malformed_same_column": gettext_noop(
        "%(text)s is not an action: a move goes from one column to another, not from column %(column)s onto itself"
    ),
    "malformed_no_such_foundation": gettext_noop(
        "%(text)s is not an action: there is no foundation %(letter)s, only S, H, D and C"
    ),
    "malformed_token": gettext_noop("%(text)s is not an action: write A:N>B, D, U, A>F or Fs>B (for example 3:4>7)"),
    "malformed_zero": gettext_noop("%(text)s is not an action: columns and counts start at 1, not 0"),
    "malformed_leading_zero": gettext_noop("%(text)s is not an action: numbers have no leading zeros (%(digits)s)"),
    "malformed_number_too_large": gettext_noop("%(text)s is not an action: the number %(number)s is far too large"),
    "game_won": gettext_noop("The game is won: no more moves"),
    "nothing_to_undo": gettext_noop("Nothing to undo"),
    "no_such_column": gettext_noop("There is no column %(column)s: %(game)s has %(columns)s columns"),
    "no_such_foundation": gettext_noop("There is no foundation %(letter)s: the foundations are S, H, D and C"),
    "move_no_cards": gettext_noop("A move takes at least one card"),
    "column_empty": gettext_noop("Column %(column)s is empty"),
    "not_a_run": gettext_noop("Only cards in sequence move together: the %(card)s is not one rank below the %(below)s"),
    "nothing_onto_ace": gettext_noop("The %(card)s doesn't fit on the %(top)s: nothing goes onto an ace"),
    "doesnt_fit": gettext_noop("The %(card)s doesn't fit on the %(top)s: a card goes only onto a card one rank higher"),
    "doesnt_fit_same_suit": gettext_noop(
        "The %(card)s doesn't fit on the %(top)s: in Classic Russian Solitaire a card goes only onto the next "
        "higher card of the same suit"
    ),
    "empty_column_king_only": gettext_noop("Only a king can go to an empty column"),
    "group_too_big": gettext_noop("At most %(limit)s cards can move at once"),
    "stock_empty": gettext_noop("The stock is empty"),
    "deal_with_empty_column": gettext_noop("You can't deal while a column is empty (column %(column)s)"),
    "no_stock": gettext_noop("%(game)s has no stock"),
    "no_foundations": gettext_noop("%(game)s has no foundations"),
    "foundation_not_ready": gettext_noop(
        "The %(card)s can't go home yet: the %(suit)s foundation needs %(needs)s first"
    ),
    "foundation_empty": gettext_noop("The %(suit)s foundation is empty"),
    "code_not_text": gettext_noop("A game code must be text, not %(type)s"),
    "code_empty": gettext_noop("A game code is empty"),
    "code_not_ascii": gettext_noop("A game code uses only the letters A-Z, digits and '-'; %(text)s has others"),
    "code_parts": gettext_noop(
        "A game code has three parts joined by '-', like SP1-S4C-AAAAAAD; %(text)s has %(parts)s"
    ),
    "variant_not_text": gettext_noop("A variant must be text, not %(type)s"),
    "variant_empty": gettext_noop("A variant is empty"),
    "variant_not_ascii": gettext_noop("A variant uses only the letters A-Z, digits and '-'; %(text)s has others"),
    "variant_parts": gettext_noop(
        "A variant has two parts joined by '-', like SP1-S4C, SD1-S2 or RU1-C; %(text)s has %(parts)s"
    ),
    "variant_unknown": gettext_noop("There is no variant %(variant)s"),
    "code_unknown_game": gettext_noop(
        "Unknown game %(head)s: a code starts with SP1 (Spider), SD1 (Spiderette) or RU1 (Russian Solitaire)"
    ),
    "code_unknown_version": gettext_noop(
        "Unknown deal version %(version)s in %(head)s: only version 1 exists (%(prefix)s1)"
    ),
    "code_russian_rule": gettext_noop("Russian Solitaire's rule is C (Classic) or R (Relaxed), not %(body)s"),
    "code_suits_shape": gettext_noop("%(game)s's variant is S and the number of suits, like S4; not %(body)s"),
    "code_suits_count": gettext_noop("%(game)s is played with 1, 2 or 4 suits, not %(number)s"),
    "code_spiderette_rule": gettext_noop("Spiderette has no rule letter: write SD1-S%(suits)s, not SD1-%(written)s"),
    "code_spider_rule_missing": gettext_noop(
        "Spider's variant needs a rule after the suits: S%(suits)sC (Classic) or S%(suits)sR (Relaxed)"
    ),
    "code_spider_rule": gettext_noop("Spider's rule is C (Classic) or R (Relaxed), not %(letter)s"),
    "code_one_suit_relaxed": gettext_noop("With one suit Spider has only the Classic rule (C): write SP1-S1C"),
    "code_deal_number": gettext_noop("The deal number must be a whole number from 0 to %(highest)s"),
    "code_letters_count": gettext_noop(
        "The deal part is %(short)s or %(long)s letters A-Z, like AAAAAAD; %(letters)s has %(given)s"
    ),
    "code_letters": gettext_noop("The deal number is made of the letters A-Z only; %(letters)s has %(char)s"),
    "moves_not_a_list": gettext_noop("The moves must be a list of tokens"),
    "log_too_long": gettext_noop("A log has at most %(limit)s actions; this one has %(count)s"),
}

# One rule, two sentences: Classic Spider and Spiderette name their group rule apart.
GROUP_ONE_SUIT = {
    "Spider": gettext_noop("In Classic Spider a group must be one suit: the %(card)s is on the %(below)s"),
    "Spiderette": gettext_noop("In Spiderette a group must be one suit: the %(card)s is on the %(below)s"),
}

TRANSLATED_RULES = frozenset(SENTENCES) | {"group_one_suit", "not_enough_face_up"}


def card_name(code: str) -> str:
    """A card (``"8H"``) in the active language's words; its English sign (``8♥``) where none are translated."""
    card = CARD_OF_NAME[code]
    if not words_translated():
        return display(card)
    return str(gettext(CARD_NAME) % {"rank": gettext(RANK_NAMES[card % 13]), "suit": gettext(SUIT_NAMES[code[1]])})


def words_translated() -> bool:
    """Whether the active language names cards in words (English shows them as signs, like the engine)."""
    return bool(gettext(CARD_NAME) != CARD_NAME)


def sentence(rule: str, params: Mapping[str, str | int], fallback: str | None = None) -> str:
    """The refusal ``rule`` with ``params`` in the active language; ``fallback`` (or the English) if it has no
    sentence here or its translation cannot be filled in."""
    english_message = fallback if fallback is not None else english(rule, params)
    if rule not in TRANSLATED_RULES:
        return english_message
    try:
        values = english_values(rule, params)
        if words_translated():
            for key in CARD_PARAMS.intersection(params):
                values[key] = card_name(str(params[key]))
            if "needs" in params:
                values["needs"] = card_name(str(params["needs"]))
            if "suit" in params:
                values["suit"] = gettext(SUIT_NAMES[str(params["suit"])])
            if "game" in params:  # the game's name, as the picker names it (games.deals.variants.GAME_NAMES)
                values["game"] = gettext(str(params["game"]))
            for key in GROUPED_PARAMS.intersection(params):
                values[key] = str(number_format(params[key], force_grouping=True))
        if rule == "not_enough_face_up":
            template: str = ngettext(
                "Column %(column)s has only %(up)s face-up card",
                "Column %(column)s has only %(up)s face-up cards",
                int(params["up"]),
            )
        elif rule == "group_one_suit":
            template = gettext(GROUP_ONE_SUIT[str(params["game"])])
        else:
            template = gettext(SENTENCES[rule])
        return str(template % values)
    except (KeyError, ValueError, TypeError, IndexError):
        return english_message


def of_error(error: EngineError) -> str:
    """An engine error's sentence in the active language."""
    return sentence(error.rule, error.params, error.message)
