"""Helpers for the engine tests: hand-made positions, vectors, random legal play."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from games.engine import Action, Game, Undo

VECTORS = Path(__file__).parent / "vectors"


def load_vectors(name: str) -> Any:
    return json.loads((VECTORS / name).read_text(encoding="utf-8"))


def column(text: str) -> dict[str, list[str]]:
    """``"9H 2C | KS QS"``: face-down cards, a bar, then face-up cards (bottom to top).

    Without a bar every card is face-up; ``""`` is an empty column.
    """
    down, _, up = text.rpartition("|")
    return {"down": down.split(), "up": up.split()}


def position(
    code: str,
    columns: list[str],
    stock: str = "",
    removed: str = "",
    foundations: dict[str, str] | None = None,
    score: int | None = None,
    moves: int = 0,
) -> Game:
    """A game in a hand-made position; missing columns are empty."""
    game = Game.from_code(code)
    width = len(game.state()["columns"])  # type: ignore[arg-type]
    cols = [column(c) for c in columns] + [column("")] * (width - len(columns))
    doc: dict[str, object] = {
        "code": code,
        "columns": cols,
        "stock": stock.split(),
        "removed": removed.split(),
        "foundations": {s: (foundations or {}).get(s, "").split() for s in "SHDC"},
        "moves": moves,
    }
    if score is not None:
        doc["score"] = score
    return Game.from_state(doc)


def ups(game: Game) -> list[list[str]]:
    return [c["up"] for c in game.state()["columns"]]  # type: ignore[attr-defined, index]


def all_cards(game: Game) -> list[str]:
    """Every card of the game, wherever it is (removed sequences as their 13 cards)."""
    doc = game.state()
    cards: list[str] = []
    for col in doc["columns"]:  # type: ignore[attr-defined]
        cards += col["down"] + col["up"]
    cards += doc["stock"]  # type: ignore[operator]
    for suit in doc["removed"]:  # type: ignore[attr-defined]
        cards += [r + suit for r in "A23456789TJQK"]
    if doc["foundations"]:
        for pile in doc["foundations"].values():  # type: ignore[attr-defined]
            cards += pile
    return sorted(cards)


def random_play(game: Game, steps: int, rng: random.Random, undo_weight: float = 0.1) -> list[Action]:
    """Push up to ``steps`` random legal actions; returns them."""
    done: list[Action] = []
    for _ in range(steps):
        legal = game.legal_actions()
        if not legal:
            break
        weights = [undo_weight if isinstance(a, Undo) else 1.0 for a in legal]
        action = rng.choices(legal, weights)[0]
        game.push(action)
        done.append(action)
    return done
