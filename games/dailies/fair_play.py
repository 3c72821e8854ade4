"""Fair play on the dailies (docs/dailies.md, "Fair play"): the signals of a ranked daily attempt,
computed when it ends, the reasons they give to hold its result off the boards, and staff's
decisions on a held result.

The signals, each explainable on its own:

- linked accounts: another account played the same daily, before this attempt ended, from the same
  device (the page's long-lived random cookie) or the same client address (both kept only as keyed
  hashes, games.models.AttemptOrigin);
- pace: actions faster than a person plays (the server's time of each action);
- clairvoyance: how much of the solver's par line, a line that needs the hidden cards to find, the
  log follows in order; a copy of the par line is the plainest case;
- blind choices: where the player chose which face-down card to turn, luck beyond what a player who
  cannot see the cards has (games.dailies.blind_choices);
- a near-par win: a won log hardly longer than the par line; listed beside another signal only,
  since a strong player who sees only the face-up cards wins in about as few moves;
- account age and history at the time of the attempt (a new account that wins within par at once).

Nothing here reads the leaderboard: a held result is announced to it only once approved, and one
voided after its approval is announced withdrawn (games.results.announcements).
"""

from __future__ import annotations

import datetime as dt
import difflib
import hashlib
import hmac
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from django.conf import settings
from django.db import transaction
from django.db.models import Q

from games.dailies import blind_choices
from games.models import AttemptOrigin, Daily, FairPlayDecision, FairPlayReview, GameAction, GameSession, Player, Result
from games.results import announcements


