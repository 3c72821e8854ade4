"""Direct reads of a private service's database: what is really stored, not what an answer says."""

from __future__ import annotations

from typing import Any

import psycopg

from games.engine import Action, Game, Undo


def rows(database_url: str, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    with psycopg.connect(database_url, connect_timeout=10) as connection:
        return list(connection.execute(sql, params).fetchall())


def stored_log(database_url: str, session_id: str) -> list[tuple[int, str]]:
    return [
        (int(seq), str(token))
        for seq, token in rows(
            database_url, "SELECT seq, token FROM games_gameaction WHERE session_id = %s ORDER BY seq", session_id
        )
    ]


def session_row(database_url: str, session_id: str) -> tuple[int, bool]:
    """(action_count, finished) of a stored session."""
    ((count, finished_at),) = rows(
        database_url, "SELECT action_count, finished_at FROM games_gamesession WHERE id = %s", session_id
    )
    return int(count), finished_at is not None


def legal_plan(code: str, steps: int) -> list[str]:
    """`steps` legal actions on `code` (never an undo), chosen by the engine, in canonical spelling."""
    game = Game.from_code(code)
    plan: list[str] = []
    for step in range(steps):
        actions: list[Action] = [a for a in game.legal_actions() if not isinstance(a, Undo)]
        assert actions, f"{code} has no legal action after {step}"
        action = actions[(step * 7) % len(actions)]
        game.push(action)
        plan.append(str(action))
    return plan


def view_after(code: str, tokens: list[str]) -> dict[str, Any]:
    game = Game.from_code(code)
    for token in tokens:
        game.apply(token)
    return game.view()
