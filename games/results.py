"""Storing a verified result: the one write every path ends in (a session's finish or give-up, a
daily attempt closed at its publication, a batch submission).

The result is stored and announced (games.verified) in one transaction, so what the listeners
write with it (the boards, the statistics) commits with it or not at all. A submission's is one
round trip to PostgreSQL that commits by itself (see store_verified).
"""

from __future__ import annotations

import datetime as dt
from contextlib import nullcontext

from django.db import connection, transaction
from django.utils import timezone

from games import verified
from games.codes import stored_code_row, stored_code_statement
from games.engine import GameCode
from games.models import Daily, GameSession, Player, Result, StoredCode
from games.ranking import RESULT_ID_WIDTH
from games.verification import Outcome
from web.database.prepared import Row, fetch_each

# Every column but the id, in the model's order; one INSERT ... RETURNING (prepared on PostgreSQL)
# rather than the ORM's save, whose signals and checks a new result has no use for.
_FIELDS = [f for f in Result._meta.concrete_fields if not f.primary_key]
_INSERT = (
    f"INSERT INTO {Result._meta.db_table} ({', '.join(f.column for f in _FIELDS)})"
    f" VALUES ({', '.join('%s' for _ in _FIELDS)}) RETURNING id"
)
# The same for a stored code made (or found) by the statement before it in the same round trip: its id is
# read by its code.
_INSERT_ON_CODE = (
    f"INSERT INTO {Result._meta.db_table} ({', '.join(f.column for f in _FIELDS)}) SELECT "
    + ", ".join(
        f"(SELECT id FROM {StoredCode._meta.db_table} WHERE code = %s)" if f.name == "stored_code" else "%s"
        for f in _FIELDS
    )
    + " RETURNING id"
)

# The result just stored, for the listeners' statements in the same round trip (games.verified):
# the sequence's value this session last took (PostgreSQL), the highest id (SQLite, whose writes
# are serialised and which runs the statements one after another).
_SEQUENCE = f"currval(pg_get_serial_sequence('{Result._meta.db_table}', 'id'))"
_NEW = {
    "postgresql": verified.NewResult(id=_SEQUENCE, key_suffix=f"lpad({_SEQUENCE}::text, {RESULT_ID_WIDTH}, '0')"),
    "sqlite": verified.NewResult(
        id=f"(SELECT max(id) FROM {Result._meta.db_table})",
        key_suffix=f"substr('{'0' * RESULT_ID_WIDTH}' || (SELECT max(id) FROM {Result._meta.db_table}), "
        f"-{RESULT_ID_WIDTH})",
    ),
}


def store_verified(
    *,
    player: Player,
    outcome: Outcome,
    stored_code: StoredCode | GameCode,
    board: str | None,
    finished_at: dt.datetime,
    daily: Daily | None = None,
    session: GameSession | None = None,
    elapsed_ms: int | None = None,
) -> Result:
    """Store the verified `outcome` of `player` (a guest's ranks on no board) and announce it.

    Joins the caller's transaction if there is one (a session's finish holds its row lock). A
    secret race's result is announced held back: it ranks when the race ends (games.rooms). Given a
    code rather than its StoredCode (a submission's), the code's row is made on first use with the result, in
    the same round trip.
    """
    code = stored_code if isinstance(stored_code, GameCode) else None
    stored = (
        StoredCode(code=str(stored_code), game=stored_code.game, variant=stored_code.variant)
        if isinstance(stored_code, GameCode)
        else stored_code
    )
    result = Result(
        player=player,
        stored_code=stored,
        daily=daily,
        session=session,
        source=Result.Source.SESSION if session else Result.Source.SUBMISSION,
        board=None if player.is_guest else board,
        score=outcome.score,
        moves=outcome.moves,
        won=outcome.won,
        sequences=outcome.sequences,
        cards_home=outcome.cards_home,
        elapsed_ms=elapsed_ms,
        actions=outcome.actions,
        undos=outcome.undos,
        log=" ".join(outcome.tokens),
        finished_at=finished_at,
        verified_at=timezone.now(),
    )
    event = verified.Event(kind="verified", result=result, held_back=bool(session is not None and session.code_secret))
    # The listeners' writes go with the INSERT: one round trip for the deal, the result and them.
    statements, told = verified.announce_with(event, _NEW[connection.vendor])
    # PostgreSQL runs a pipeline's statements up to its Sync as one transaction: where nothing else
    # must join it, they commit together or not at all without a BEGIN and a COMMIT (two round trips).
    with nullcontext() if _commits_by_itself(event) else transaction.atomic(savepoint=False):
        told(_insert(result, code=code, then=statements))
    return result


def _commits_by_itself(event: verified.Event) -> bool:
    """Whether the result's one pipeline may be its own transaction: PostgreSQL, no transaction
    open around it, and no listener that writes more once it has heard."""
    return (
        connection.vendor == "postgresql"
        and connection.get_autocommit()
        and not connection.in_atomic_block
        and verified.heard_after_commit(event)
    )


def _insert(result: Result, *, code: GameCode | None, then: list[verified.Statement]) -> list[Row | None]:
    """Store the new `result` (and, given its code, its stored code) and give it its id, as
    save(force_insert=True) would, with the statements `then` in the same round trip: their rows."""
    values = [f.get_db_prep_save(f.pre_save(result, add=True), connection) for f in _FIELDS]
    if code is None:
        inserted, *rows = fetch_each([(_INSERT, values), *then])
    else:
        values[[f.name for f in _FIELDS].index("stored_code")] = str(code)
        stored_row, inserted, *rows = fetch_each([stored_code_statement(code), (_INSERT_ON_CODE, values), *then])
        assert stored_row is not None  # an upsert always gives its row
        result.stored_code = stored_code_row(code, stored_row[0])
    assert inserted is not None  # an INSERT ... RETURNING gives its row
    result.pk = inserted[0]
    result._state.adding = False
    result._state.db = connection.alias
    return rows
