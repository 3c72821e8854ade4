"""Refereed play (HackSoft style: typed, keyword-only writes).

Validate, then do, then tell: every action is applied by the engine and
appended to the stored log in one transaction; watchers (the game's own play
sockets, its race room) hear of it only after that transaction commits.
"""

from __future__ import annotations

import datetime as dt
import logging
import uuid
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext, gettext_noop, ngettext

from games import refusals
from games.dailies import fair_play, schedule
from games.deals import secret_codes
from games.deals.codes import fresh_code, parse_code, parse_variant_or_refuse, stored_code_for
from games.engine import BLANKS, MAX_LOG_TOKENS, Action, EngineError, Game, Undo, parse_action
from games.models import GameAction, GameSession, Player, Result, RoomMember
from games.results.replay_verification import Refused, outcome_of, verify
from games.results.store import store_verified
from games.rooms import progress as room_progress
from games.rooms import rooms
from games.selectors import session_for
from games.sessions import hints, live
from games.sessions import play_repository as play
from games.sessions import pushes as session_pushes
from games.sessions.live import LiveGame, LiveSession, progress_of
from games.sessions.play_repository import LogMovedOn
from games.sessions.starts import new_sessions
from games.solver import solve_game
from operations import metrics
from web import ratelimit
from web.errors import BadRequest, Conflict, NotAuthenticated, NotFound, ServiceError, Unprocessable

log = logging.getLogger(__name__)

MAX_TOKEN_CHARS = 32
# The budget of a play-out's search, on the request's thread: its position has every card face up.
PLAY_OUT_SECONDS = 1.0
GAME_OVER = gettext_noop("This game is over: it accepts no more actions.")
RACE_TIME_UP = gettext_noop("The race's time is up: your game ends as it stands and places last.")
UNDO_WOULD_HIDE = gettext_noop(
    "In a ranked game on a hidden deal an undo cannot take back a dealt row or a card turned face up: "
    "each attempt shows only what it played."
)
RACED = gettext_noop("This game was changing while your action arrived. Look at it again and retry.")
GUESTS_SIGN_UP = gettext_noop(
    "Sign up to play the daily challenges: they are for players with a name, who get one ranked attempt each. "
    "As a guest you can play any other deal, and a daily's deal once its day is over."
)


# ------------------------------------------------------------------ starting


def start_session(
    *,
    player: Player,
    code: str | None = None,
    variant: str | None = None,
    daily: str | None = None,
    code_secret: bool = False,
    in_room: bool = False,
    starts_at: dt.datetime | None = None,
    now: dt.datetime | None = None,
    origin: fair_play.Origin | None = None,
) -> tuple[GameSession, bool]:
    """A refereed game on a code, a fresh deal of a variant, or today's daily.

    Returns (session, created): the open ranked daily asked for again is the
    same session, not a new one. A race's games start at `starts_at` (its
    countdown): no action is taken before, and the clock runs from then. A daily attempt keeps
    `origin`, where it was started from (games.dailies.fair_play).
    """
    now = now or timezone.now()
    if sum(choice is not None for choice in (code, variant, daily)) != 1:
        raise BadRequest(gettext('Give exactly one of "code", "variant" or "daily".'))
    if daily is not None:
        return _start_daily(player=player, variant=parse_variant_or_refuse(daily), now=now, origin=origin)
    if code is not None:
        game_code = parse_code(code)
        if not code_secret:  # a secret race's own sessions are the one place its secret code is dealt
            secret_codes.refuse_if_secret(game_code, now=now)
    else:
        game_code = fresh_code(parse_variant_or_refuse(variant))
    game = Game.from_code(game_code)
    (session,) = new_sessions(
        [player],
        game=game,
        stored_code=stored_code_for(game_code),
        code_secret=code_secret,
        in_room=in_room,
        started_at=starts_at or now,
    )
    session.save(force_insert=True)
    if not in_room:  # a race's session is cached once its room names it (the room is in its entry)
        live.put(LiveSession.of(session), game)  # the first view and action need not deal it again
    return session, True


