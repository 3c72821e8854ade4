"""Storing a verified result: the one write every path ends in (a session's finish or give-up, a
daily attempt closed at its publication, a batch submission).

The result is stored and announced (games.results.announcements) in one transaction, so what the listeners
write with it (the boards, the statistics) commits with it or not at all: in the caller's
transaction (`store_verified`, sync), or, for a submission, committed by itself in a group with the
others of the event loop (`store_submission`, async, web.storage.commit_each).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.db import DEFAULT_DB_ALIAS, transaction
from django.utils import timezone

from games.deals.codes import stored_code_row, stored_code_statement
from games.engine import GameCode
from games.models import Daily, GameSession, Player, Result, StoredCode
from games.ranking.keys import RESULT_ID_WIDTH
from games.results import announcements
from games.results.replay_verification import Outcome
from web import storage
from web.storage import Row, fetch_each

# Every column but the id, in the model's order; one INSERT ... RETURNING (prepared on PostgreSQL)
# rather than the ORM's save, whose signals and checks a new result has no use for.
_FIELDS = [f for f in Result._meta.concrete_fields if not f.primary_key]
_INSERT = (
    f"INSERT INTO {Result._meta.db_table} ({', '.join(f.column for f in _FIELDS)})"
    f" VALUES ({', '.join('%s' for _ in _FIELDS)}) RETURNING id"
)
# Result(None, *columns) takes them in this order (_Write.of names each value); a field added or
# made to change its value on save (pre_save: auto_now) must be written there too.
_COLUMNS = (
    "player_id", "stored_code_id", "daily_id", "session_id", "source", "board", "score", "moves", "won",
    "sequences", "cards_home", "elapsed_ms", "actions", "undos", "hints", "log", "finished_at", "verified_at",
)  # fmt: skip
if tuple(f.attname for f in _FIELDS) != _COLUMNS or any(getattr(f, "auto_now", False) for f in _FIELDS):
    raise RuntimeError("games.results.store: Result's fields changed; update _COLUMNS and _Write.of")
_PLAYER = Result._meta.get_field("player")
_STORED_CODE = Result._meta.get_field("stored_code")
_STORED_CODE_AT = _COLUMNS.index("stored_code_id")  # where a code stands in for its row's id
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

# The result just stored, for the listeners' statements in the same transaction (games.results.announcements):
# the sequence's value this session last took (PostgreSQL), the highest id (SQLite, whose writes
# are serialised and which runs the statements one after another).
# The sequence is named as PostgreSQL names an identity column's (tests/games pins it): a name read
# once when the statement is prepared, where pg_get_serial_sequence would look it up in the
# catalog at each of the six times a submission's statements ask (3.6 us against 0.45 us).
RESULT_SEQUENCE = f"{Result._meta.db_table}_id_seq"
_SEQUENCE = f"currval('{RESULT_SEQUENCE}'::regclass)"
_NEW = {
    "postgresql": announcements.NewResult(id=_SEQUENCE, key_suffix=f"lpad({_SEQUENCE}::text, {RESULT_ID_WIDTH}, '0')"),
    "sqlite": announcements.NewResult(
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
    under_review: bool = False,
) -> Result:
    """Store the verified `outcome` of `player` (a guest's ranks on no board) and announce it.
    A result `under_review` (games.dailies.fair_play) is announced as such: nothing counts it until it is
    approved.

    Joins the caller's transaction if there is one (a session's finish holds its row lock). A
    secret race's result is announced held back: it ranks when the race ends (games.rooms.rooms). Given a
    code rather than its StoredCode (a submission's), the code's row is made on first use with the
    result, in the same transaction.
    """
    write = _Write.of(
        player=player,
        outcome=outcome,
        stored_code=stored_code,
        board=board,
        finished_at=finished_at,
        daily=daily,
        session=session,
        elapsed_ms=elapsed_ms,
        under_review=under_review,
    )
    return _stored(write)


def _stored(write: _Write) -> Result:
    """`write` run on this thread's connection (joining its transaction, if one is open)."""
    with transaction.atomic(savepoint=False):
        write.stored(fetch_each(write.statements))
    return write.result


async def store_submission(
    *, player: Player, outcome: Outcome, code: GameCode, board: str, finished_at: dt.datetime
) -> Result:
    """`store_verified` of a submission's result, by async code: its statements committed by
    themselves (web.storage.commit_each), then the listeners told, and what they do after the commit
    done here. A result whose listeners must write more in its transaction is stored on a thread
    with Django's connection altogether."""
    write = _Write.of(player=player, outcome=outcome, stored_code=code, board=board, finished_at=finished_at)
    if not announcements.heard_after_commit(write.event):
        return await sync_to_async(_stored)(write)
    rows = await storage.commit_each(write.statements)
    with announcements.collected() as effects:
        write.stored(rows)  # the listeners only read their rows and say what follows
    await announcements.run_collected(effects)
    return write.result


@dataclass
class _Write:
    """A verified result about to be stored: its statements (the stored code's, if given a code,
    the result's, the listeners'), and what to do with their rows once they ran."""

    result: Result
    event: announcements.Event
    code: GameCode | None
    statements: list[announcements.Statement]
    told: Callable[[list[Row | None]], None]

    @classmethod
    def of(
        cls,
        *,
        player: Player,
        outcome: Outcome,
        stored_code: StoredCode | GameCode,
        board: str | None,
        finished_at: dt.datetime,
        daily: Daily | None = None,
        session: GameSession | None = None,
        elapsed_ms: int | None = None,
        under_review: bool = False,
    ) -> _Write:
        code = stored_code if isinstance(stored_code, GameCode) else None
        # Given a code, its row is made (or found) by the first statement: its id is set once known.
        stored = stored_code_row(stored_code, None) if isinstance(stored_code, GameCode) else stored_code
        by_column = {
            "player_id": player.pk,
            "stored_code_id": stored.pk,
            "daily_id": None if daily is None else daily.pk,
            "session_id": None if session is None else session.pk,
            "source": Result.Source.SESSION if session else Result.Source.SUBMISSION,
            "board": None if player.is_guest else board,
            "score": outcome.score,
            "moves": outcome.moves,
            "won": outcome.won,
            "sequences": outcome.sequences,
            "cards_home": outcome.cards_home,
            "elapsed_ms": elapsed_ms,
            "actions": outcome.actions,
            "undos": outcome.undos,
            "hints": 0 if session is None else session.hints,
            "log": " ".join(outcome.tokens),
            "finished_at": finished_at,
            "verified_at": timezone.now(),
        }
        columns = [by_column[column] for column in _COLUMNS]  # named, so no value lands in its neighbour's column
        # Made by position, as Django's from_db makes a row (a third of the time of keywords); the
        # related objects in hand are given to their fields as keywords would have.
        result = Result(None, *columns)  # type: ignore[misc]  # the stubs know keywords, not a row by position
        _PLAYER.set_cached_value(result, player)
        _STORED_CODE.set_cached_value(result, stored)
        if daily is not None:
            result.daily = daily
        if session is not None:
            result.session = session  # as a keyword would: the session's own result is this one
        held_back = bool(session is not None and session.code_secret)
        event = announcements.Event(kind="verified", result=result, held_back=held_back, under_review=under_review)
        # One wrapper per process, not the per-context one: only the values are prepared with it.
        database = storage.values_database()
        # The listeners' writes go with the INSERT, in its transaction.
        then, told = announcements.announce_with(event, _NEW[database.vendor])
        values = [f.get_db_prep_save(value, database) for f, value in zip(_FIELDS, columns, strict=True)]
        if code is None:
            statements = [(_INSERT, values), *then]
        else:
            values[_STORED_CODE_AT] = str(code)
            statements = [stored_code_statement(code), (_INSERT_ON_CODE, values), *then]
        return cls(result=result, event=event, code=code, statements=statements, told=told)

    def stored(self, rows: list[Row | None]) -> None:
        """The statements ran and gave `rows`: give the result its id (and, given a code, its
        stored code), as save(force_insert=True) would, then tell the listeners their rows."""
        result = self.result
        if self.code is None:
            inserted, *then = rows
        else:
            stored_row, inserted, *then = rows
            assert stored_row is not None  # an upsert always gives its row
            stored = result.stored_code
            stored.pk = stored_row[0]
            result.stored_code = stored  # its id too; setting only the id would drop the object
        assert inserted is not None  # an INSERT ... RETURNING gives its row
        result.pk = inserted[0]
        result._state.adding = False
        result._state.db = DEFAULT_DB_ALIAS
        self.told(then)
