"""Reads: the session and result documents of docs/state.md, and what they may reveal."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from django.utils.translation import gettext

from games.dailies import fair_play
from games.dailies.schedule import is_published, stored_dailies, utc_today
from games.engine import DAILY_VARIANTS, Game, Undo, move_of
from games.models import Daily, DailyCandidate, GameSession, Player, Result
from games.ranking import rank_lookup
from games.ranking.boards import clean_twin, daily_board_id, parse_board
from games.sessions.hints import HINT_BLIND
from games.sessions.live import LiveSession
from web.errors import NotFound


def is_code_secret(*, daily: Daily | None, secret: bool, now: dt.datetime) -> bool:
    """A daily's code stays secret until it is published; a race room's until the race ends."""
    return secret or (daily is not None and not is_published(daily, now))


def session_for(*, player: Player, session_id: object, lock: bool = False) -> GameSession:
    """The player's own session; another player's answers exactly like a missing one."""
    try:
        key = uuid.UUID(str(session_id))
    except ValueError:
        raise NotFound(gettext("No such game session.")) from None
    query = GameSession.objects.select_related("stored_code", "daily")
    if lock:
        query = query.select_for_update(of=("self",))
    try:
        session = query.get(id=key, player=player)
    except GameSession.DoesNotExist:
        raise NotFound(gettext("No such game session.")) from None
    session.player = player  # known already: no join for it
    return session


def elapsed_ms(session: GameSession | LiveSession, now: dt.datetime) -> int:
    end = session.finished_at or now
    return max(0, int((end - session.started_at).total_seconds() * 1000))


def shown_board(board: str | None, *, secret: bool) -> str | None:
    """A code board names the code: it stays out of answers while the code is secret."""
    return None if secret and board is not None and board.startswith("code:") else board


def result_document(result: Result, *, now: dt.datetime) -> dict[str, Any]:
    secret = is_code_secret(
        daily=result.daily,
        secret=bool(result.session and result.session.code_secret),
        now=now,
    )
    doc: dict[str, Any] = {
        "id": result.pk,
        "board": shown_board(result.board, secret=secret),
        "code": None if secret else result.stored_code.code,
        "player": result.player.display_name,
        "score": result.score,
        "moves": result.moves,
        "won": result.won,
        "elapsed_ms": result.elapsed_ms,
        "actions": result.actions,
        "undos": result.undos,
        "hints": result.hints,
        "verified_at": result.verified_at.isoformat(),
    }
    if result.stored_code.game == "RU":
        doc["cards_home"] = result.cards_home
    else:
        doc["sequences"] = result.sequences
    if result.daily_id is not None:
        doc["fair_play"] = fair_play.status_of(result, now=now)
    return doc


def play_hints(game: Game, *, blind: bool = False) -> tuple[list[str], dict[str, str], dict[str, str]]:
    """The legal tokens, the double-click target of each movable group, and Russian taps. In a ranked
    blind deal (`blind`) an undo that would hide again what was revealed is not offered."""
    legal = game.legal_actions()
    if blind and game.last_action_revealed:
        legal = [action for action in legal if not isinstance(action, Undo)]
    best = {
        f"{column}:{count}": str(move_of(column, count, target))
        for (column, count), target in game.best_targets(legal).items()
    }
    tap: dict[str, str] = {}
    for column in range(1, game.layout.columns + 1):
        action = game.tap_action(column)
        if action is not None:
            tap[str(column)] = str(action)
    return [str(action) for action in legal], best, tap


def starts_in_ms(session: GameSession | LiveSession, now: dt.datetime) -> int:
    """A race's countdown: how long until its games may be played (0 once they may)."""
    if now >= session.started_at:  # as a rule: no arithmetic for it on every action
        return 0
    return max(0, int((session.started_at - now).total_seconds() * 1000))


def _face_down(view: dict[str, Any]) -> dict[str, Any]:
    """The table before a race's start: every card face down, so nobody studies the deal early."""
    columns = [{"down": column["down"] + len(column["up"]), "up": []} for column in view["columns"]]
    return {**view, "columns": columns}


def table_counts(game: Game) -> dict[str, int | str]:
    """What the table draws that the browser must not work out from the rules itself."""
    return {
        "columns": game.layout.columns,
        "deals": game.layout.deals,
        "deals_left": game.rows_left,
        "sequences": game.layout.sequences,
        "foundations": 4 if game.has_foundations else 0,
        "home_move_cards": game.home_move_cards,
        "goal": game.layout.goal,
        "goal_total": game.layout.goal_total,
    }


def session_document(session: GameSession | LiveSession, game: Game, *, now: dt.datetime) -> dict[str, Any]:
    """The player's view of a session: a row just read, or a live game's session (games.sessions.live)."""
    if isinstance(session, GameSession):
        result = getattr(session, "result", None) if session.finished else None
        session = LiveSession.of(session)
    else:
        result = _result_of(session.id) if session.finished else None
    secret = session.is_code_secret(now)
    view = game.view()
    if secret:
        view["code"] = None
    countdown = starts_in_ms(session, now) if not session.finished else 0
    if countdown:
        view = _face_down(view)
    blind = session.is_blind_ranked(now)
    if session.finished or countdown:
        legal: list[str] = []
        best: dict[str, str] = {}
        tap: dict[str, str] = {}
    else:
        legal, best, tap = play_hints(game, blind=blind)
    return {
        "id": str(session.id),
        "code": None if secret else session.code,
        "variant": session.variant,
        "game": game.code.game_name,
        "ranked": session.ranked,
        "board": shown_board(session.board, secret=secret),
        "daily": session.daily_date.isoformat() if session.daily_date else None,
        "view": view,
        "table": table_counts(game),
        "legal": legal,
        "best": best,
        "tap": tap,
        "finished": session.finished,
        "started_at": session.started_at.isoformat(),
        "finished_at": session.finished_at.isoformat() if session.finished_at else None,
        "elapsed_ms": elapsed_ms(session, now),
        "actions": session.action_count,
        "undos": session.undos,
        "hints": session.hints,
        "hint_refusal": gettext(HINT_BLIND) if blind else None,
        "play_out": bool(legal) and game.nothing_hidden,
        "room": str(session.room_id) if session.room_id else None,
        "starts_in_ms": countdown,
        "result": _ranked_result_document(result, secret=secret, now=now) if result is not None else None,
    }


