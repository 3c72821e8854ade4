"""The words of a hint and of a play-out, in the player's language, and the hint's document (docs/api.md).

Which action a hint names is the engine's choice from the player's view (games/engine/hint.py);
here it is put in words and in the fields the table is marked from.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_noop, ngettext

from games.engine import DealRow, Hint, Move, ToFoundation

HINT_BLIND = gettext_noop(
    "No hints in a ranked game on a hidden deal (a daily, a race on a hidden deal): each player plays it "
    "on their own judgement."
)
NO_HINT = gettext_noop("No move takes the game forward now: try one of your own, or undo.")
NOT_OPEN = gettext_noop("A game plays itself out only once every card is face up and the stock is empty.")
NOT_FOUND_IN_TIME = gettext_noop("No way to win from here was found in time: play on yourself.")
CANNOT_WIN = gettext_noop("No line of play wins from here: undo, or end the game.")
TOO_MANY_PLAY_OUTS = gettext_noop("Too many games played out: wait a minute.")


def _words(hint: Hint) -> str:
    action = hint.action
    if isinstance(action, DealRow):
        return gettext("Deal a row.")
    if isinstance(action, ToFoundation):
        return gettext("Send the top card of column %(column)s home.") % {"column": action.source}
    assert isinstance(action, Move)
    names = {"count": action.count, "column": action.source, "target": action.target}
    if hint.reason == "turns_card":
        text = ngettext(
            "Move the top card of column %(column)s to column %(target)s: that turns a face-down card.",
            "Move the top %(count)s cards of column %(column)s to column %(target)s: that turns a face-down card.",
            action.count,
        )
    elif hint.reason == "builds_suit":
        text = ngettext(
            "Move the top card of column %(column)s to column %(target)s, onto the next higher card of its suit.",
            "Move the top %(count)s cards of column %(column)s to column %(target)s, onto the next higher card "
            "of their suit.",
            action.count,
        )
    elif hint.reason == "empties_column":
        text = ngettext(
            "Move the card of column %(column)s to column %(target)s: that empties column %(column)s.",
            "Move the %(count)s cards of column %(column)s to column %(target)s: that empties column %(column)s.",
            action.count,
        )
    else:  # fills_for_deal
        text = ngettext(
            "Move the top card of column %(column)s into the empty column %(target)s: a row is dealt only "
            "when no column is empty.",
            "Move the top %(count)s cards of column %(column)s into the empty column %(target)s: a row is "
            "dealt only when no column is empty.",
            action.count,
        )
    return text % names


def hint_document(hint: Hint | None, *, hints: int) -> dict[str, Any]:
    """The answer to a hint: the action and where it is on the table, why, and the game's hints so far."""
    action = None if hint is None else hint.action
    move = action if isinstance(action, Move) else None
    home = action if isinstance(action, ToFoundation) else None
    source = move.source if move is not None else home.source if home is not None else None
    return {
        "action": None if action is None else str(action),
        "reason": None if hint is None else hint.reason,
        "column": source,
        "count": move.count if move is not None else 1 if home is not None else None,
        "target": move.target if move is not None else None,
        "foundation": home is not None,
        "message": gettext(NO_HINT) if hint is None else _words(hint),
        "hints": hints,
    }