def _start_daily(
    *, player: Player, variant: str, now: dt.datetime, origin: fair_play.Origin | None = None
) -> tuple[GameSession, bool]:
    if player.is_guest:
        # Today's daily is never published yet: a guest's look at it would be a free preview of the
        # deal they could then play ranked under a name.
        raise NotAuthenticated(gettext(GUESTS_SIGN_UP))
    close_expired_dailies(now=now)
    the_daily = schedule.daily_for(schedule.utc_today(now), variant, now=now)
    mine = list(GameSession.objects.filter(player=player, daily=the_daily).order_by("-ranked", "started_at")[:2])
    ranked = mine[0] if mine and mine[0].ranked else None
    if ranked is not None and not ranked.finished:
        return ranked, False
    game = Game.from_code(the_daily.stored_code.code)
    fields: dict[str, Any] = {
        "player": player,
        "stored_code": the_daily.stored_code,
        "daily": the_daily,
        "started_at": now,
        "score": game.score,
    }
    # Only a player's first session on a daily is ranked (one from their days as a guest counts).
    if not mine and schedule.accepts_ranked_attempts(the_daily, now):
        try:
            with transaction.atomic():
                session = GameSession.objects.create(**fields, ranked=True, board=the_daily.board)
                fair_play.record_origin(session=session, origin=origin)
            live.put(LiveSession.of(session), game)
            return session, True
        except IntegrityError:  # a concurrent request made the ranked attempt first
            existing = GameSession.objects.get(player=player, daily=the_daily, ranked=True)
            if not existing.finished:
                return existing, False
    with transaction.atomic():
        session = GameSession.objects.create(**fields, ranked=False, board=None)
        fair_play.record_origin(session=session, origin=origin)
    live.put(LiveSession.of(session), game)
    return session, True


# ------------------------------------------------------------------- playing


@metrics.judged_action
def apply_action(
    *,
    player: Player,
    session_id: object,
    token: object,
    at: object = None,
    now: dt.datetime | None = None,
    counted: bool = False,
) -> LiveGame:
    """Apply one token to the player's session; a refusal changes nothing.

    The engine judges the action against this process's live game; the write
    is conditional on the stored log still being the one that game reflects,
    so a game another worker moved on is reloaded and the action judged again.

    `at`, if given, is the position the client means the action to take in the
    log: a client that lost its answer can send the same action again safely,
    since an action already stored there is answered, not applied twice.

    `counted`: the play socket's own judgement (games.sessions.play_loop) already spent this action's
    rate budget before it handed the action on here.
    """
    now = now or timezone.now()
    if not isinstance(token, str):
        raise BadRequest(gettext('"action" must be a string token such as "3:1>7" or "D".'))
    if at is not None and (isinstance(at, bool) or not isinstance(at, int) or at < 1):
        raise BadRequest(gettext('"at" must be the action\'s position in the log: a whole number from 1.'))
    key = session_key(session_id)
    current = play.load(key, player)
    # Counted once the game is known to be the player's: another player's requests on its id
    # must not spend this game's budget.
    if not counted:
        count_action(current)
    played = _play(current, player=player, token=token, at=at, now=now)
    if played is None:
        # This process's copy may be behind the stored log (another worker moved the game on), or
        # the log moved on under the write: judge once more on the state as stored. Only once: a
        # second miss means the game is changing right now, and the player should look again.
        played = _play(play.load(key, player, stored=True), player=player, token=token, at=at, now=now)
    if played is None:
        raise Conflict(gettext(RACED))
    return played


def _play(current: LiveGame, *, player: Player, token: str, at: int | None, now: dt.datetime) -> LiveGame | None:
    """Judge `token` on `current` and store it: the game with it, or a refusal raised.

    None when the verdict must be taken again on the stored state: a refusal or a resend reached
    on a cached copy (which may be behind what another worker stored), or a write that found the
    stored log moved on. Only a write proves a cached copy current.
    """
    session = current.session
    if at is not None and at != session.action_count + 1:
        play.keep(current)
        if not current.stored:
            return None
        _answer_resend(session, token, at)
        return current
    try:
        action = judge(session, current.game, token, now)
    except ServiceError:
        play.keep(current)  # refused: nothing changed
        if not current.stored:
            return None
        raise
    if current.game.won:
        return _append_winning(player=player, current=current, action=action, now=now)
    appended = play.append(current, action, now=now)
    if isinstance(appended, LogMovedOn):
        return None
    # The append was its own transaction, committed: the room and the game's other sockets hear of it now.
    session_pushes.changed_on_commit(appended.live.session)
    room_id = appended.live.session.room_id
    if room_id is not None:
        room_progress.pushes.changed(room_id)
    return appended.live


