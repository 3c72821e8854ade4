"""Helpers for the play tests: winning logs from the shared vectors, card counting."""

from __future__ import annotations

import datetime as dt
import json
import re
import uuid
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from games.engine import Game, GameCode

if TYPE_CHECKING:
    from games.sessions.live import LiveSession

VECTORS = Path(__file__).resolve().parent.parent / "engine" / "vectors" / "replays.json"
CARD = re.compile(r"\b[A2-9TJQK][SHDC]\b")


@cache
def _accepted_cases() -> dict[str, dict[str, Any]]:
    cases = json.loads(VECTORS.read_text())["cases"]
    return {case["code"]: case for case in cases if case["expect"]["ok"]}


def vector_log(code: str) -> list[str]:
    """The move log of the shared vector on `code` that replays without refusal."""
    return [str(token) for token in _accepted_cases()[code]["moves"]]


def winning_log(code: str) -> list[str]:
    assert _accepted_cases()[code]["expect"]["state"]["won"], code
    return vector_log(code)


def expected_state(code: str) -> dict[str, Any]:
    return dict(_accepted_cases()[code]["expect"]["state"])


def visible_cards(view: dict[str, Any]) -> int:
    up = sum(len(column["up"]) for column in view["columns"])
    home = sum(len(pile) for pile in (view.get("foundations") or {}).values())
    return up + home


def card_mentions(document: Any) -> int:
    return len(CARD.findall(json.dumps(document)))


def follow(document: dict[str, Any] | None, frame: dict[str, Any]) -> dict[str, Any]:
    """The session document a play socket's client holds after `frame`, as the browser merges it:
    a whole document replaces the copy, a delta applies to the copy it names as its base."""
    from games.sessions.deltas import FRAME_KEYS, changes_of, merge

    if frame["type"] == "session":
        return {key: value for key, value in frame.items() if key not in FRAME_KEYS}
    assert frame["type"] == "delta", frame
    assert document is not None and frame["base"] == document["actions"], (frame, document)
    merged: dict[str, Any] = merge(document, changes_of(frame))
    assert merged["actions"] == frame["actions"]
    return merged


START = dt.datetime(2026, 12, 2, 12, 0, tzinfo=dt.UTC)


def live_session(game: Game, *, actions: int, undos: int = 0, starts_later: bool = False) -> LiveSession:
    """A game's session as the play path holds it (games.sessions.live), on a race's countdown if `starts_later`."""
    from games.sessions.live import LiveSession

    code = str(game.code)
    return LiveSession(
        id=uuid.UUID(int=1),
        player_id=1,
        code=code,
        variant=code.rsplit("-", 1)[0],
        daily_date=None,
        daily_publishes_at=None,
        ranked=False,
        board=None,
        code_secret=False,
        in_room=starts_later,
        room_id=uuid.UUID(int=2) if starts_later else None,
        started_at=START + dt.timedelta(seconds=10 if starts_later else 0),
        finished_at=None,
        action_count=actions,
        score=game.score,
        moves=game.moves,
        progress=0,
        won=game.won,
        undos=undos,
        hints=0,
    )


def documents_of(variant: str, number: int, choices: list[int]) -> list[dict[str, Any]]:
    """The session documents a game on `variant` sends, one per action chosen by `choices` (each
    an index into the legal list, taken modulo its length); no database needed."""
    from games.selectors import session_document

    game = Game.from_code(GameCode.from_variant(variant, number))
    now = START + dt.timedelta(seconds=1)
    docs = [session_document(live_session(game, actions=0), game, now=now)]
    undos = 0
    for n, choice in enumerate(choices, start=1):
        legal = game.legal_actions()
        if not legal:
            break
        action = legal[choice % len(legal)]
        game.apply(str(action))
        undos += str(action) == "U"
        now += dt.timedelta(milliseconds=700)
        docs.append(session_document(live_session(game, actions=n, undos=undos), game, now=now))
    return docs
