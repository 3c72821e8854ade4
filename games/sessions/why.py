"""Why an action or a group cannot be played now: the engine's verdict, asked without acting.

The play page asks before it lifts a group (mixed suits in Classic Spider, more than
twenty cards in Russian Solitaire) and after an illegal drop, so that the rule is said in
the player's words while the table stays as it is: nothing is applied, nothing is stored.
"""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext

from games import refusals
from games.engine import EngineError, parse_action
from games.engine.errors import IllegalAction
from games.models import Player
from games.selectors import session_for
from games.services import GAME_OVER, not_started, session_key, well_sized
from games.sessions import live
from web import ratelimit
from web.errors import BadRequest, Conflict, Unprocessable

GROUP = re.compile(r"([1-9][0-9]?):([1-9][0-9]{0,2})")  # the whole value: fullmatch


def why_not(*, player: Player, session_id: object, group: object = None, action: object = None) -> dict[str, Any]:
    """The verdict on lifting ``group`` ("column:count") or on playing ``action`` (a token) now.

    ``{"group" or "action", "allowed", "rule", "params", "message"}``; ``rule`` is null when the
    engine allows it (a group that may be lifted may still have nowhere to go: ``targets`` is the
    list of columns it may go to).
    """
    if (group is None) == (action is None):
        raise BadRequest(gettext('Ask about exactly one of "group" (like 3:4) or "action" (like 3:4>7).'))
    key = session_key(session_id)
    session = session_for(player=player, session_id=key)  # first: another player's questions spend nothing
    ratelimit.hit_in_process(
        "why", str(key), limit=settings.RATE_ACTIONS, seconds=1, message=gettext("Too many questions on this game.")
    )
    if session.finished:
        raise Conflict(gettext(GAME_OVER))
    now = timezone.now()
    if now < session.started_at:
        raise Conflict(not_started(session, now))
    game = live.game_for(session)
    answer: dict[str, Any] = {}
    refusal: IllegalAction | EngineError | None
    if group is not None:
        match = GROUP.fullmatch(group) if isinstance(group, str) else None
        if match is None:
            raise BadRequest(gettext("A group is written column:count, like 3:4 (the top 4 cards of column 3)."))
        column, count = int(match[1]), int(match[2])
        refusal = game.lift_refusal(column, count)
        answer["group"] = f"{column}:{count}"
        answer["targets"] = [] if refusal is not None else game.targets(column, count)
    else:
        if not isinstance(action, str) or not well_sized(action):
            raise BadRequest(gettext("That is not an action token."))
        try:
            refusal = game.refusal_error(parse_action(action))
        except EngineError as malformed:
            raise Unprocessable(refusals.of_error(malformed), token=action, rule=malformed.rule) from None
        answer["action"] = action
    answer["allowed"] = refusal is None
    answer["rule"] = refusal.rule if refusal is not None else None
    answer["params"] = dict(refusal.params) if refusal is not None else None
    answer["message"] = refusals.of_error(refusal) if refusal is not None else None
    return answer