def keyed_hash(kind: str, value: str) -> str:
    """What is kept of an address or a device id: an HMAC under FAIR_PLAY_HASH_KEY, so the stored
    value tells whether two attempts came from the same place, and not which place it was."""
    key = settings.FAIR_PLAY_HASH_KEY.encode()
    return hmac.new(key, f"{kind}:{value}".encode(), hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class Origin:
    """Where an attempt is started from, as kept: hashes ("" when unknown)."""

    device: str = ""
    address: str = ""


class _Request(Protocol):
    """What origin_of reads of a request (Django's, or DRF's, which hands these on)."""

    @property
    def COOKIES(self) -> Mapping[str, str]: ...  # noqa: N802 - Django's names

    @property
    def META(self) -> Mapping[str, Any]: ...  # noqa: N802


def origin_of(request: _Request) -> Origin:
    device = request.COOKIES.get(settings.FAIR_PLAY_DEVICE_COOKIE, "")
    address = str(request.META.get("REMOTE_ADDR") or "")
    return Origin(
        device=keyed_hash("device", device) if device else "",
        address=keyed_hash("address", address) if address else "",
    )


def record_origin(*, session: GameSession, origin: Origin | None) -> None:
    """Keep where a daily attempt (ranked or practice) was started from."""
    if origin is None or session.daily_id is None or not (origin.device or origin.address):
        return
    AttemptOrigin.objects.get_or_create(
        session=session,
        defaults={
            "daily_id": session.daily_id,
            "player_id": session.player_id,
            "device": origin.device,
            "address": origin.address,
            "started_at": session.started_at,
        },
    )


# ------------------------------------------------------------------ the signals


def linked_accounts(*, session: GameSession, ended_at: dt.datetime) -> dict[str, int]:
    """How many other accounts played the same daily before this attempt ended, from this
    attempt's device and from its address."""
    mine = AttemptOrigin.objects.filter(session=session).first()
    if mine is None or session.daily_id is None:
        return {"device": 0, "address": 0}
    others = AttemptOrigin.objects.filter(daily_id=session.daily_id, started_at__lt=ended_at).exclude(
        player_id=session.player_id
    )

    def count(query: Q) -> int:
        return others.filter(query).values("player_id").distinct().count()

    return {
        "device": count(Q(device=mine.device)) if mine.device else 0,
        "address": count(Q(address=mine.address)) if mine.address else 0,
    }


def pace(times: list[dt.datetime]) -> dict[str, Any]:
    """The gaps between consecutive actions: their median and the longest run of fast ones."""
    gaps = [max(0.0, (b - a).total_seconds() * 1000) for a, b in zip(times, times[1:], strict=False)]
    run = longest = 0
    for gap in gaps:
        run = run + 1 if gap < settings.FAIR_PLAY_PACE_RUN_MS else 0
        longest = max(longest, run)
    return {
        "actions": len(times),
        "median_ms": round(statistics.median(gaps)) if gaps else None,
        "fast_run": longest + 1 if longest else 0,  # actions in the run: one more than its gaps
    }


def too_fast(signal: dict[str, Any]) -> bool:
    median = signal["median_ms"]
    return (
        bool(
            signal["actions"] >= settings.FAIR_PLAY_PACE_ACTIONS
            and median is not None
            and median < settings.FAIR_PLAY_PACE_MEDIAN_MS
        )
        or signal["fast_run"] >= settings.FAIR_PLAY_PACE_RUN
    )


def clairvoyance(tokens: Sequence[str], par_line: str) -> dict[str, Any]:
    """How closely `tokens` follow the solver's par line: the tokens they share from the start,
    and the share of the par line's tokens they match in order (difflib's matching blocks)."""
    line = par_line.split()
    if not line:
        return {"par_tokens": 0, "prefix": 0, "share": None}
    prefix = 0
    for mine, theirs in zip(tokens, line, strict=False):
        if mine != theirs:
            break
        prefix += 1
    matcher = difflib.SequenceMatcher(None, tokens, line, autojunk=False)
    matched = sum(block.size for block in matcher.get_matching_blocks())
    return {"par_tokens": len(line), "prefix": prefix, "share": round(matched / len(line), 3)}


def account(*, player: Player, at: dt.datetime, result_ids_before: int) -> dict[str, Any]:
    return {"age_days": round((at - player.date_joined).total_seconds() / 86400, 2), "games_before": result_ids_before}


def signals_of(
    *, session: GameSession, tokens: Sequence[str], won: bool, moves: int, ended_at: dt.datetime
) -> tuple[dict[str, Any], list[str]]:
    """The signals of a ranked daily attempt that just ended, and the ones that crossed their lines."""
    daily: Daily | None = session.daily
    assert daily is not None
    stamps = GameAction.objects.filter(session=session, at__isnull=False).order_by("seq").values_list("at", flat=True)
    times = [at for at in stamps if at is not None]
    games_before = Result.objects.filter(player_id=session.player_id, finished_at__lt=session.started_at).count()
    signals: dict[str, Any] = {
        "linked": linked_accounts(session=session, ended_at=ended_at),
        "pace": pace(times),
        "clairvoyance": clairvoyance(tokens, daily.par_line),
        "blind_choices": blind_choices.read(session.stored_code.code, tokens).document(),
        "moves_to_par": round(moves / daily.par, 3) if won and daily.par else None,
        "account": account(player=session.player, at=session.started_at, result_ids_before=games_before),
    }
    reasons = []
    if signals["linked"]["device"]:
        reasons.append("linked_device")
    if signals["linked"]["address"] and settings.FAIR_PLAY_LINK_ADDRESSES:
        reasons.append("linked_address")
    if too_fast(signals["pace"]):
        reasons.append("pace")
    share = signals["clairvoyance"]["share"]
    if won and share is not None and share >= settings.FAIR_PLAY_PAR_SHARE:
        reasons.append("clairvoyance")
    new = (
        signals["account"]["age_days"] < settings.FAIR_PLAY_NEW_ACCOUNT_DAYS
        and games_before < settings.FAIR_PLAY_NEW_ACCOUNT_GAMES
    )
    if new and won and daily.par is not None and moves <= daily.par:
        reasons.append("new_account_at_par")
    blind = signals["blind_choices"]
    if blind["count"] >= settings.FAIR_PLAY_BLIND_CHOICES and blind["odds"] <= settings.FAIR_PLAY_BLIND_ODDS:
        reasons.append("blind_luck")
    if reasons and won and daily.par and moves <= daily.par * settings.FAIR_PLAY_NEAR_PAR:
        reasons.append("near_par")  # beside another signal only: alone, strong players cross it too
    return signals, reasons


def screens(session: GameSession) -> bool:
    """Whether the attempt's result is screened: a ranked daily attempt of a player with a name."""
    return session.daily_id is not None and session.ranked and (session.board or "").startswith("daily:")


def record_review(*, result: Result, signals: dict[str, Any], reasons: list[str]) -> FairPlayReview:
    """Keep the signals with the result; with reasons, it is held (FairPlayReview.status)."""
    return FairPlayReview.objects.create(result=result, signals=signals, reasons=reasons)


# ------------------------------------------------------------------ staff decisions


class CannotDecide(Exception):
    """The decision would change nothing: the result was not held by the screen, or the decision in
    force is already this one."""


def decide(*, review: FairPlayReview, staff: Player, verdict: str, reason: str, now: dt.datetime) -> FairPlayReview:
    """A member of staff approves or voids a result the screen held, and the decision is logged; a
    later decision may undo an earlier one. Approved (first, or on appeal after a void), the result
    is announced as if it had just been verified, and the boards, statistics and streaks take it;
    voided after an approval, it is announced withdrawn and they give it back up; voided while
    held, it was never counted."""
    if verdict not in FairPlayDecision.Verdict.values:
        raise ValueError(verdict)
    approve = verdict == FairPlayDecision.Verdict.APPROVE
    with transaction.atomic():
        locked = FairPlayReview.objects.select_for_update().get(pk=review.pk)
        was = locked.status
        if was == FairPlayReview.Status.CLEAR:
            raise CannotDecide("only a result fair play held can be decided")
        if was == (FairPlayReview.Status.APPROVED if approve else FairPlayReview.Status.VOIDED):
            raise CannotDecide(f"the result is {was} already")
        FairPlayDecision.objects.create(review=locked, verdict=verdict, reason=reason, staff=staff, decided_at=now)
        if approve or was == FairPlayReview.Status.APPROVED:
            result = Result.objects.select_related("player", "stored_code", "daily", "session").get(pk=locked.result_id)
            announcements.announce(announcements.Event(kind="approved" if approve else "withdrawn", result=result))
    return locked


# ------------------------------------------------------------------ what the player sees


def status_of(result: Result, *, now: dt.datetime) -> dict[str, Any] | None:
    """A daily result's standing for its player: provisional until the day closes, then final;
    under review while held; approved, or voided with the reason, as the decision in force says.
    None for any other result."""
    if result.daily_id is None or not (result.board or "").startswith("daily:"):
        return None
    try:
        review: FairPlayReview | None = result.fair_play
    except FairPlayReview.DoesNotExist:
        review = None
    daily = result.daily
    assert daily is not None
    closed = now >= daily.publishes_at
    status = "final" if closed else "provisional"
    reason = ""
    decided_at = None
    if review is not None:
        standing, latest = review.standing()
        if standing != FairPlayReview.Status.CLEAR:
            status = "under_review" if standing == FairPlayReview.Status.HELD else standing
        if latest is not None:
            reason = latest.reason if latest.verdict == FairPlayDecision.Verdict.VOID else ""
            decided_at = latest.decided_at.isoformat()
    return {
        "status": status,
        "reason": reason or None,
        "decided_at": decided_at,
        "final_at": daily.publishes_at.isoformat(),
    }
