"""Batch submissions (POST /api/submissions): a whole log played elsewhere, verified by its replay
from the deal and stored as a result.

`submit` (async, the async view web/async_views.py and sync code alike) checks in this order, with
the same answers either way: the caller's limits and the player's, the body's types, the code,
whether the code is still secret (before the replay: its refusals and its numbers would be answers
about a secret deal), the replay, the claimed score, and the one write of games.results.store. With an
idempotency key the check and the write happen in one transaction on a thread (Django's
connection), which a twin of the same key waits for.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Sequence
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from games import refusals
from games.deals import secret_codes
from games.deals.codes import parse_code
from games.engine import MAX_LOG_TOKENS, GameCode
from games.models import Player, Result, Submission
from games.results.replay_verification import Outcome, Refused, verify
from games.results.store import store_submission, store_verified
from games.selectors import result_document
from operations import metrics
from web import ratelimit
from web.errors import BadRequest, Conflict, error_body

Answer = tuple[int, dict[str, Any]]
_LIMIT = gettext_noop("Too many submissions.")


@metrics.submission
async def submit(
    *,
    player: Player,
    code: object,
    log: object,
    claimed_score: object = None,
    key: str | None = None,
    now: dt.datetime | None = None,
    limits: Sequence[ratelimit.Limit] = (),
) -> Answer:
    """Verify a whole log played elsewhere (the body's "moves"): `limits` (the caller's, counted
    first) and the player's counted in one round trip, then the submission. Returns (status, body),
    refusals included, so that an idempotency `key` answers the same thing twice."""
    now = now or timezone.now()
    await ratelimit.hit_each([*limits, _player_limit(player)])
    if key is not None:
        return await sync_to_async(_submit_once)(player, code, log, claimed_score, key, now)
    game_code, tokens = _checked(code, log, claimed_score)
    if await secret_codes.is_secret(game_code, now=now):
        raise secret_codes.refusal()
    verdict = _verdict(game_code, tokens, claimed_score)
    if not isinstance(verdict, Outcome):
        return verdict
    board = f"code:{game_code}"
    result = await store_submission(player=player, outcome=verdict, code=game_code, board=board, finished_at=now)
    return 201, {"result": result_document(result, now=now)}


def submit_log(**submission: Any) -> Answer:
    """`submit` for sync code."""
    return async_to_sync(submit)(**submission)


def _submit_once(
    player: Player, code: object, log: object, claimed_score: object, key: str, now: dt.datetime
) -> Answer:
    """The submission of `key`, made once: a second with the same body gets the first's answer."""
    try:
        text = json.dumps([code, log, claimed_score], sort_keys=True, separators=(",", ":"))
    except RecursionError:  # parsed on the event loop, whose stack is deeper than this thread's
        raise BadRequest(gettext("The body's JSON is nested too deeply.")) from None
    digest = hashlib.sha256(text.encode()).hexdigest()
    earlier = Submission.objects.filter(player=player, key=key).first()
    if earlier is not None:
        return _replayed(earlier, digest)
    try:
        with transaction.atomic():
            # Claim the key first: a concurrent twin waits on the unique index, then replays ours.
            claim = Submission.objects.create(player=player, key=key, body_digest=digest, status=0, response={})
            status, body, result = _verify_submission(
                player=player, code=code, log=log, claimed_score=claimed_score, now=now
            )
            claim.status, claim.response, claim.result = status, body, result
            claim.save(update_fields=["status", "response", "result"])
    except IntegrityError:
        return _replayed(Submission.objects.get(player=player, key=key), digest)
    return status, body


def _player_limit(player: Player) -> ratelimit.Limit:
    """A player's submissions (read when asked: the setting may change)."""
    return ratelimit.Limit("submissions", str(player.pk), settings.RATE_SUBMISSIONS, 60, _LIMIT)


def _replayed(earlier: Submission, digest: str) -> Answer:
    if earlier.body_digest != digest:
        raise Conflict(gettext("This submission key was already used for a different submission."))
    return earlier.status, earlier.response


def _verify_submission(
    *, player: Player, code: object, log: object, claimed_score: object, now: dt.datetime
) -> tuple[int, dict[str, Any], Result | None]:
    game_code, tokens = _checked(code, log, claimed_score)
    secret_codes.refuse_if_secret(game_code, now=now)
    verdict = _verdict(game_code, tokens, claimed_score)
    if not isinstance(verdict, Outcome):
        return (*verdict, None)
    # The deal is made (on first use) with the result, in its transaction and round trip.
    result = store_verified(
        player=player, outcome=verdict, stored_code=game_code, board=f"code:{game_code}", finished_at=now
    )
    return 201, {"result": result_document(result, now=now)}, result


def _checked(code: object, log: object, claimed_score: object) -> tuple[GameCode, list[object]]:
    """The code and the log of a submission whose fields have the right types; BadRequest naming
    what is wrong."""
    if not isinstance(log, list):
        raise BadRequest(gettext('"moves" must be a list of tokens.'))
    if claimed_score is not None and (isinstance(claimed_score, bool) or not isinstance(claimed_score, int)):
        raise BadRequest(gettext('"claimed_score" must be a whole number.'))
    return parse_code(code), log


def _verdict(code: GameCode, log: list[object], claimed_score: object) -> Outcome | Answer:
    """The replay's outcome, or the refusal (422) of a log too long, an illegal action or a claimed
    score the replay does not give."""
    if len(log) > MAX_LOG_TOKENS:
        too_long = refusals.sentence("log_too_long", {"limit": MAX_LOG_TOKENS, "count": len(log)})
        return _refusal(f"{too_long}.", index=0, rule="log_too_long")
    try:
        outcome = verify(code, log)
    except Refused as refused:
        error = refused.error
        message = refusals.sentence(error.rule, error.params, error.message)
        return _refusal(message, index=error.index, token=error.token, rule=error.rule or None)
    if claimed_score is not None and claimed_score != outcome.score:
        return _refusal(
            gettext("You claimed %(claimed)s points, but the replay of your moves scores %(score)s.")
            % {"claimed": claimed_score, "score": outcome.score},
            index=None,
        )
    return outcome


def _refusal(message: str, *, index: int | None, token: str | None = None, rule: str | None = None) -> Answer:
    return 422, error_body(message, index=index, token=token, rule=rule)