def count_action(current: LiveGame) -> None:
    try:
        ratelimit.hit_in_process(
            "actions",
            str(current.session.id),
            limit=settings.RATE_ACTIONS,
            seconds=1,
            message=gettext_noop("Too many actions on this game."),
        )
    except ServiceError:
        play.keep(current)  # refused: the game stays as it was, in the cache too
        raise


def _answer_resend(session: LiveSession, token: str, at: int) -> None:
    """An action meant for position `at` of a log that is not there: a resend is fine, else 409."""
    stored = GameAction.objects.filter(session_id=session.id, seq=at).values_list("token", flat=True).first()
    if stored is not None and stored == _canonical(token):
        return  # already applied: the answer is the game as it is
    raise Conflict(
        gettext(
            "This game has %(actions)s actions, so action %(at)s cannot be played now. "
            "Look at the game again and retry."
        )
        % {"actions": session.action_count, "at": at}
    )


def _canonical(token: str) -> str | None:
    try:
        return str(parse_action(token))
    except EngineError:
        return None


def not_started(session: GameSession | LiveSession, now: dt.datetime) -> str:
    seconds = max(1, -int((now - session.started_at).total_seconds() // 1))
    return ngettext("The race starts in %(n)s second.", "The race starts in %(n)s seconds.", seconds) % {"n": seconds}


def session_key(session_id: object) -> uuid.UUID:
    try:
        return uuid.UUID(str(session_id))
    except ValueError:
        raise NotFound(gettext("No such game session.")) from None


def well_sized(token: str) -> bool:
    """Whether `token` is short enough to be read as an action: its blanks around it are ignored
    as the engine ignores them (docs/notation.md), so only what is between them counts."""
    return len(token) <= MAX_TOKEN_CHARS or len(token.strip(BLANKS)) <= MAX_TOKEN_CHARS


def refuse_unless_on(session: LiveSession, now: dt.datetime) -> None:
    """A 409 unless the game takes actions now: it is over, its daily's day is over, or its race
    has not started yet."""
    if session.finished:
        raise Conflict(gettext(GAME_OVER))
    if session.daily_over(now):
        _close_daily_attempt(session.id)  # its own transaction: the attempt stays ended
        raise Conflict(gettext(GAME_OVER))
    if now < session.started_at:
        raise Conflict(not_started(session, now))
    if session.time_up(now):  # the closer ends the race at its next round; nothing played meanwhile counts
        raise Conflict(gettext(RACE_TIME_UP))


def judge(session: LiveSession, game: Game, token: str, now: dt.datetime) -> Action:
    """The engine's verdict on `token` (the game changes only if it is legal)."""
    refuse_unless_on(session, now)
    position = session.action_count + 1
    if not well_sized(token):
        raise Unprocessable(gettext("That is not an action token."), index=position, token=token)
    if session.action_count >= MAX_LOG_TOKENS:
        raise Unprocessable(
            gettext("This game has reached %(limit)s actions, the most one game may have. Finish it.")
            % {"limit": number_format(MAX_LOG_TOKENS, force_grouping=True)},
            index=position,
            token=token,
            rule="log_too_long",
        )
    try:
        action = parse_action(token)
        if type(action) is Undo and game.last_action_revealed and session.is_blind_ranked(now):
            raise Conflict(gettext(UNDO_WOULD_HIDE), index=position, token=token, rule="undo_would_hide")
        game.push(action)
    except EngineError as refusal:
        raise Unprocessable(refusals.of_error(refusal), index=position, token=token, rule=refusal.rule) from None
    return action


def _append_winning(*, player: Player, current: LiveGame, action: Action, now: dt.datetime) -> LiveGame | None:
    """The winning action ends the game by itself: logged, finished and verified in one transaction.

    None if the stored log moved on meanwhile (nothing is written).
    """
    game = current.game
    with transaction.atomic():
        locked = session_for(player=player, session_id=current.session.id, lock=True)
        if (locked.action_count, locked.finished) != (current.session.action_count, False):
            return None
        position = locked.action_count + 1
        GameAction.objects.create(session=locked, seq=position, token=str(action), at=now)
        _copy_counters(locked, game, action_count=position, undos=locked.undos + (1 if isinstance(action, Undo) else 0))
        return _finish_won_locked(locked, game, now=now)


# -------------------------------------------------------- hints and play-outs


def give_hint(*, player: Player, session_id: object, now: dt.datetime | None = None) -> dict[str, Any]:
    """A next action chosen from what the player sees (games/engine/hint.py), counted on the game:
    like an undo, a hint makes its result not clean. Refused in a ranked blind deal (a 409)."""
    now = now or timezone.now()
    key = session_key(session_id)
    row = session_for(player=player, session_id=key)  # first: another player's asks spend nothing
    ratelimit.hit_in_process(
        "hints", str(key), limit=settings.RATE_ACTIONS, seconds=1, message=gettext_noop("Too many hints asked.")
    )
    current = LiveSession.of(row)
    refuse_unless_on(current, now)
    if current.is_blind_ranked(now):
        raise Conflict(gettext(hints.HINT_BLIND), rule="no_hints_blind")
    with transaction.atomic():
        locked = session_for(player=player, session_id=key, lock=True)
        if locked.finished:  # it ended meanwhile
            raise Conflict(gettext(GAME_OVER))
        hint = live.game_for(locked).hint()
        if hint is not None:  # an answer that names no action tells nothing: not counted
            locked.hints += 1
            locked.save(update_fields=["hints"])
            counted = locked.hints
            transaction.on_commit(lambda: live.count_hint(key, hints=counted), robust=True)
    return hints.hint_document(hint, hints=locked.hints)


def play_out(*, player: Player, session_id: object, now: dt.datetime | None = None) -> LiveGame:
    """Play a game whose every card is face up and stock is empty out to its win, as the solver
    finds it from there (it knows no more than the player sees): each action judged by the engine
    and appended to the log like any other, then the game finished and verified, all in one
    transaction. A 409 in words if the game hides a card, or no win is found within the budget."""
    now = now or timezone.now()
    key = session_key(session_id)
    row = session_for(player=player, session_id=key)
    refuse_unless_on(LiveSession.of(row), now)
    game = live.game_for(row)
    if not game.nothing_hidden:
        raise Conflict(gettext(hints.NOT_OPEN), rule="cards_hidden")
    ratelimit.hit(
        "play-out", str(player.pk), limit=settings.RATE_PLAY_OUTS, seconds=60, message=hints.TOO_MANY_PLAY_OUTS
    )
    line = solve_game(game, PLAY_OUT_SECONDS)
    if line.status != "won":
        proven = line.status == "unwinnable"  # else the search ran out of time
        raise Conflict(gettext(hints.CANNOT_WIN) if proven else gettext(hints.NOT_FOUND_IN_TIME))
    with transaction.atomic():
        locked = session_for(player=player, session_id=key, lock=True)
        if (locked.action_count, locked.finished) != (row.action_count, False):
            raise Conflict(gettext(RACED))
        session = LiveSession.of(locked)
        played: list[GameAction] = []
        for token in line.actions:
            action = judge(session, game, token, now)
            session = session.played(game, undo=False)
            # No time of its own: the server played it, so it says nothing of the player's pace
            # (games.dailies.fair_play).
            played.append(GameAction(session=locked, seq=session.action_count, token=str(action), at=None))
        if not game.won:  # the solver's line is replayed before it is given: this is a bug
            raise RuntimeError(f"the play-out of session {key} did not win")
        GameAction.objects.bulk_create(played)
        _copy_counters(locked, game, action_count=session.action_count, undos=locked.undos)
        return _finish_won_locked(locked, game, now=now)


def _finish_won_locked(locked: GameSession, game: Game, *, now: dt.datetime) -> LiveGame:
    """End a locked session whose game has just been won in this transaction, and once it commits
    keep the won game in the cache and tell its sockets and its room."""
    _finish_locked(locked, game, now=now)
    won = LiveGame(LiveSession.of(locked), game)
    transaction.on_commit(lambda: live.put(won.session, game), robust=True)
    session_pushes.changed_on_commit(locked)
    transaction.on_commit(lambda: rooms.session_progressed(session=locked), robust=True)
    return won


def finish_session(*, player: Player, session_id: object, now: dt.datetime | None = None) -> tuple[GameSession, Game]:
    """The player gives up: the game ends as it stands and its log is verified.

    A daily attempt given up after its day's publication ended at that moment; a race's game given
    up after the race's time limit ran out of time, as the closer would have ended it.
    """
    now = now or timezone.now()
    with transaction.atomic():
        session = session_for(player=player, session_id=session_id, lock=True)
        if session.finished:
            raise Conflict(gettext(GAME_OVER))
        if session.daily is not None:
            now = min(now, session.daily.publishes_at)
        if live.race_time_up(in_room=session.in_room, started_at=session.started_at, now=now):
            RoomMember.objects.filter(session_id=session.pk).update(ran_out_of_time=True)
        game = live.game_for(session)
        _finish_locked(session, game, now=now)
        transaction.on_commit(lambda: live.forget(session.id), robust=True)
        session_pushes.changed_on_commit(session)
        transaction.on_commit(lambda: rooms.session_progressed(session=session), robust=True)
    return session, game


def _copy_counters(session: GameSession, game: Game, *, action_count: int, undos: int) -> None:
    session.action_count = action_count
    session.undos = undos
    session.score = game.score
    session.moves = game.moves
    session.progress = progress_of(game)
    session.won = game.won


def _finish_locked(session: GameSession, game: Game, *, now: dt.datetime) -> Result:
    """End a locked session: replay its stored log from the deal and store what that gives."""
    session.finished_at = now
    session.save(update_fields=["action_count", "score", "moves", "progress", "won", "undos", "finished_at"])
    tokens = live.stored_tokens(session)
    try:
        outcome = verify(session.stored_code.code, tokens)
    except Refused as refused:  # the stored log was applied action by action: this is a bug
        log.error("stored log of %s does not verify: %s", session.id, refused)
        raise
    live_outcome = outcome_of(game, tokens)
    if not outcome.same_numbers(live_outcome):
        log.error("session %s: live play %s but replay %s", session.id, live_outcome, outcome)
    screened = fair_play.screens(session) and not session.player.is_guest
    signals: dict[str, Any] = {}
    reasons: list[str] = []
    if screened:
        signals, reasons = fair_play.signals_of(
            session=session, tokens=outcome.tokens, won=outcome.won, moves=outcome.moves, ended_at=now
        )
    result = store_verified(
        player=session.player,
        outcome=outcome,
        stored_code=session.stored_code,
        daily=session.daily,
        board=session.board,
        session=session,
        elapsed_ms=max(0, int((now - session.started_at).total_seconds() * 1000)),
        finished_at=now,
        under_review=bool(reasons),
    )
    if screened:
        fair_play.record_review(result=result, signals=signals, reasons=reasons)
    session.result = result
    return result


# --------------------------------------------------------------- the dailies


def close_expired_dailies(*, now: dt.datetime | None = None) -> int:
    """At 01:00 UTC the next day, open attempts end as they stand (their partial result counts)."""
    now = now or timezone.now()
    open_ids = list(_expired_daily_attempts(now).values_list("id", flat=True))
    return sum(_close_daily_attempt(session_id, now=now) for session_id in open_ids)


def _expired_daily_attempts(now: dt.datetime) -> QuerySet[GameSession]:
    """The daily attempts still open after their daily's day is over (01:00 UTC the next day)."""
    return GameSession.objects.filter(daily__date__lte=_last_closed_day(now), finished_at=None)


def _last_closed_day(now: dt.datetime) -> dt.date:
    return (now - dt.timedelta(hours=1)).date() - dt.timedelta(days=1)


def _close_daily_attempt(session_id: uuid.UUID, *, now: dt.datetime | None = None) -> bool:
    """End one daily attempt as it stands at its daily's publication, if that time has come."""
    now = now or timezone.now()
    with transaction.atomic():
        session = (
            GameSession.objects.select_for_update(of=("self",))
            .select_related("stored_code", "daily", "player")
            .filter(id=session_id, finished_at=None)
            .first()
        )
        if session is None or session.daily is None or now < session.daily.publishes_at:
            return False
        _finish_locked(session, live.game_for(session), now=session.daily.publishes_at)
        transaction.on_commit(lambda: live.forget(session.id), robust=True)
        session_pushes.changed_on_commit(session)
        transaction.on_commit(lambda: rooms.session_progressed(session=session), robust=True)
    return True
