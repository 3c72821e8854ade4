"""Player services: guests, sign-up, log-in, log-out (HackSoft style: typed, keyword-only)."""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop
from rest_framework.authtoken.models import Token

from accounts import token_auth
from games.models import Player
from games.players import names
from web import ratelimit
from web.errors import Conflict, NotAuthenticated, NotFound, Unprocessable

NAME_REFUSED = gettext_noop("A name is 3 to 20 characters: letters, digits, '_' and '-' only.")


def _check_name(username: str) -> str:
    name = username.strip()
    if not names.NAME_RULE.fullmatch(name):
        raise Unprocessable(gettext(NAME_REFUSED))
    if names.is_reserved(name):
        raise Unprocessable(
            gettext("The name %(name)s is one the interface uses for its own labels. Pick another.")
            % {"name": repr(name)}
        )
    if Player.objects.filter(username__iexact=name).exists():
        raise Conflict(gettext("The name %(name)s is taken. Pick another.") % {"name": repr(name)})
    if Player.objects.filter(name_key=names.name_key(name)).exists():
        raise Conflict(
            gettext("The name %(name)s looks too much like a name already taken. Pick another.") % {"name": repr(name)}
        )
    return name


def _check_password(password: str, player: Player) -> None:
    try:
        validate_password(password, user=player)
    except ValidationError as exc:
        raise Unprocessable(" ".join(exc.messages)) from None


def sign_up(*, username: str, password: str, address: str, guest: Player | None = None) -> Player:
    """Make a named player; a guest who signs up keeps their games. Only sign-ups that succeed use
    the address's quota: each is counted before it is tried (so concurrent ones cannot all slip
    under the limit) and given back when refused, so a typo (a weak password, a taken name) costs
    no one behind a shared address a sign-up."""
    attempt = ratelimit.take(
        "signup",
        address,
        limit=settings.RATE_SIGNUPS,
        seconds=3600,
        message=gettext_noop("Too many sign-ups from this address."),
    )
    try:
        return _make_player(username=username, password=password, guest=guest)
    except Exception:
        ratelimit.give_back(attempt)
        raise


def _make_player(*, username: str, password: str, guest: Player | None) -> Player:
    name = _check_name(username)
    player = guest if guest is not None and guest.is_guest else Player(is_guest=False)
    player.username = name
    player.is_guest = False
    _check_password(password, player)
    player.set_password(password)
    try:
        with transaction.atomic():
            player.save()
    except IntegrityError:
        raise Conflict(gettext("The name %(name)s is taken. Pick another.") % {"name": repr(name)}) from None
    return player


def log_in(*, username: str, password: str, address: str) -> Player:
    """Any case of the name logs in (names are unique without regard to case); the limits are the
    authentication backend's, which the admin's log-in shares, counted for `address` too."""
    if names.login_name(username) is None:
        raise Unprocessable(gettext(NAME_REFUSED))
    player = authenticate(username=username, password=password, address=address)
    if not isinstance(player, Player):
        raise NotAuthenticated(gettext("Wrong name or password."))
    return player


def token_for(player: Player) -> str:
    """The player's API token for scripts; one past its expiry is replaced by a new one."""
    token = Token.objects.filter(user=player).first()
    if token is not None and token_auth.expires_at(token.created) <= timezone.now():
        token.delete()
        token = None
    if token is None:
        token, _ = Token.objects.get_or_create(user=player)
    return str(token.key)  # DRF's stubs leave the key's column untyped


def token_id(key: str) -> str:
    """How a token is named when listed: a digest, so that a listing never shows the key."""
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def tokens_of(player: Player) -> list[dict[str, Any]]:
    return [
        {"id": token_id(token.key), "created": token.created, "expires": token_auth.expires_at(token.created)}
        for token in Token.objects.filter(user=player).order_by("created")
    ]


def revoke_token(player: Player, *, token_id_: str | None = None) -> None:
    """Revoke the player's token (the one named, when `token_id_` is given: NotFound if none is)."""
    tokens = list(Token.objects.filter(user=player))
    if token_id_ is not None:
        tokens = [token for token in tokens if token_id(token.key) == token_id_]
        if not tokens:
            raise NotFound(gettext("You have no such token."))
    for token in tokens:
        token.delete()