def _result_of(session_id: uuid.UUID) -> Result | None:
    """A finished session's verified result (with what its document reads)."""
    return (
        Result.objects.select_related("player", "stored_code", "daily", "session", "fair_play")
        .filter(session_id=session_id)
        .first()
    )


def _ranked_result_document(result: Result, *, secret: bool, now: dt.datetime) -> dict[str, Any]:
    """The finished game's result with the rank the player holds on its board and on the board's
    clean twin, and whether this game is their entry there (the win screen shows both)."""
    doc = result_document(result, now=now)
    board = shown_board(result.board, secret=secret)
    doc["clean_board"] = clean_twin(board) if board is not None else None
    for prefix, ranked_on in (("", board), ("clean_", doc["clean_board"])):
        entry = rank_lookup.entry_of(board=parse_board(ranked_on), player_id=result.player_id) if ranked_on else None
        doc[f"{prefix}rank"] = entry["rank"] if entry is not None else None
        doc[f"{prefix}personal_best"] = entry is not None and entry["result"] == result.pk
    return doc


def daily_overview(*, player: Player | None, date: dt.date, now: dt.datetime) -> list[dict[str, Any]]:
    """Each daily of `date` with my part in it and whether it is certified winnable; the code and the
    par only once it is published. Today's dailies not stored yet are listed as being prepared; a past
    day lists only the dailies it had (docs/dailies.md)."""
    stored = {daily.variant: daily for daily in stored_dailies(date, now=now)}
    mine: dict[int, GameSession] = {}
    if player is not None and stored:
        sessions = GameSession.objects.filter(player=player, daily__in=stored.values()).order_by("ranked", "started_at")
        for attempt in sessions:  # the ranked attempt, ordered last, wins over practice
            assert attempt.daily_id is not None
            mine[attempt.daily_id] = attempt
    tried = set(
        DailyCandidate.objects.filter(date=date, variant__in=list(stored)).values_list("variant", flat=True).distinct()
    )
    overview = []
    for variant in DAILY_VARIANTS:
        daily = stored.get(variant)
        if daily is None:
            if date == utc_today(now):
                overview.append(_preparing_entry(date, variant))
            continue
        session = mine.get(daily.pk)
        published = is_published(daily, now)
        overview.append(
            {
                "variant": daily.variant,
                "board": daily.board,
                "status": "ready",
                "played": bool(session and session.ranked),
                "finished": bool(session and session.ranked and session.finished),
                "session": str(session.id) if session else None,
                "code": daily.stored_code.code if published else None,
                "certified": daily.certified,
                "certification": _certification(daily, tried=variant in tried),
                "par": daily.par if published else None,
            }
        )
    return overview


def _certification(daily: Daily, *, tried: bool) -> str:
    """What the page may truly say: the solver won it, or tried the capped candidates and won none, or
    the daily was stored before any candidate was tried (a daily stored before certification existed)."""
    if daily.certified:
        return "certified"
    return "none_won" if tried else "unchecked"


def _preparing_entry(date: dt.date, variant: str) -> dict[str, Any]:
    board = daily_board_id(date, variant)
    return {
        "variant": variant,
        "board": board,
        "status": "preparing",
        "played": False,
        "finished": False,
        "session": None,
        "code": None,
        "certified": None,
        "certification": None,
        "par": None,
    }


OPEN_SESSIONS_MAX = 5


def open_sessions(*, player: Player, now: dt.datetime, limit: int = OPEN_SESSIONS_MAX) -> list[dict[str, Any]]:
    """The player's unfinished games that can still be played, newest first: free play and daily
    attempts whose day is not over (race games are played from their room, so they are left out).
    A daily's code, or a secret race's, is null while it is secret, as in the session document."""
    # A daily attempt still open at 01:00 UTC the next day is ended by the closer: not offered.
    last_closed_day = (now - dt.timedelta(hours=1)).date() - dt.timedelta(days=1)
    rows = (
        GameSession.objects.select_related("stored_code", "daily")
        .filter(player=player, finished_at=None, in_room=False)
        .exclude(daily__date__lte=last_closed_day)
        .order_by("-started_at")[:limit]
    )
    return [_open_session(session, session.daily, now) for session in rows]


def _open_session(session: GameSession, daily: Daily | None, now: dt.datetime) -> dict[str, Any]:
    return {
        "id": str(session.id),
        "variant": session.stored_code.variant,
        "code": None if is_code_secret(daily=daily, secret=session.code_secret, now=now) else session.stored_code.code,
        "daily": daily.date.isoformat() if daily is not None else None,
        "ranked": session.ranked,
        "moves": session.moves,
        "actions": session.action_count,
        "started_at": session.started_at.isoformat(),
    }
