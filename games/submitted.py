"""Storing a verified batch submission: the hot write of `POST /api/submissions`, in one round trip.

On PostgreSQL one statement makes the deal on first use, stores the result,
counts it in the player's statistics and offers it to its board, and to the
board's clean twin when it has no undo (the same
upserts as leaderboard.stats and leaderboard.standings, whose SQL it reuses):
one implicit transaction, so nothing is ever half written, and no deal
lookup, ORM insert, BEGIN or COMMIT of its own. (Anywhere else, SQLite,
games.services stores it as it stores a session's result.) The rank index and the live push follow the commit
as for every result (leaderboard.services.announce).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from functools import cache

from django.db import DEFAULT_DB_ALIAS, connections
from django.utils import timezone
from django.utils.translation import gettext

from config.errors import Conflict
from config.prepared import fetchone_prepared
from games.engine import GameCode
from games.models import Daily, Deal, GameSession, Player, Result
from games.ranking import RESULT_ID_WIDTH
from games.verification import Outcome
from leaderboard import services as leaderboard
from leaderboard import standings, stats

_DEALS = Deal._meta.db_table
_RESULTS = Result._meta.db_table

# `made` inserts the deal only if no row has its code; `deal` is then exactly one row, unless a
# concurrent first use committed it after this statement's snapshot: no row at all, nothing is
# written, and the caller runs the statement again (it sees that deal then).
_STORE = f"""
WITH made AS (
    INSERT INTO {_DEALS} (code, game, variant, created_at)
    SELECT %(code)s::varchar, %(game)s::varchar, %(variant)s::varchar, %(now)s::timestamptz
    WHERE NOT EXISTS (SELECT 1 FROM {_DEALS} WHERE code = %(code)s)
    ON CONFLICT (code) DO NOTHING
    RETURNING id
), deal AS (
    SELECT id FROM made UNION ALL SELECT id FROM {_DEALS} WHERE code = %(code)s
), stored AS (
    INSERT INTO {_RESULTS} (player_id, deal_id, daily_id, session_id, source, board, score, moves, won,
                            sequences, cards_home, elapsed_ms, actions, undos, log, finished_at, verified_at)
    SELECT %(player)s::bigint, deal.id, NULL, NULL, %(source)s::varchar, %(board)s::varchar, %(score)s::integer,
           %(moves)s::integer, %(won)s::boolean, %(sequences)s::integer, %(cards_home)s::integer,
           %(elapsed_ms)s::bigint, %(actions)s::integer, %(undos)s::integer, %(log)s::text,
           %(finished_at)s::timestamptz, %(now)s::timestamptz
      FROM deal
    RETURNING id, deal_id
), counted AS (
    {stats.COUNT_STEP.format(source="stored")}
){{offer}}
SELECT stored.id, stored.deal_id, {{version}} FROM stored
"""
# Ranked: each board's new version if the result became the player's entry there, else NULL; a
# result without an undo is offered to the board's clean twin too (docs/ranking.md).
_OFFER = standings.offer_steps(source="stored")
_OFFER_CLEAN = standings.offer_steps(source="stored", board="clean_board", name="_clean")
_STORE_RANKED_CLEAN = _STORE.format(
    offer=f",\n{_OFFER},\n{_OFFER_CLEAN}",
    version="(SELECT version FROM offered), (SELECT version FROM offered_clean)",
)
_STORE_RANKED = _STORE.format(offer=f",\n{_OFFER}", version="(SELECT version FROM offered), NULL::bigint")
_STORE_UNRANKED = _STORE.format(offer="", version="NULL::bigint, NULL::bigint")


@cache
def available() -> bool:
    """Whether the database is PostgreSQL (the statement's dialect); asked once per process."""
    return bool(connections[DEFAULT_DB_ALIAS].vendor == "postgresql")


def store(*, player: Player, outcome: Outcome, code: GameCode, finished_at: dt.datetime) -> Result:
    """Store the verified `outcome` of `player`'s submission on `code` (PostgreSQL), ranked on its
    code board (guests rank nowhere), and have its board change indexed and pushed once committed."""
    text = str(code)
    board = None if player.is_guest else f"code:{text}"
    now = timezone.now()
    deal = Deal(code=text, game=code.game, variant=code.variant)
    result = result_of(
        player=player,
        outcome=outcome,
        deal=deal,
        daily=None,
        board=board,
        session=None,
        elapsed_ms=None,
        finished_at=finished_at,
        verified_at=now,
    )
    key = replace(standings.rank_key(result), result_id=0)  # the id is the database's to give
    prefix = key.sort_key()[:-RESULT_ID_WIDTH]
    values = {
        "code": text,
        "game": code.game,
        "variant": code.variant,
        "now": now,
        "player": player.pk,
        "source": result.source,
        "board": board,
        "score": result.score,
        "moves": result.moves,
        "won": result.won,
        "sequences": result.sequences,
        "cards_home": result.cards_home,
        "elapsed_ms": result.elapsed_ms,
        "actions": result.actions,
        "undos": result.undos,
        "log": result.log,
        "finished_at": finished_at,
        **stats.count_values(result),
        "progress": key.progress,
        "key_prefix": prefix,
    }
    boards = standings.boards_of(result)
    values["clean_board"] = boards[-1] if len(boards) == 2 else None
    sql = (_STORE_UNRANKED, _STORE_RANKED, _STORE_RANKED_CLEAN)[len(boards)]
    row = _execute(sql, values) or _execute(sql, values)  # a second run sees a deal raced in meanwhile
    if row is None:  # not seen in practice: the second run's snapshot has the deal that raced in
        raise Conflict(
            gettext("This game code was being stored by another request just now. Send the submission again.")
        )
    result_id, deal_id, *versions = row
    deal.pk, result.pk = deal_id, result_id
    result.deal = deal  # sets deal_id and keeps the instance (setting deal_id alone would drop it)
    for stored in (deal, result):
        stored._state.adding, stored._state.db = False, DEFAULT_DB_ALIAS
    sort_key = prefix + f"{result_id:0{RESULT_ID_WIDTH}d}"
    for ranked_on, version in zip(boards, versions, strict=False):
        if version is not None:
            change = standings.Change(board=ranked_on, player_id=player.pk, sort_key=sort_key, version=version)
            leaderboard.announce(result=result, change=change)
    return result


def result_of(
    *,
    player: Player,
    outcome: Outcome,
    deal: Deal,
    daily: Daily | None,
    board: str | None,
    session: GameSession | None,
    elapsed_ms: int | None,
    finished_at: dt.datetime,
    verified_at: dt.datetime,
) -> Result:
    """The result a verified outcome makes, not yet stored: the one shape of a session's result
    (games.services) and of a submission's (here). Guests rank on no board."""
    return Result(
        player=player,
        deal=deal,
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
        verified_at=verified_at,
    )


def _execute(sql: str, values: dict[str, object]) -> tuple[int, int, int | None, int | None] | None:
    """(result id, deal id, the board's new version, the clean twin's), or None if nothing was stored."""
    row = fetchone_prepared(sql, values)  # planned once per pooled connection, not per submission
    if row is None:
        return None
    board_version, clean_version = (None if version is None else int(version) for version in row[2:4])
    return int(row[0]), int(row[1]), board_version, clean_version
