"""Replays: any finished verified game stepped action by action, the whole deal shown, and a
certified daily's par line (the solver's winning line) the same way.

Refused while it would reveal a secret deal: a daily's games and its par line until the day is
over (the code is published), a secret race room's until the race ends.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils.translation import gettext

from games.dailies.schedule import daily_for, utc_today
from games.engine import Game
from games.models import Daily, Result
from games.ranking.boards import Board, parse_board
from games.selectors import result_document, table_counts
from web.errors import BadRequest, NotFound


def published_daily(board_id: object, *, now: dt.datetime) -> tuple[Board, Daily]:
    """The board and its daily, if it is a daily board whose day is published; NotFound otherwise."""
    board = parse_board(board_id, today=utc_today(now))
    if board.date is None:
        raise NotFound(gettext("Only a daily's board has a par."))
    if now < Daily(date=board.date).publishes_at:
        raise NotFound(gettext("A daily's par and the solver's line are shown once its day is over."))
    return board, daily_for(board.date, board.variant, now=now)


def replay_document(*, result_id: object, step: object, now: dt.datetime) -> dict[str, Any]:
    """The full state after `step` actions of the verified log, with the token that led there."""
    result = _result(result_id)
    if result.daily is not None and now < result.daily.publishes_at:
        raise NotFound(gettext("This daily's replays open when the day is over."))
    if result.session is not None and result.session.code_secret:
        raise NotFound(gettext("This race's replays open when the race is over."))
    return {"result": result_document(result, now=now), **_stepped(result.stored_code.code, result.log, step)}


def par_line_document(*, board_id: object, step: object, now: dt.datetime) -> dict[str, Any]:
    """A published certified daily's par line after `step` actions, as a player's replay is shown."""
    board, daily = published_daily(board_id, now=now)
    if not daily.certified or daily.par is None:
        raise NotFound(gettext("This daily has no solver's line: it is not certified winnable."))
    about = {"board": board.id, "date": daily.date.isoformat(), "variant": daily.variant}
    return {
        "daily": {**about, "code": daily.stored_code.code, "par": daily.par},
        **_stepped(daily.stored_code.code, daily.par_line, step),
    }


def _stepped(code: str, log: str, step: object) -> dict[str, Any]:
    tokens = log.split()
    position = _step(step, len(tokens))
    game = Game.from_code(code)
    refusal = game.run(tokens[:position])
    if refusal is not None:  # a stored verified log always replays; anything else is corruption
        raise RuntimeError(f"verified log of {code} refused at {refusal[0]}: {refusal[2]}")
    return {
        "step": position,
        "steps": len(tokens),
        "token": tokens[position - 1] if position else None,
        "state": game.state(),
        "table": table_counts(game),
    }


def _result(result_id: object) -> Result:
    text = str(result_id)
    key = int(text) if text.isascii() and text.isdigit() and len(text) < 19 else 0
    result = (
        Result.objects.select_related("stored_code", "daily", "player", "session").filter(pk=key).first()
        if key > 0
        else None
    )
    if result is None:
        raise NotFound(gettext("No such result."))
    return result


def _step(step: object, steps: int) -> int:
    if step is None:
        return 0
    text = str(step)
    position = int(text) if text.isascii() and text.isdigit() else -1
    if position > steps:  # a step this game does not have
        raise NotFound(
            gettext("step is a whole number from 0 to %(steps)s: the actions of this game replayed so far.")
            % {"steps": steps}
        )
    if position < 0:
        raise BadRequest(
            gettext("step is a whole number from 0 to %(steps)s: the actions of this game replayed so far.")
            % {"steps": steps}
        )
    return position
