"""The rules engine of the solitaire league: Spider, Spiderette and Russian Solitaire.

Pure Python, standard library only. ``Game.from_code(code)`` deals a game; ``push``
actions onto it (``Undo()`` takes the last one back); ``replay(code, tokens)``
verifies a whole move log. See docs/rules.md, docs/codes.md, docs/notation.md and docs/state.md.
"""

from .actions import (
    BLANKS,
    Action,
    DealRow,
    FromFoundation,
    Move,
    ToFoundation,
    Undo,
    move_of,
    parse_action,
)
from .codes import ALL_VARIANTS, DAILY_VARIANTS, DEAL_NUMBERS, LONG_DEAL_NUMBERS, GameCode, parse_variant
from .errors import EngineError, IllegalAction, InvalidCode, MalformedAction
from .game import UNDO_LIMIT, Game
from .hint import Hint
from .replay import MAX_LOG_TOKENS, ReplayError, ReplayResult, replay
from .rules import RULES

__all__ = [
    "ALL_VARIANTS",
    "BLANKS",
    "DAILY_VARIANTS",
    "DEAL_NUMBERS",
    "LONG_DEAL_NUMBERS",
    "MAX_LOG_TOKENS",
    "RULES",
    "UNDO_LIMIT",
    "Action",
    "DealRow",
    "EngineError",
    "FromFoundation",
    "Game",
    "GameCode",
    "Hint",
    "IllegalAction",
    "InvalidCode",
    "MalformedAction",
    "Move",
    "ReplayError",
    "ReplayResult",
    "ToFoundation",
    "Undo",
    "move_of",
    "parse_action",
    "parse_variant",
    "replay",
]
