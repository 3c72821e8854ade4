"""Results for the leaderboard tests, made the way games.services makes them.

The numbers come from replaying a genuine log with the engine; a test that
pins one ranking key alone may override a number (the ranking is a function
of the numbers, and genuine logs cannot vary one key with the others fixed).
"""

from __future__ import annotations

import datetime as dt
import itertools
from contextlib import nullcontext
from typing import Any

from django.db import transaction
from django.test import TestCase
from django.utils import timezone

from games.deals.codes import stored_code_for
from games.engine import Game, GameCode, Undo, replay
from games.models import Daily, Player, Result
from games.results import announcements
from games.results.replay_verification import canonical

_names = itertools.count(1)
# Winning logs among the shared engine vectors (tests/engine/vectors/replays.json).
SPIDER_WIN = "SP1-S1C-QTEKPFM"
SPIDERETTE_WIN = "SD1-S1-HJSZOZN"
RUSSIAN_WIN = "RU1-C-MFXTMVO"


def named(name: str | None = None, *, guest: bool = False) -> Player:
    player = Player(username=name or f"racer{next(_names)}", is_guest=guest)
    player.set_unusable_password()
    player.save()
    return player


def vector_log(code: str) -> list[str]:
    from tests.games.play_helpers import vector_log as log

    return log(code)


def legal_walk(code: str, steps: int) -> list[str]:
    """A log of `steps` legal actions chosen by the engine (never an undo)."""
    game = Game.from_code(code)
    tokens: list[str] = []
    for _ in range(steps):
        actions = [a for a in game.legal_actions() if not isinstance(a, Undo)]
        if not actions:
            break
        action = actions[len(tokens) % len(actions)]
        game.push(action)
        tokens.append(str(action))
    return tokens


def make_result(
    player: Player,
    code: str,
    tokens: list[str] | None = None,
    *,
    ranked: bool = True,
    daily: Daily | None = None,
    elapsed_ms: int | None = 60_000,
    finished_at: dt.datetime | None = None,
    run_on_commit: bool = True,
    **numbers: Any,
) -> Result:
    """A verified result of `tokens` on `code`, stored and recorded in one transaction like games does.

    `run_on_commit=False` leaves the on-commit work to a transaction the caller holds open.
    """
    tokens = tokens if tokens is not None else []
    played = replay(code, tokens)
    assert played.ok and played.game is not None, played.error
    game = played.game
    russian = game.code.game == "RU"
    board = None
    if ranked and not player.is_guest:
        board = daily.board if daily is not None else f"code:{game.code}"
    fields: dict[str, Any] = {
        "score": game.score,
        "moves": game.moves,
        "won": game.won,
        "sequences": None if russian else game.sequences,
        "cards_home": game.cards_home if russian else None,
        "undos": canonical(tokens).count("U"),
        **numbers,
    }
    now = timezone.now()
    # Inside a test's own transaction nothing really commits: run the on-commit work when ours ends.
    hooks = TestCase.captureOnCommitCallbacks(execute=True) if run_on_commit else nullcontext()
    with hooks, transaction.atomic():
        result = Result.objects.create(
            player=player,
            stored_code=stored_code_for(GameCode.parse(code)),
            daily=daily,
            source=Result.Source.SUBMISSION,
            board=board,
            elapsed_ms=elapsed_ms,
            actions=len(tokens),
            log=" ".join(tokens),
            finished_at=finished_at or now,
            verified_at=now,
            **fields,
        )
        announcements.announce(announcements.Event(kind="verified", result=result))
    return result


def daily_of(date: dt.date, variant: str, code: str) -> Daily:
    return Daily.objects.create(date=date, variant=variant, stored_code=stored_code_for(GameCode.parse(code)))
