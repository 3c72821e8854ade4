"""Challenges by name: a signed-in player invites another to a rated race of a variant; the invitee
accepts (both race at once on a fresh hidden deal) or declines, within CHALLENGE_SECONDS.

Each change is pushed to both players' own sockets once committed (races.player_socket). Every
refusal is a 4xx in words and writes nothing: an answer locks its challenge's row, so a challenge
is answered once whoever answers it twice at the same moment.
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from games.dailies.fair_play import Origin
from games.deals.codes import parse_variant_or_refuse
from games.models import Player
from games.rooms import rooms
from races import ratings, selectors
from races.matching import GUESTS_UNRATED
from races.models import Challenge, MatchedRace
from races.player_socket import tell_on_commit
from web import ratelimit
from web.errors import Conflict, Forbidden, NotFound, RateLimited, Unprocessable

CHALLENGE_SECONDS = 120  # an invitation not answered by then has expired
CHALLENGES_WINDOW_SECONDS = 600
TOO_MANY_CHALLENGES = gettext_noop("You have sent too many challenges: wait a few minutes before the next.")
NO_SUCH_CHALLENGE = gettext_noop("No such challenge.")
INVITEE_TOO_MANY_GAMES = gettext_noop(
    "You have started too many games in the last minute: accept the challenge once you may start another."
)
CHALLENGER_TOO_MANY_GAMES = gettext_noop(
    "Your challenger has started too many games in the last minute: accept the challenge once they may start another."
)


def challenge(
    *,
    challenger: Player,
    name: object,
    variant: object,
    origin: Origin | None = None,
    now: dt.datetime | None = None,
) -> dict[str, Any]:
    """Invite the player called `name` to a race of `variant`; counted against RATE_CHALLENGES once
    valid. `origin`: where the challenger sent it from, kept for the race's linked-accounts check."""
    now = now or timezone.now()
    if challenger.is_guest:
        raise Forbidden(gettext(GUESTS_UNRATED))
    chosen = parse_variant_or_refuse(variant)
    invitee = _player_named(name)
    if invitee.pk == challenger.pk:
        raise Unprocessable(gettext("You cannot challenge yourself: challenge another player by name."))
    ratelimit.hit(
        "challenges",
        str(challenger.pk),
        limit=settings.RATE_CHALLENGES,
        seconds=CHALLENGES_WINDOW_SECONDS,
        message=TOO_MANY_CHALLENGES,
    )
    with transaction.atomic():
        sent = Challenge.objects.create(
            challenger=challenger,
            invitee=invitee,
            variant=chosen,
            created_at=now,
            expires_at=now + dt.timedelta(seconds=CHALLENGE_SECONDS),
            device=(origin or Origin()).device,
            address=(origin or Origin()).address,
        )
        document = selectors.challenge_document(sent, now=now)
        tell_on_commit([challenger.pk, invitee.pk], {"type": "player.challenge", "challenge": document})
    return document


def _player_named(name: object) -> Player:
    text = name.strip() if isinstance(name, str) else ""
    invitee = Player.objects.filter(username__iexact=text, is_active=True, is_guest=False).first() if text else None
    if invitee is None:
        raise NotFound(gettext("No player called %(name)s can be challenged.") % {"name": text[:40]})
    return invitee


def accept(
    *, player: Player, challenge_id: object, origin: Origin | None = None, now: dt.datetime | None = None
) -> dict[str, Any]:
    """The invitee accepts: both race at once on a fresh hidden deal (the countdown), the challenger
    hosting, started as the rooms start a service's races (games.rooms.start_races). Refused (429,
    nothing written, the challenge still open) while either may not start a new game. Where each
    came from (the challenger's when sending, the invitee's `origin`) is kept with the race."""
    now = now or timezone.now()
    with transaction.atomic():
        answered = _to_answer(player, challenge_id, now)
        challenger = answered.challenger
        (outcome,) = rooms.start_races([[challenger, player]], answered.variant, min_racers=2, now=now)
        if isinstance(outcome, rooms.NotStarted):
            raise _over_new_games(outcome, invitee=player)
        room = outcome.room
        MatchedRace.objects.create(room=room, how=MatchedRace.How.CHALLENGE)
        sent_from = Origin(device=answered.device, address=answered.address)
        ratings.record_origins([(room.pk, challenger.pk, sent_from), (room.pk, player.pk, origin or Origin())])
        answered.state, answered.answered_at, answered.room = Challenge.State.ACCEPTED, now, room
        answered.save(update_fields=["state", "answered_at", "room"])
        return _told(answered, now)


def _over_new_games(left_out: rooms.NotStarted, *, invitee: Player) -> RateLimited:
    """The invitee's refusal: who may not start a game yet, and when both may (a race of one is no race)."""
    waits = {racer.pk: seconds for racer, seconds in left_out.over}
    message = INVITEE_TOO_MANY_GAMES if invitee.pk in waits else CHALLENGER_TOO_MANY_GAMES
    return ratelimit.refusal(message, max(waits.values(), default=1.0))


def decline(*, player: Player, challenge_id: object, now: dt.datetime | None = None) -> dict[str, Any]:
    now = now or timezone.now()
    with transaction.atomic():
        answered = _to_answer(player, challenge_id, now)
        answered.state, answered.answered_at = Challenge.State.DECLINED, now
        answered.save(update_fields=["state", "answered_at"])
        return _told(answered, now)


def _to_answer(player: Player, challenge_id: object, now: dt.datetime) -> Challenge:
    """The challenge `player` may answer now, locked; else the refusal that says why."""
    try:
        key = uuid.UUID(str(challenge_id))
    except ValueError:
        raise NotFound(gettext(NO_SUCH_CHALLENGE)) from None
    found = (
        Challenge.objects.select_for_update(of=("self",)).select_related("challenger", "invitee").filter(pk=key).first()
    )
    if found is None or player.pk not in (found.challenger_id, found.invitee_id):
        raise NotFound(gettext(NO_SUCH_CHALLENGE))  # another pair's challenge is none of this player's business
    if found.invitee_id != player.pk:
        raise Forbidden(gettext("Only the invited player can answer a challenge."))
    if found.state != Challenge.State.PENDING:
        raise Conflict(gettext("This challenge has been answered already."))
    if found.expires_at <= now:
        raise Conflict(gettext("This challenge has expired: challenge the player again."))
    return found


def _told(answered: Challenge, now: dt.datetime) -> dict[str, Any]:
    document = selectors.challenge_document(answered, now=now)
    tell_on_commit([answered.challenger_id, answered.invitee_id], {"type": "player.challenge", "challenge": document})
    return document
